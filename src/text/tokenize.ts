/**
 * The tokenizer shared by code and issue text.
 *
 * Words are runs of `[A-Za-z0-9_]`; each word is split into parts by camelCase / snake_case /
 * digit boundaries ({@link splitIdentifier}); parts are lower-cased; the whole identifier
 * (lower-cased, leading and trailing `_` stripped) comes first when the word has more than one
 * part, and each snake_case part that splits further is kept whole before its own parts
 * (`GitHub_token_v2` → `github_token_v2`, `github`, `git`, `hub`, `token`, `v2`); tokens shorter
 * than 2 characters and NLTK English stop words are dropped; `dropFragments` leaves out the
 * fragments of split words (`LaTeX` → `latex` without `la`, `te`).
 *
 * With `keepSnakeParts: false` this is exactly `tokenize` of the reference evaluator
 * (`ref_eval.py`, docs/benchmark-gold.md), which keeps only the whole word and the finest parts.
 *
 * Non-ASCII letters are separators, as in ref_eval.py (whose character class is ASCII-only):
 * `café_au_lait` gives the words `caf` and `_au_lait`. Nothing throws on any string.
 *
 * Speed: per-word results are memoised (a bounded Map per option set), because code repeats its
 * identifiers; the scan over the text is a char-code loop. See `bench/text-speed.ts`.
 *
 * @example
 * tokenize('def parseHTTPServer(self):') // ['def', 'parsehttpserver', 'parse', 'http', 'server', 'self']
 * tokenize('running tests', { stem: true }) // ['run', 'test']
 */

import { stemmer } from 'stemmer';
import { IssuelocError } from '../errors.js';
import { ACRONYM_FRAGMENT, DIGIT_FRAGMENT, charClass, fragmentKinds, splitIdentifierInto } from './identifier-split.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';

export { splitIdentifier } from './identifier-split.js';
export { ENGLISH_STOP_WORDS, CODE_KEYWORDS, CODE_KEYWORDS_BY_LANGUAGE, defaultStopWords, languageKeywords } from './stop-words.js';
export type { StopWordKind } from './stop-words.js';

/** Which fragments of split words {@link tokenize} leaves out (see {@link TokenizeOptions.dropFragments}). */
export type FragmentDrop = 'none' | 'acronyms' | 'all';

const FRAGMENT_BITS: Readonly<Record<FragmentDrop, number>> = { none: 0, acronyms: ACRONYM_FRAGMENT, all: ACRONYM_FRAGMENT | DIGIT_FRAGMENT };

/**
 * Options of {@link tokenize}; every field is optional. The defaults are ref_eval.py's behaviour
 * except `keepSnakeParts`.
 */
export interface TokenizeOptions {
  /**
   * Porter-stem each purely alphabetic token (the `stemmer` package, Porter 1980), after stop-word
   * removal, as ref_eval.py's `--stem porter` does. Tokens with digits or `_` are left as they are.
   * Default false.
   */
  stem?: boolean;
  /**
   * Split identifiers into parts (camelCase, snake_case, digits). When false each word is one
   * token, lower-cased, underscores kept (ref_eval.py's `--no-split`). Default true.
   */
  splitIdentifiers?: boolean;
  /**
   * With splitting on, also emit the whole identifier (lower-cased, outer `_` stripped) before its
   * parts when it has more than one part. Default true.
   */
  keepWhole?: boolean;
  /**
   * With splitting and `keepWhole` on, also emit each `_`-separated part of a snake_case word whole
   * when it splits into more than one part itself (`GitHub_token_v2` → `github`, `v2`; `token`,
   * one part, is not repeated), right before its parts. Default true; false gives ref_eval.py's
   * tokens exactly.
   */
  keepSnakeParts?: boolean;
  /**
   * With splitting and `keepWhole` on, which fragments of a word that splits into parts are left
   * out ({@link fragmentKinds}): `acronyms` the syllables of a mixed-case acronym (`LaTeX` → `la`,
   * `te`), `all` also the parts under 3 characters at a letter–digit boundary (`BM25F` → `bm`,
   * `25`), `none` (the default) neither. The whole word is emitted either way. Documents and
   * queries keep them (leaving them out of the query cost rankings, docs/results.md); the
   * matched terms shown leave out `all` of them (`fragmentTermsOf`, src/text/parsed-issue.ts).
   */
  dropFragments?: FragmentDrop;
  /**
   * Lower-case tokens. Default true (ref_eval.py). When false, tokens keep the case they have in
   * the text (the "no lower-casing" preprocessing variant of docs/evaluation.md); stop words still match case-insensitively, and a
   * stemmed token comes out lower-case (the Porter stemmer works on lower case).
   */
  lowercase?: boolean;
  /** Drop tokens shorter than this many characters. Integer ≥ 1; default 2. */
  minLength?: number;
  /**
   * Lower-case tokens to drop. Default {@link ENGLISH_STOP_WORDS}; pass
   * `defaultStopWords('english+code')` to also drop language keywords, or an empty Set for none.
   * Pass the same Set object each time: tokenizers (and their memo) are cached per Set.
   */
  stopWords?: ReadonlySet<string>;
}

