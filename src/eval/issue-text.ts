/**
 * The query text of an issue for evaluation: title and body joined as in the paper's replication
 * package (`summary + '. ' + description`), the body cleaned from its raw form by one of the
 * formatting variants of docs/evaluation.md (Jira formatting kept raw or removed; code, noformat and
 * panel blocks kept, removed, or replaced by a marker word) with the cleaners of `src/text/clean.ts`.
 *
 * Dataset records do not say which markup a body is in, so it is recognised from the text
 * ({@link detectBodyFormat}) unless the caller names it.
 */
import { IssuelocError } from '../errors.js';
import type { DatasetIssue } from '../dataset/record.js';
import { cleanIssueText, type CodeHandling, type FormattingMode, type IssueTextFormat } from '../text/clean.js';

/** How issue bodies are cleaned. */
export interface IssueTextOptions {
  /** `'raw'` (default: the paper's tables) or `'remove-formatting'`. */
  readonly formatting: FormattingMode;
  /** Code blocks: `'keep'` (default), `'remove'` or `'marker'`. */
  readonly code: CodeHandling;
  /** Body markup; `'auto'` (default) recognises it per issue. */
  readonly format: IssueTextFormat | 'auto';
}

/** The defaults: raw formatting, code kept, format recognised. */
export const DEFAULT_ISSUE_TEXT: IssueTextOptions = Object.freeze({ formatting: 'raw', code: 'keep', format: 'auto' });

const HTML = /<(?:p|div|br|pre|tt|code|span|ul|ol|li|table|a\s|img|h[1-6]|blockquote)\b[^>]{0,500}>/i;
const JIRA_WIKI = /\{(?:code|noformat|panel|quote|color)(?::[^}\n]{0,200})?\}|^h[1-6]\.\s|\{\{[^}\n]{1,200}\}\}|\[~[^\]\n]{1,100}\]|\[[^\]|\n]{1,200}\|https?:\/\//m;
const MARKDOWN = /^\s{0,3}(?:```|~~~)|^#{1,6}\s|\]\(https?:\/\/[^)\s]{1,500}\)|`[^`\n]{1,200}`/m;

/** The markup of a raw body, recognised by its tags and markers; `text` when none is found. */
export function detectBodyFormat(body: string): IssueTextFormat {
  if (HTML.test(body)) return 'html';
  if (JIRA_WIKI.test(body)) return 'jira-wiki';
  if (MARKDOWN.test(body)) return 'markdown';
  return 'text';
}

/**
 * The query text of an issue: `title. body`, the body cleaned from `bodyRaw` (see the module
 * comment); the title alone when the body is empty.
 * @throws IssuelocError when the issue lacks a string title or body.
 */
export function issueQueryText(issue: DatasetIssue, options: IssueTextOptions = DEFAULT_ISSUE_TEXT): string {
  if (typeof issue.title !== 'string') throw new IssuelocError(`issue ${issue.id}: title is not a string`);
  const raw = typeof issue.bodyRaw === 'string' ? issue.bodyRaw : issue.body;
  if (typeof raw !== 'string') throw new IssuelocError(`issue ${issue.id}: body is not a string`);
  const format = options.format === 'auto' ? detectBodyFormat(raw) : options.format;
  const body = raw === '' ? '' : cleanIssueText(raw, format, { mode: options.formatting, code: options.code });
  return body === '' ? issue.title : `${issue.title}. ${body}`;
}
