/**
 * GitHub issues as `gh issue list --json number,title,body,labels,createdAt,closedAt[,state,
 * stateReason]` prints them (a JSON list; `gh issue view --json …`: one object), or as the REST
 * API gives them (`created_at`, `closed_at`, `state_reason`; one issue, a list, a search result
 * `{ "items": [...] }`, or pages of either).
 * Pull requests (REST items with `pull_request`) are left out. The issue id is the number as text.
 * The type is the issue type (`type.name`) when GitHub gives one, else the first label that the
 * type table knows (`bug` → Bug), else `''`. Bodies are Markdown.
 */
import { IssuelocError } from '../errors.js';
import { IssueCollector, type IssueFields } from './normalise.js';
import { parseJsonFile, readIssueFile } from './read-text.js';
import { DEFAULT_TYPE_CATEGORIES } from './category.js';
import type { IssueSourceOptions, IssueSourceResult } from './types.js';

/**
 * Whether a parsed value is one GitHub issue object: `gh issue view --json` (any of `number`,
 * `title`, `body`) or a REST issue.
 */
export function isGithubIssue(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  return typeof r.title === 'string' || typeof r.body === 'string' || typeof r.number === 'number';
}

/** The issue objects of a parsed document (undefined when it is neither a list nor an issue). */
function itemsOf(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc)) return doc.flatMap((d) => (d !== null && typeof d === 'object' && Array.isArray((d as { items?: unknown }).items) ? itemsOf(d) ?? [] : [d]));
  if (doc !== null && typeof doc === 'object' && Array.isArray((doc as { items?: unknown }).items)) return (doc as { items: unknown[] }).items;
  if (isGithubIssue(doc)) return [doc];
  return undefined;
}

function labelNames(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.map((l) => (l !== null && typeof l === 'object' ? String((l as { name?: unknown }).name ?? '') : String(l))).filter((s) => s !== '');
}

/** The fields of one GitHub issue object (gh CLI or REST naming). */
export function githubFields(r: Record<string, unknown>, options: IssueSourceOptions = {}): IssueFields {
  const labels = labelNames(r.labels);
  const table = options.typeTable ?? DEFAULT_TYPE_CATEGORIES;
  const typeName = r.type !== null && typeof r.type === 'object' ? (r.type as { name?: unknown }).name : r.type;
  const type = typeof typeName === 'string' && typeName !== '' ? typeName : labels.find((l) => table.has(l.toLowerCase())) ?? '';
  return {
    id: r.number,
    title: r.title,
    body: r.body,
    bodyFormat: 'markdown' as const,
    type,
    created: r.createdAt ?? r.created_at,
    resolved: r.closedAt ?? r.closed_at,
    labels,
    status: r.state,
    resolution: r.stateReason ?? r.state_reason,
  };
}

/**
 * Reads a GitHub issues JSON file (its text: `text`, else read from `path`).
 *
 * @throws IssuelocError when the file is not JSON or holds neither an issue nor a list of them,
 *   or (unless `skipInvalid`) for an item without number: `<path>#<index>: <reason>`.
 */
export function readGithubJson(path: string, options: IssueSourceOptions = {}, text = readIssueFile(path)): IssueSourceResult {
  const c = new IssueCollector(options);
  const items = itemsOf(parseJsonFile(path, text));
  if (!items) throw new IssuelocError(`${path}: neither a GitHub issue ({ "number", "title", "body" }) nor a list of issues`);
  items.forEach((raw, i) => {
    const origin = `${path}#${i}`;
    if (raw === null || typeof raw !== 'object') return c.fail(origin, 'not a JSON object');
    const r = raw as Record<string, unknown>;
    if (r.pull_request !== undefined) return;
    c.add(githubFields(r, options), origin);
  });
  return c.result();
}
