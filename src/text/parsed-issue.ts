/**
 * An issue read once: its text split into title and body, the signals it names in code, and its
 * tokens and query terms, made on first use and kept. The facade (`openLocalizer`'s `localize`),
 * the training readers (src/ltr/labelled-issues.ts) and `export-training` parse each issue text
 * once with {@link parseIssue}; every stage below them (retrieval, placements, dense fusion, the
 * learned model's features, the history similarities, the LLM rerank) reads this object and
 * never the raw string, so the text is scanned for signals once and tokenized once per option set.
 */
import { extractIssueSignals, type IssueSignals } from './issue-signals.js';
import type { IssueTextFormat } from './clean.js';
import { tokenize, tokenizeWords, tokenizerOf, wordsOf } from './tokenize.js';

/**
 * The form an issue text was read from: plain text, a GitHub or Jira issue object (`localize
 * --issue-format`, src/issues/single-issue.ts), or a body markup (src/text/clean.ts).
 */
export type ParsedIssueFormat = 'github' | 'jira' | IssueTextFormat;

/** Every {@link ParsedIssueFormat}. */
export const PARSED_ISSUE_FORMATS: readonly ParsedIssueFormat[] = ['text', 'github', 'jira', 'markdown', 'html', 'jira-wiki'];

/** Query terms: term → weight (the bag-of-words query of an issue). */
export type IssueTerms = ReadonlyMap<string, number>;

/** How query terms are made: stemmed like the index or not, and the extra weight per title token. */
export interface QueryTermOptions {
  stem: boolean;
  /** Extra weight per token of the title (0: plain counts). */
  titleWeight: number;
}

/** An issue as the stages read it (see the module comment); build it with {@link parseIssue}. */
export interface ParsedIssue {
  /** The text searched: the title on its first non-empty line, then the body, cleaned by the reader that made it. */
  readonly text: string;
  /** The first non-empty line of {@link text}, at most {@link MAX_TITLE_CHARS} characters. */
  readonly title: string;
  /** {@link text} after the title's line ('' when there is none). */
  readonly body: string;
  /** The form the text was read from (default `text`). */
  readonly format: ParsedIssueFormat;
  /** What the text names in code: identifiers, file paths, dotted and scoped names, stack frames, called names, inline code. */
  readonly signals: IssueSignals;
  /** The words written like identifiers (`[A-Za-z_][A-Za-z0-9_]*`), in order of occurrence, repeats kept, case kept. */
  readonly words: readonly string[];
  /** {@link words} as a set. */
  readonly wordSet: ReadonlySet<string>;
  /** The identifier-like words of the title, as a set. */
  readonly titleWords: ReadonlySet<string>;
  /** `tokenize(text, { stem })` (src/text/tokenize.ts): the tokens of the whole text in order, repeats kept. */
  tokens(stem: boolean): readonly string[];
  /** The tokens of the title alone. */
  titleTokens(stem: boolean): readonly string[];
  /**
   * The bag-of-words query: each token of the text with its count as weight, plus `titleWeight`
   * for each token of the title, tokenized like the documents (identifier splitting, stop words,
   * stemming with `stem`); empty when the text has no indexable word. Terms are in order of first
   * occurrence in the text.
   */
  queryTerms(opts: QueryTermOptions): IssueTerms;
  /** The title's tokens with their counts (a query of the title alone). */
  titleTerms(stem: boolean): IssueTerms;
}

/**
 * Whether a text holds anything to read: a letter of any script or a digit (`\p{L}`, `\p{N}`).
 * Every front end (the CLI, MCP, the web page) refuses an issue without one as empty; a text of
 * letters outside A-Z passes, and is then refused by the localizer as having no searchable word.
 */
