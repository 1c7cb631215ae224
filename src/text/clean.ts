/**
 * Issue-text cleaning for the three formats issues come in (docs/evaluation.md, preprocessing
 * variants): Jira's rendered HTML,
 * Jira wiki markup and (GitHub) Markdown, each with the same options: formatting kept raw or
 * removed, and code blocks kept, removed or replaced by a marker word.
 *
 * @example
 * jiraWikiToText('h2. Crash\n{code:java}\nfoo();\n{code}\nSee [docs|http://x.org] (y)', { code: 'marker' })
 * // 'Crash\ncodeblock\nSee docs'
 */

import { IssuelocError } from '../errors.js';
import { htmlToText } from './clean-html.js';
import { jiraWikiToText } from './clean-jira-wiki.js';
import { markdownToText } from './clean-markdown.js';
import { checkCleanInput, resolveCleanOptions, tidyLines, type CleanOptions } from './clean-options.js';

export { htmlToText } from './clean-html.js';
export { jiraWikiToText } from './clean-jira-wiki.js';
export { markdownToText } from './clean-markdown.js';
export { resolveCleanOptions } from './clean-options.js';
export type { CleanOptions, CodeHandling, FormattingMode, ResolvedCleanOptions } from './clean-options.js';

/** The source format of an issue text; `'text'` is plain text (only whitespace is tidied). */
export type IssueTextFormat = 'html' | 'jira-wiki' | 'markdown' | 'text';

/**
 * Cleans an issue text of the given format with {@link htmlToText}, {@link jiraWikiToText},
 * {@link markdownToText}, or, for `'text'`, only the whitespace tidy-up (options still checked).
 * @throws IssuelocError for an unknown format, a non-string text or a bad option.
 */
export function cleanIssueText(text: string, format: IssueTextFormat, opts?: CleanOptions): string {
  switch (format) {
    case 'html':
      return htmlToText(text, opts);
    case 'jira-wiki':
      return jiraWikiToText(text, opts);
    case 'markdown':
      return markdownToText(text, opts);
    case 'text':
      checkCleanInput(text, 'issue text');
      resolveCleanOptions(opts);
      return tidyLines(text);
    default:
      throw new IssuelocError(`unknown issue text format '${String(format)}' (expected html, jira-wiki, markdown or text)`);
  }
}