/** Memo entries kept per tokenizer before the memo is emptied and refilled. */
const MAX_MEMO = 1 << 18;

const NO_TOKENS: readonly string[] = Object.freeze([]);

/**
 * A tokenizer with fixed options and its own per-word memo. Build one with
 * {@link createTokenizer} when tokenizing many texts with custom options; {@link tokenize} keeps
 * one per option set for you.
 */
export class Tokenizer {
  private readonly stem: boolean;
  private readonly split: boolean;
  private readonly keepWhole: boolean;
  private readonly keepSnakeParts: boolean;
  /** Fragment kinds left out (bits of {@link fragmentKinds}); 0 without `keepWhole`. */
  private readonly dropBits: number;
  private readonly lowercase: boolean;
  private readonly minLength: number;
  private readonly stopWords: ReadonlySet<string>;
  private readonly memo = new Map<string, readonly string[]>();
  private readonly parts: string[] = [];

  /** @throws IssuelocError when `minLength` is not an integer ≥ 1. */
  constructor(opts: TokenizeOptions = {}) {
    const minLength = opts.minLength ?? 2;
    if (!Number.isInteger(minLength) || minLength < 1) {
      throw new IssuelocError(`tokenizer minLength must be an integer >= 1, got ${String(opts.minLength)}`);
    }
    this.stem = opts.stem ?? false;
    this.split = opts.splitIdentifiers ?? true;
    this.keepWhole = opts.keepWhole ?? true;
    this.keepSnakeParts = opts.keepSnakeParts ?? true;
    const drop = opts.dropFragments ?? 'none';
    if (!Object.hasOwn(FRAGMENT_BITS, drop)) throw new IssuelocError(`tokenizer dropFragments must be none, acronyms or all, got ${String(drop)}`);
    this.dropBits = this.split && this.keepWhole ? FRAGMENT_BITS[drop] : 0;
    this.lowercase = opts.lowercase ?? true;
    this.minLength = minLength;
    this.stopWords = opts.stopWords ?? ENGLISH_STOP_WORDS;
  }

  /** Tokens of `text` in order, duplicates kept (they are term frequencies). */
  tokenize(text: string): string[] {
    const out: string[] = [];
    this.tokenizeInto(text, out);
    return out;
  }

  /**
   * Appends the tokens of `text` to `out` (no intermediate arrays).
   * @throws IssuelocError when `text` is not a string (e.g. `undefined` from untyped JSON).
   */
  tokenizeInto(text: string, out: string[]): void {
    if (typeof text !== 'string') throw new IssuelocError(`cannot tokenize a ${typeof text}: expected a string`);
    scanWords(text, (word) => {
      const toks = this.wordTokens(word);
      for (let t = 0; t < toks.length; t++) out.push(toks[t]);
    });
  }

