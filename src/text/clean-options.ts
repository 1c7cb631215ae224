/**
 * Options shared by the issue-text cleaners (the preprocessing variants of "file
 * localisation from issues at large", docs/evaluation.md, where keeping code blocks raw was best).
 */

import { IssuelocError } from '../errors.js';

/**
 * - `'raw'`: formatting kept as written (for HTML: the rendered text, link texts included).
 * - `'remove-formatting'`: markup dropped, text kept; images, attachments, link URLs (a link's
 *   own text stays), horizontal rules and emoticons dropped.
 */
export type FormattingMode = 'raw' | 'remove-formatting';

/**
 * What happens to code blocks (Jira `{code}`, `{noformat}`, `{panel}`; Markdown ``` / `~~~` fences
 * and `<pre>`; HTML `<pre>` and Jira's rendered code/preformatted/panel `<div>`s):
 * - `'keep'`: their text stays (in `'remove-formatting'` mode without the block markers);
 * - `'remove'`: the whole block goes;
 * - `'marker'`: the block is replaced by one marker word on its own line.
 */
export type CodeHandling = 'keep' | 'remove' | 'marker';

/** Options of `htmlToText`, `jiraWikiToText` and `markdownToText`. */
export interface CleanOptions {
  /** Formatting handling; default `'remove-formatting'`. */
  mode?: FormattingMode;
  /** Code-block handling; default `'keep'` (the method's best setting). */
  code?: CodeHandling;
  /**
   * The word that replaces a code block with `code: 'marker'`; default `'codeblock'`. Must be one
   * token for the tokenizer: letters, digits or `_` only.
   */
  marker?: string;
}

/** Options with every field set. */
export interface ResolvedCleanOptions {
  mode: FormattingMode;
  code: CodeHandling;
  marker: string;
}

/**
 * Fills in defaults and checks values.
 * @throws IssuelocError naming the bad option (unknown mode or code handling, marker not a word).
 */
export function resolveCleanOptions(opts: CleanOptions = {}): ResolvedCleanOptions {
  const mode = opts.mode ?? 'remove-formatting';
  const code = opts.code ?? 'keep';
  const marker = opts.marker ?? 'codeblock';
  if (mode !== 'raw' && mode !== 'remove-formatting') {
    throw new IssuelocError(`unknown formatting mode '${String(mode)}' (expected raw or remove-formatting)`);
  }
  if (code !== 'keep' && code !== 'remove' && code !== 'marker') {
    throw new IssuelocError(`unknown code handling '${String(code)}' (expected keep, remove or marker)`);
  }
  if (!/^[A-Za-z0-9_]{2,40}$/.test(marker)) {
    throw new IssuelocError(`code marker '${marker}' must be one word of 2 to 40 letters, digits or _`);
  }
  return { mode, code, marker };
}

/** @throws IssuelocError when the text to clean is not a string. */
export function checkCleanInput(text: unknown, what: string): asserts text is string {
  if (typeof text !== 'string') throw new IssuelocError(`${what} must be a string, got ${typeof text}`);
}

/**
 * Final whitespace tidy-up shared by the cleaners: `\r\n` → `\n`, no-break spaces → spaces, trailing
 * spaces of each line dropped, runs of blank lines cut to one, outer blank lines trimmed.
 * Indentation is kept (tracebacks need it). Linear time.
 */
export function tidyLines(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ').split('\n');
  const out: string[] = [];
  let blank = 0;
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (line.length === 0) {
      blank++;
      continue;
    }
    if (blank > 0 && out.length > 0) out.push('');
    blank = 0;
    out.push(line);
  }
  return out.join('\n');
}
