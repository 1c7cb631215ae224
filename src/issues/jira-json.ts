/**
 * Jira REST search results (`/rest/api/2/search`): `{ "issues": [ { "key", "fields": { "summary",
 * "description" (wiki markup), "issuetype": {"name"}, "status": {"name"}, "resolution": {"name"},
 * "created", "resolutiondate", "labels" } } ] }`; also a list of such pages, a bare list of
 * issues, or one issue (`/rest/api/2/issue/KEY`). API v3 descriptions (Atlassian Document Format
 * objects) are reduced to their text.
 */
import { IssuelocError } from '../errors.js';
import { IssueCollector, type IssueFields } from './normalise.js';
import { parseJsonFile, readIssueFile } from './read-text.js';
import type { IssueSourceOptions, IssueSourceResult } from './types.js';

/** The text of an Atlassian Document Format node (paragraphs on their own lines). */
export function adfText(node: unknown): string {
  if (node === null || typeof node !== 'object') return '';
  const n = node as { type?: unknown; text?: unknown; content?: unknown };
  if (typeof n.text === 'string') return n.text;
  const parts = Array.isArray(n.content) ? n.content.map(adfText) : [];
  const block = n.type === 'paragraph' || n.type === 'heading' || n.type === 'codeBlock' || n.type === 'listItem';
  return parts.join(block ? '' : '\n') + (block ? '\n' : '');
}

function name(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>).name : v;
}

/**
 * The fields of one Jira REST issue object (`{ key, fields: { summary, description, … } }`):
 * a string description is wiki markup, an object one (API v3) Atlassian Document Format.
 */
export function jiraRestFields(r: Record<string, unknown>): IssueFields {
  const f = (r.fields !== null && typeof r.fields === 'object' ? r.fields : {}) as Record<string, unknown>;
  const desc = f.description;
  return {
    id: r.key,
    title: f.summary,
    body: typeof desc === 'string' ? desc : adfText(desc).trim(),
    bodyFormat: typeof desc === 'string' ? 'jira-wiki' : 'text',
    type: name(f.issuetype),
    created: f.created,
    resolved: f.resolutiondate,
    labels: f.labels,
    status: name(f.status),
    resolution: name(f.resolution),
  };
}

/** Whether a parsed value is one Jira REST issue object (a `fields` object). */
export function isJiraRestIssue(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && (v as { fields?: unknown }).fields !== null
    && typeof (v as { fields?: unknown }).fields === 'object' && !Array.isArray((v as { fields?: unknown }).fields);
}

/** The issues of a parsed REST document, each with its position. */
function issuesOf(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc)) return doc.flatMap((d) => (d !== null && typeof d === 'object' && Array.isArray((d as { issues?: unknown }).issues) ? issuesOf(d) ?? [] : [d]));
  if (doc !== null && typeof doc === 'object' && Array.isArray((doc as { issues?: unknown }).issues)) return (doc as { issues: unknown[] }).issues;
  if (isJiraRestIssue(doc)) return [doc];
  return undefined;
}

/**
 * Reads a Jira REST JSON file (its text: `text`, else read from `path`).
 *
 * @throws IssuelocError when the file is not JSON or holds neither an issue nor an issue list,
 *   or (unless `skipInvalid`) for a record without key: `<path>#<index>: <reason>`.
 */
export function readJiraJson(path: string, options: IssueSourceOptions = {}, text = readIssueFile(path)): IssueSourceResult {
  const c = new IssueCollector(options);
  const issues = issuesOf(parseJsonFile(path, text));
  if (!issues) throw new IssuelocError(`${path}: neither a Jira issue ({ "key", "fields" }) nor a list of issues ({ "issues": [...] } or [...])`);
  issues.forEach((raw, i) => {
    const origin = `${path}#${i}`;
    if (raw === null || typeof raw !== 'object') return c.fail(origin, 'not a JSON object');
    c.add(jiraRestFields(raw as Record<string, unknown>), origin);
  });
  return c.result();
}