export function hasLetterOrDigit(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** What every front end answers for an issue without a letter or digit ({@link hasLetterOrDigit}). */
export const EMPTY_ISSUE_MESSAGE = 'empty issue text: nothing to search for';

/** Whether a text holds a letter or digit outside ASCII (which the tokenizer reads as a separator). */
export function hasNonAsciiLetter(text: string): boolean {
  return /(?![A-Za-z0-9])[\p{L}\p{N}]/u.test(text);
}

/** The most characters of a title (a first line longer than this is cut). */
export const MAX_TITLE_CHARS = 300;

/** Options of {@link parseIssue}. */
export interface ParseIssueOptions {
  /** The form the text was read from (default `text`). */
  format?: ParsedIssueFormat;
}

/**
 * Reads an issue text once (see {@link ParsedIssue}): the title and the signals now, tokens and
 * query terms when first asked for (then kept). Linear in the text's length.
 * @param text title on the first non-empty line, then the body.
 * @throws IssuelocError when `text` is not a string.
 */
export function parseIssue(text: string, opts: ParseIssueOptions = {}): ParsedIssue {
  return new IssueReading(text, opts.format ?? 'text');
}

/** The issue's title: the first non-empty line of `text`, at most {@link MAX_TITLE_CHARS} characters. */
export function titleOf(text: string): string {
  const m = /\S[^\n]*/.exec(text);
  return m ? m[0].slice(0, MAX_TITLE_CHARS) : '';
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/** The parsed issue, its derived forms made on first use. */
class IssueReading implements ParsedIssue {
  readonly title: string;
  readonly signals: IssueSignals;
  private bodyText?: string;
  private wordList?: string[];
  /** The text's words as the tokenizer reads them ({@link wordsOf}), scanned once for every option set. */
  private tokenizerWords?: string[];
  private words_?: Set<string>;
  private titleWords_?: Set<string>;
  private readonly tokenLists = new Map<boolean, readonly string[]>();
  private readonly titleTokenLists = new Map<boolean, readonly string[]>();
  private readonly queries = new Map<string, IssueTerms>();
  private readonly titleQueries = new Map<boolean, IssueTerms>();

  constructor(readonly text: string, readonly format: ParsedIssueFormat) {
    this.signals = extractIssueSignals(text); // checks that text is a string
    this.title = titleOf(text);
  }

  get body(): string {
    if (this.bodyText === undefined) {
      const m = /\S[^\n]*\n?/.exec(this.text);
      this.bodyText = m ? this.text.slice(m.index + m[0].length) : '';
    }
    return this.bodyText;
  }

  get words(): readonly string[] {
    return (this.wordList ??= this.text.match(WORD) ?? []);
  }

  get wordSet(): ReadonlySet<string> {
    return (this.words_ ??= new Set(this.words));
  }

  get titleWords(): ReadonlySet<string> {
    return (this.titleWords_ ??= new Set(this.title.match(WORD)));
  }

  tokens(stem: boolean): readonly string[] {
    let t = this.tokenLists.get(stem);
    if (!t) this.tokenLists.set(stem, (t = Object.freeze(tokenizeWords(this.textWords(), { stem }))));
    return t;
  }

  private textWords(): string[] {
    return (this.tokenizerWords ??= wordsOf(this.text));
  }

  titleTokens(stem: boolean): readonly string[] {
    let t = this.titleTokenLists.get(stem);
    if (!t) this.titleTokenLists.set(stem, (t = Object.freeze(tokenize(this.title, { stem }))));
    return t;
  }

  queryTerms(opts: QueryTermOptions): IssueTerms {
    const key = `${opts.stem}:${opts.titleWeight}`;
    let q = this.queries.get(key);
    if (!q) this.queries.set(key, (q = this.makeQuery(opts.stem, opts.titleWeight)));
    return q;
  }

  titleTerms(stem: boolean): IssueTerms {
    let q = this.titleQueries.get(stem);
    if (!q) this.titleQueries.set(stem, (q = counts(this.titleTokens(stem))));
    return q;
  }

  private makeQuery(stem: boolean, titleWeight: number): IssueTerms {
    const q = counts(this.tokens(stem));
    const titleOnly: string[] = [];
    // as before the parsed issue: a title cut inside a word at MAX_TITLE_CHARS may hold a token the
    // text lacks, whose weight is then NaN (kept so rankings stay as they were; a fix changes them)
    if (titleWeight > 0) {
      for (const t of this.titleTokens(stem)) {
        if (!q.has(t)) titleOnly.push(t);
        q.set(t, q.get(t)! + titleWeight);
      }
    }
    FRAGMENT_SOURCES.set(q, { words: this.textWords(), stem, titleOnly });
    return q;
  }
}

/** The fragment-only terms of each query made by {@link ParsedIssue.queryTerms} (see {@link fragmentTermsOf}). */
const FRAGMENT_TERMS = new WeakMap<IssueTerms, ReadonlySet<string>>();
/**
 * The words and stemming each such query was made from, and its terms no word of the text gives
 * (a cut title's: see `makeQuery`); its fragment terms are made when first asked for.
 */
const FRAGMENT_SOURCES = new WeakMap<IssueTerms, { words: readonly string[]; stem: boolean; titleOnly: readonly string[] }>();
const NONE: ReadonlySet<string> = new Set();

/**
 * The terms of a query made by {@link ParsedIssue.queryTerms} that its issue holds only as
 * fragments of split words (`LaTeX` → `la`, `te`; `BM25F` → `bm`, `25`: src/text/tokenize.ts,
 * `dropFragments: 'all'`): they rank, but are not shown as matched terms. Empty for any other map.
 * Read off the words' memoised tokens: a word whose fragment-free tokens are as many as its
 * tokens has no fragment, and only the terms a word gives as fragments (and those no word
 * gives) are looked for among the fragment-free tokens of every word.
 */
export function fragmentTermsOf(query: IssueTerms): ReadonlySet<string> {
  let fragments = FRAGMENT_TERMS.get(query);
  if (fragments === undefined) {
    const source = FRAGMENT_SOURCES.get(query);
    if (source === undefined) return NONE;
    const tokens = tokenizerOf({ stem: source.stem });
    const wholeTokens = tokenizerOf({ stem: source.stem, dropFragments: 'all' });
    const words = new Set(source.words);
    // a word's fragment-free tokens are its tokens less its fragments, in order
    const candidates = new Set(source.titleOnly);
    for (const w of words) {
      const whole = wholeTokens.wordTokens(w);
      const all = tokens.wordTokens(w);
      if (whole.length === all.length) continue;
      for (const t of all) if (!whole.includes(t)) candidates.add(t);
    }
    if (candidates.size > 0) {
      for (const w of words) for (const t of wholeTokens.wordTokens(w)) candidates.delete(t);
    }
    const found = new Set<string>();
    if (candidates.size > 0) for (const t of query.keys()) if (candidates.has(t)) found.add(t);
    FRAGMENT_TERMS.set(query, (fragments = found));
  }
  return fragments;
}

/** Each token with its count, in order of first occurrence. */
function counts(tokens: readonly string[]): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of tokens) q.set(t, (q.get(t) ?? 0) + 1);
  return q;
}