  /** Tokens of the words `words` (runs of `[A-Za-z0-9_]`, {@link wordsOf}) in order: `tokenize` of their text. */
  tokenizeWords(words: Iterable<string>): string[] {
    const out: string[] = [];
    for (const w of words) {
      const toks = this.wordTokens(w);
      for (let t = 0; t < toks.length; t++) out.push(toks[t]);
    }
    return out;
  }

  /** The tokens of one word (a run of `[A-Za-z0-9_]`), memoised. The array is shared: do not modify. */
  wordTokens(word: string): readonly string[] {
    let toks = this.memo.get(word);
    if (toks === undefined) {
      toks = this.computeWordTokens(word);
      if (this.memo.size >= MAX_MEMO) this.memo.clear();
      this.memo.set(word, toks);
    }
    return toks;
  }

  private computeWordTokens(word: string): readonly string[] {
    let candidates: string[];
    if (!this.split) {
      candidates = [word];
    } else {
      const parts = this.parts;
      parts.length = 0;
      if (this.keepWhole && this.keepSnakeParts && hasInnerUnderscore(word)) {
        candidates = snakeCandidates(word, parts, this.dropBits);
      } else {
        splitIdentifierInto(word, parts);
        // with `_` inside (ref_eval.py's splitting) the parts of different `_` pieces are not adjacent
        candidates = this.dropBits !== 0 && !hasInnerUnderscore(word) ? withoutFragments(parts, this.dropBits) : parts.slice();
        if (parts.length > 1 && this.keepWhole) candidates.unshift(stripUnderscores(word));
      }
    }
    let out: string[] | undefined;
    for (const c of candidates) {
      const lower = c.toLowerCase();
      if (c.length < this.minLength || this.stopWords.has(lower)) continue;
      (out ??= []).push(this.stem && isAlpha(c) ? stemmer(lower) : this.lowercase ? lower : c);
    }
    return out === undefined ? NO_TOKENS : out;
  }
}

/** A tokenizer with fixed options (see {@link TokenizeOptions}). @throws IssuelocError on a bad minLength. */
export function createTokenizer(opts: TokenizeOptions = {}): Tokenizer {
  return new Tokenizer(opts);
}

const cachedByStopWords = new WeakMap<ReadonlySet<string>, Map<string, Tokenizer>>();

/**
 * The tokenizer {@link tokenize} uses for these options (one per option values and `stopWords`
 * Set, its memo shared): for a caller that reads words one by one (`wordTokens`).
 * @throws IssuelocError on a bad minLength.
 */
export function tokenizerOf(opts?: TokenizeOptions): Tokenizer {
  const stopWords = opts?.stopWords ?? ENGLISH_STOP_WORDS;
  let byKey = cachedByStopWords.get(stopWords);
  if (byKey === undefined) {
    byKey = new Map();
    cachedByStopWords.set(stopWords, byKey);
  }
  const key = `${opts?.stem ? 1 : 0}${opts?.splitIdentifiers === false ? 0 : 1}${opts?.keepWhole === false ? 0 : 1}${opts?.keepSnakeParts === false ? 0 : 1}${opts?.lowercase === false ? 0 : 1}${opts?.dropFragments ?? 'none'}:${opts?.minLength ?? 2}`;
  let tk = byKey.get(key);
  if (tk === undefined) {
    tk = new Tokenizer({ ...opts, stopWords });
    byKey.set(key, tk);
  }
  return tk;
}

/**
 * Tokens of code or issue text, duplicates kept, in text order.
 *
 * With `keepSnakeParts: false` this is exactly ref_eval.py's `tokenize` (see the module comment);
 * the golden tests in `test/text/tokenize.test.ts` compare against it. Tokenizers are cached per option
 * values (and per `stopWords` Set object), so calling this with a fresh options object each time
 * costs nothing extra.
 * @param text any string; non-ASCII characters separate words.
 * @throws IssuelocError when `text` is not a string or `minLength` is not an integer ≥ 1.
 */
