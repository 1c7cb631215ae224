/**
 * The JSONL form of a Jira XML/RSS export, as the Bench4BL archives give it (a slice:
 * test/fixtures/data/maven-mng.jsonl):
 * one object a line with `key`, `summary`, `type`, `status`, `resolution`, `created`, `resolved`
 * (RFC 2822), `description_html` (Jira's rendered HTML), `description_text`, `components`, ….
 */
import { IssueCollector } from './normalise.js';
import { jsonRecords, readIssueFile } from './read-text.js';
import type { IssueSourceOptions, IssueSourceResult } from './types.js';

/** The fields of one line of a Jira-export JSONL file as {@link IssueCollector} takes them. */
export function jiraJsonlFields(v: Record<string, unknown>) {
  const html = typeof v.description_html === 'string';
  return {
    id: v.key,
    title: v.summary,
    body: html ? v.description_html : v.description_text ?? v.description,
    bodyFormat: html ? ('html' as const) : ('text' as const),
    type: v.type,
    created: v.created,
    resolved: v.resolved,
    labels: v.labels,
    status: v.status,
    resolution: v.resolution,
  };
}

/**
 * Reads a Jira-export JSONL file (its text: `text`, else read from `path`); a JSON list of
 * such objects, or one object, reads too (`<path>#<index>` origins).
 *
 * @throws IssuelocError `<path>:<line>: <reason>` for a corrupt line or record (unless
 *   `skipInvalid`), or when the file cannot be read.
 */
export function readJiraJsonl(path: string, options: IssueSourceOptions = {}, text = readIssueFile(path)): IssueSourceResult {
  const c = new IssueCollector(options);
  for (const { origin, value } of jsonRecords(path, text, (at, why) => c.fail(at, why))) c.add(jiraJsonlFields(value), origin);
  return c.result();
}
