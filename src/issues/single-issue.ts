/**
 * One issue given to `localize` as text or as JSON: `gh issue view N --json title,body,…` (a
 * GitHub issue object, REST naming too) or a Jira REST issue (`/rest/api/2/issue/KEY`:
 * `{ key, fields: { summary, description } }`). The search text is the title on the first line
 * (the query weighs it more), then the body cleaned by its markup (Markdown; Jira wiki or an API
 * v3 document) as the issue sources clean it (./body.ts).
 */
import { IssuelocError } from '../errors.js';
import { cleanBody } from './body.js';
import { githubFields, isGithubIssue } from './github-json.js';
import { isJiraRestIssue, jiraRestFields } from './jira-json.js';
import { text as textOf, type IssueFields } from './normalise.js';

/** How `localize` reads its issue: `auto` tells JSON of a GitHub or Jira issue from plain text. */
export const SINGLE_ISSUE_FORMATS = ['auto', 'text', 'github', 'jira'] as const;
export type SingleIssueFormat = (typeof SINGLE_ISSUE_FORMATS)[number];

/** The search text of one issue, the format it was read as, and a warning for stderr if any. */
export interface SingleIssue {
  text: string;
  format: Exclude<SingleIssueFormat, 'auto'>;
  /** Set when `auto` found JSON that is no issue and searched it as text. */
  warning?: string;
}

/**
 * The search text of the issue in `raw`. With `auto`, text that is one JSON object (or a list
 * of one) is read as a Jira issue when it has a `fields` object, as a GitHub issue when it has
 * a string `title` or `body` or a numeric `number`; other JSON is searched as text, with a
 * warning; anything else is plain text.
 *
 * @param source where `raw` came from, for messages (`--issue`, `stdin`, a path).
 * @throws IssuelocError naming `source` when `github`/`jira` is asked for and `raw` is not such
 *   an issue, when the JSON is a list of several issues, or when a Jira description nests too deep.
 */
export function readSingleIssue(raw: string, format: SingleIssueFormat, source: string): SingleIssue {
  if (format === 'text') return { text: raw, format };
  const doc = jsonOf(raw);
  const items = Array.isArray(doc) ? doc : doc === undefined ? [] : [doc];
  const kind = (v: unknown) => (isJiraRestIssue(v) ? 'jira' : isGithubIssue(v) ? 'github' : undefined);
  const issues = items.filter((v) => kind(v) !== undefined);
  if (issues.length > 1) throw new IssuelocError(`issue (from ${source}) is a JSON list of ${issues.length} issues: localize takes one`);
  const found = issues.length === 1 && items.length === 1 ? kind(issues[0]) : undefined;
  if (format !== 'auto' && found !== format) {
    throw new IssuelocError(format === 'jira'
      ? `issue (from ${source}) is not a Jira issue: no JSON object with a "fields" object`
      : `issue (from ${source}) is not a GitHub issue: no JSON object with "title", "body" or "number"`);
  }
  if (!found) {
    return doc === undefined ? { text: raw, format: 'text' } : {
      text: raw, format: 'text',
      warning: `issue (from ${source}) is JSON but neither a GitHub issue (title, body) nor a Jira one (fields.summary): searched as text`,
    };
  }
  const r = issues[0] as Record<string, unknown>;
  let fields: IssueFields;
  try {
    fields = found === 'jira' ? jiraRestFields(r) : githubFields(r);
  } catch (e) {
    throw e instanceof IssuelocError ? new IssuelocError(`issue (from ${source}): ${e.message}`) : e;
  }
  return { text: searchText(fields), format: found };
}

/** `raw` parsed when it is one JSON object or list, else undefined. */
function jsonOf(raw: string): unknown {
  const body = raw.trim().replace(/^\uFEFF/, '');
  if (!/^[{[][\s\S]*[}\]]$/.test(body)) return undefined;
  try {
    const v = JSON.parse(body) as unknown;
    return v !== null && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Title (one line) and cleaned body, a blank line between. */
function searchText(f: IssueFields): string {
  const title = textOf(f.title).replace(/\s+/g, ' ').trim();
  const body = cleanBody(textOf(f.body), f.bodyFormat).trim();
  return [title, body].filter((s) => s !== '').join('\n\n');
}
