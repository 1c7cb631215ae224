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

/**
 * The deepest Atlassian Document Format nesting read (a document, its lists, their items, …):
 * far beyond what Jira's editor makes; a deeper description is refused as bad input.
 */
export const MAX_ADF_DEPTH = 256;

/** A node of {@link adfText}'s walk: its children still to read and the texts of those read. */
interface AdfFrame {
  children: readonly unknown[];
  next: number;
  parts: string[];
  block: boolean;
}

const BLOCK_NODES = new Set(['paragraph', 'heading', 'codeBlock', 'listItem']);

/**
 * The text of an Atlassian Document Format node (paragraphs on their own lines). Walked with a
 * stack of its own (no recursion: any depth of JSON is safe to hand it).
 *
 * @throws IssuelocError when the document nests deeper than {@link MAX_ADF_DEPTH}.
 */
export function adfText(node: unknown): string {
  const textOf = (n: unknown): string | AdfFrame => {
    if (n === null || typeof n !== 'object') return '';
    const o = n as { type?: unknown; text?: unknown; content?: unknown };
    if (typeof o.text === 'string') return o.text;
    const block = typeof o.type === 'string' && BLOCK_NODES.has(o.type);
    return { children: Array.isArray(o.content) ? o.content : [], next: 0, parts: [], block };
  };
  const close = (f: AdfFrame) => f.parts.join(f.block ? '' : '\n') + (f.block ? '\n' : '');
  const root = textOf(node);
  if (typeof root === 'string') return root;
  const stack: AdfFrame[] = [root];
  for (;;) {
    const top = stack[stack.length - 1];
    if (top.next < top.children.length) {
      const child = textOf(top.children[top.next++]);
      if (typeof child === 'string') top.parts.push(child);
      else if (stack.length >= MAX_ADF_DEPTH) throw new IssuelocError(`the Atlassian document (description) nests deeper than ${MAX_ADF_DEPTH} levels`);
      else stack.push(child);
      continue;
    }
    const done = close(stack.pop()!);
    if (stack.length === 0) return done;
    stack[stack.length - 1].parts.push(done);
  }
}

function name(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? (v as Record<string, unknown>).name : v;
}

/**
 * The fields of one Jira REST issue object (`{ key, fields: { summary, description, … } }`):
 * a string description is wiki markup, an object one (API v3) Atlassian Document Format.
 *
 * @throws IssuelocError for a document nested deeper than {@link MAX_ADF_DEPTH}.
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
    let fields: IssueFields;
    try {
      fields = jiraRestFields(raw as Record<string, unknown>);
    } catch (e) {
      if (!(e instanceof IssuelocError)) throw e;
      return c.fail(origin, e.message);
    }
    c.add(fields, origin);
  });
  return c.result();
}
