/**
 * Stop-word sets for the tokenizer: the NLTK English list, and the reserved words of the
 * programming languages issueloc indexes.
 *
 * All entries are lower case, because the tokenizer compares lower-cased tokens.
 */

import { IssuelocError } from '../errors.js';

/**
 * NLTK's English stop-word list (153 words, the classic list), exactly the set the reference
 * evaluator `ref_eval.py` uses (its `STOP_WORDS`; docs/benchmark-gold.md). Note that it holds
 * the contraction fragments (`s`, `t`, `ll`, `ve`, `don`, `isn`, …) that a split on non-letters
 * leaves behind.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his
himself she her hers herself it its itself they them their theirs themselves what
which who whom this that these those am is are was were be been being have has had
having do does did doing a an the and but if or because as until while of at by for
with about against between into through during before after above below to from up
down in out on off over under again further then once here there when where why how
all any both each few more most other some such no nor not only own same so than too
very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn
hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn`.split(/\s+/),
);

/**
 * Reserved words per language, lower-cased, taken from each language's reference:
 * Python 3.12 (`keyword.kwlist` + soft keywords `match case type`, plus the receiver names
 * `self` and `cls`, which are conventions but fill method bodies like keywords), Java SE 21
 * (JLS §3.9, with contextual `var yield record sealed permits` and the literals), JavaScript
 * (ECMAScript 2024 reserved words incl. strict-mode ones) and TypeScript's own reserved
 * (`declare namespace readonly keyof infer satisfies abstract`; not the type names `string`,
 * `number`, `any`, which are ordinary words in issues), Go 1.22 (spec "Keywords" + `nil true
 * false iota`), C11 and C++20 (incl. `const_cast` style names, kept whole), C# 12 (reserved,
 * not contextual), Ruby 3 and PHP 8 (reserved keywords, `true false null this`), and Rust 2021
 * (strict and reserved keywords). Names with leading underscores (`_Bool`, `__FILE__`) are left
 * out: the tokenizer never yields them.
 */
export const CODE_KEYWORDS_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  python: words(`false none true and as assert async await break class continue def del elif else
    except finally for from global if import in is lambda nonlocal not or pass raise return try
    while with yield match case type self cls`),
  java: words(`abstract assert boolean break byte case catch char class const continue default do
    double else enum extends final finally float for goto if implements import instanceof int
    interface long native new package private protected public return short static strictfp super
    switch synchronized this throw throws transient try void volatile while true false null var
    yield record sealed permits`),
  javascript: words(`await break case catch class const continue debugger default delete do else
    enum export extends false finally for function if import in instanceof new null return super
    switch this throw true try typeof var void while with yield let static implements interface
    package private protected public async of undefined declare namespace readonly keyof infer
    satisfies abstract`),
  go: words(`break case chan const continue default defer else fallthrough for func go goto if
    import interface map package range return select struct switch type var nil true false iota`),
  c: words(`auto break case char const continue default do double else enum extern float for goto
    if inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while`),
  cpp: words(`alignas alignof and and_eq asm bitand bitor bool catch class compl concept consteval
    constexpr constinit const_cast co_await co_return co_yield decltype delete dynamic_cast
    explicit export false friend mutable namespace new noexcept not not_eq nullptr operator or
    or_eq private protected public reinterpret_cast requires static_assert static_cast template
    this thread_local throw true try typeid typename using virtual wchar_t xor xor_eq`),
  csharp: words(`abstract as base bool break byte case catch char checked class const continue
    decimal default delegate do double else enum event explicit extern false finally fixed float
    for foreach goto if implicit in int interface internal is lock long namespace new null object
    operator out override params private protected public readonly ref return sbyte sealed short
    sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked
    unsafe ushort using virtual void volatile while`),
  ruby: words(`alias and begin break case class def defined do else elsif end ensure false for if
    in module next nil not or redo rescue retry return self super then true undef unless until
    when while yield`),
  php: words(`abstract and array as break callable case catch class clone const continue declare
    default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile enum
    eval exit extends final finally fn for foreach function global goto if implements include
    include_once instanceof insteadof interface isset list match namespace new or print private
    protected public readonly require require_once return static switch throw trait try unset use
    var while xor yield true false null this`),
  rust: words(`as async await break const continue crate dyn else enum extern false fn for if impl
    in let loop match mod move mut pub ref return self static struct super trait true type unsafe
    use where while abstract become box do final macro override priv typeof unsized virtual yield
    try`),
};

/** The union of {@link CODE_KEYWORDS_BY_LANGUAGE}: every reserved word of every language above. */
export const CODE_KEYWORDS: ReadonlySet<string> = new Set(Object.values(CODE_KEYWORDS_BY_LANGUAGE).flat());

/** Languages that take another's reserved words (their own lists hold only what they add). */
const KEYWORDS_ALSO: Readonly<Record<string, readonly string[]>> = {
  typescript: ['javascript'], cython: ['python'], cpp: ['c', 'cpp'], objc: ['c'],
};

const keywordSets = new Map<string, ReadonlySet<string>>();
const NO_KEYWORDS: ReadonlySet<string> = new Set();

/**
 * The reserved words of one language (a name of src/corpus/languages.ts), the words that do not
 * count as matches in its files: {@link CODE_KEYWORDS_BY_LANGUAGE}, TypeScript's with
 * JavaScript's, C++'s with C's, Cython's with Python's, Objective-C's with C's. An empty set for
 * a language without a list (and for undefined: not code). The same Set object on every call.
 */
export function languageKeywords(language: string | undefined): ReadonlySet<string> {
  if (language === undefined) return NO_KEYWORDS;
  let set = keywordSets.get(language);
  if (set === undefined) {
    const lists = KEYWORDS_ALSO[language] ?? [language];
    set = new Set(lists.flatMap((l) => CODE_KEYWORDS_BY_LANGUAGE[l] ?? []));
    keywordSets.set(language, set);
  }
  return set;
}

/** Which stop-word set {@link defaultStopWords} returns. */
export type StopWordKind = 'english' | 'english+code';

const ENGLISH_AND_CODE: ReadonlySet<string> = new Set([...ENGLISH_STOP_WORDS, ...CODE_KEYWORDS]);

/**
 * The stop-word set of a kind: `'english'` is {@link ENGLISH_STOP_WORDS} (the tokenizer's default,
 * as in ref_eval.py); `'english+code'` adds {@link CODE_KEYWORDS}. The same Set object is returned
 * on every call, so tokenizers built from it share their memo.
 * @throws IssuelocError for an unknown kind.
 */
export function defaultStopWords(kind: StopWordKind): ReadonlySet<string> {
  if (kind === 'english') return ENGLISH_STOP_WORDS;
  if (kind === 'english+code') return ENGLISH_AND_CODE;
  throw new IssuelocError(`unknown stop-word set '${String(kind)}' (expected english or english+code)`);
}

function words(s: string): string[] {
  return s.split(/\s+/).filter((w) => w.length > 0);
}
