/**
 * Plain JSONL issues, one object a line, under common names: id (`key`, `bug_id`, `instance_id`,
 * `id`, `number`: the first present), title (`title`, `summary`), body (`body`, `description`,
 * `problem_statement`), `type`, created (`created`, `created_at`, `createdAt`, `report_time`,
 * `report_timestamp`), resolved (`resolved`, `closed_at`, `closedAt`), `labels`, `status`,
 * `resolution`, fixing commits (`commits`, `fix_commits`, `commit`), and an optional
 * `body_format` (`text` by default; `html`, `jira-wiki`, `markdown`). The Ye et al. 2014 Tomcat
 * set (test/fixtures/data/tomcat.jsonl holds a slice) reads as is: `bug_id`, `summary`, `description`,
 * `report_time`, `status`, `commit`.
 */
import { IssueCollector } from './normalise.js';
import { jsonRecords, readIssueFile } from './read-text.js';
import type { BodyFormat, IssueSourceOptions, IssueSourceResult } from './types.js';

const FORMATS: readonly BodyFormat[] = ['html', 'jira-wiki', 'markdown', 'text'];

/** The first of `names` that `v` has (not null). */
function pick(v: Record<string, unknown>, ...names: string[]): unknown {
  for (const n of names) if (v[n] !== undefined && v[n] !== null) return v[n];
  return undefined;
}

/** The fields of one plain JSONL line. */
export function plainFields(v: Record<string, unknown>) {
  const fmt = pick(v, 'body_format', 'bodyFormat');
  return {
    id: pick(v, 'key', 'bug_id', 'instance_id', 'id', 'number'),
    title: pick(v, 'title', 'summary'),
    body: pick(v, 'body', 'description', 'problem_statement'),
    bodyFormat: (FORMATS as readonly unknown[]).includes(fmt) ? (fmt as BodyFormat) : 'text',
    type: pick(v, 'type', 'issue_type'),
    created: pick(v, 'created', 'created_at', 'createdAt', 'report_time', 'report_timestamp'),
    resolved: pick(v, 'resolved', 'resolved_at', 'closed_at', 'closedAt'),
    labels: v.labels,
    status: v.status,
    resolution: v.resolution,
    fixCommits: pick(v, 'commits', 'fix_commits', 'fixCommits', 'commit'),
  };
}

/**
 * Reads a plain JSONL issue file (its text: `text`, else read from `path`); a JSON list of
 * such objects, or one object, reads too (`<path>#<index>` origins).
 *
 * @throws IssuelocError `<path>:<line>: <reason>` for a corrupt line or record (unless
 *   `skipInvalid`), or when the file cannot be read.
 */
export function readPlainJsonl(path: string, options: IssueSourceOptions = {}, text = readIssueFile(path)): IssueSourceResult {
  const c = new IssueCollector(options);
  for (const { origin, value } of jsonRecords(path, text, (at, why) => c.fail(at, why))) c.add(plainFields(value), origin);
  return c.result();
}