export function tokenize(text: string, opts?: TokenizeOptions): string[] {
  return tokenizerOf(opts).tokenize(text);
}

/**
 * The words of `text` the tokenizer reads one by one (runs of `[A-Za-z0-9_]`), in order,
 * duplicates kept: a text read for several option sets is scanned once ({@link tokenizeWords}).
 * @throws IssuelocError when `text` is not a string.
 */
export function wordsOf(text: string): string[] {
  if (typeof text !== 'string') throw new IssuelocError(`cannot tokenize a ${typeof text}: expected a string`);
  const out: string[] = [];
  scanWords(text, (word) => out.push(word));
  return out;
}

/** Calls `onWord` with each run of `[A-Za-z0-9_]` of `text`, in order (the tokenizer's words). */
function scanWords(text: string, onWord: (word: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (charClass(text.charCodeAt(i)) === 0) {
      i++;
      continue;
    }
    const start = i;
    i++;
    while (i < n && charClass(text.charCodeAt(i)) !== 0) i++;
    onWord(text.slice(start, i));
  }
}

/** Tokens of words ({@link wordsOf}), as {@link tokenize} gives them for the text the words are of. */
export function tokenizeWords(words: Iterable<string>, opts?: TokenizeOptions): string[] {
  return tokenizerOf(opts).tokenizeWords(words);
}

/** Term frequencies of a token list: token → number of occurrences, in first-occurrence order. */
export function termFrequencies(tokens: Iterable<string>): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/** Whether `word` holds a `_` between other characters (`a_b`; not `__init__`). */
function hasInnerUnderscore(word: string): boolean {
  let s = 0;
  let e = word.length;
  while (s < e && word.charCodeAt(s) === 95) s++;
  while (e > s && word.charCodeAt(e - 1) === 95) e--;
  const i = word.indexOf('_', s);
  return i >= 0 && i < e;
}

/**
 * Candidate tokens of a snake_case word (before case, length and stop-word filtering): the whole
 * word (outer `_` stripped) when it has more than one part, then per `_`-separated part: the part
 * whole when it splits further, then its parts (without the fragments of kinds `dropBits`).
 * `parts` is scratch space.
 */
function snakeCandidates(word: string, parts: string[], dropBits: number): string[] {
  const out: string[] = [];
  const n = word.length;
  let total = 0;
  for (let s = 0; s < n;) {
    let e = s;
    while (e < n && word.charCodeAt(e) !== 95) e++;
    if (e > s) {
      const segment = word.slice(s, e);
      parts.length = 0;
      splitIdentifierInto(segment, parts);
      if (parts.length > 1) out.push(segment);
      for (const p of dropBits !== 0 ? withoutFragments(parts, dropBits) : parts) out.push(p);
      total += parts.length;
    }
    s = e + 1;
  }
  if (total > 1) out.unshift(stripUnderscores(word));
  return out;
}

/** The parts that are not fragments of the kinds `dropBits` ({@link fragmentKinds}), in order. */
function withoutFragments(parts: readonly string[], dropBits: number): string[] {
  if (parts.length < 2) return parts.slice();
  const kinds = fragmentKinds(parts);
  return parts.filter((_, i) => (kinds[i] & dropBits) === 0);
}

function stripUnderscores(word: string): string {
  let s = 0;
  let e = word.length;
  while (s < e && word.charCodeAt(s) === 95) s++;
  while (e > s && word.charCodeAt(e - 1) === 95) e--;
  return s === 0 && e === word.length ? word : word.slice(s, e);
}

/** Python's `str.isalpha` for our ASCII tokens: non-empty and letters only. */
function isAlpha(t: string): boolean {
  if (t.length === 0) return false;
  for (let i = 0; i < t.length; i++) {
    const k = charClass(t.charCodeAt(i));
    if (k !== 1 && k !== 2) return false;
  }
  return true;
}
