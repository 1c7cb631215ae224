/**
 * Turning the fields one source record gives into an {@link Issue}: body cleaned by its markup,
 * type mapped to its category, dates to ISO 8601, and every problem reported against the record's
 * origin (`file:line` or `file#index`), so a bad record can be named, skipped and counted.
 */
import { IssuelocError } from '../errors.js';
import { cleanBody } from './body.js';
import { categorize, DEFAULT_TYPE_CATEGORIES } from './category.js';
import { toIsoDate } from './dates.js';
import type { BodyFormat, Issue, IssueSourceOptions, IssueSourceResult } from './types.js';

/** Raw fields of one record, as a source reads them (anything may be missing). */
export interface IssueFields {
  id: unknown;
  title?: unknown;
  body?: unknown;
  bodyFormat: BodyFormat;
  type?: unknown;
  created?: unknown;
  resolved?: unknown;
  labels?: unknown;
  status?: unknown;
  resolution?: unknown;
  fixCommits?: unknown;
}

/** A value as text: strings as they are, numbers printed, everything else `''`. */
export function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return '';
}

/** A list of strings from a string, a list of strings, or a list of `{ name }` objects. */
export function stringList(v: unknown): string[] {
  if (v === null || v === undefined || v === '') return [];
  const items = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const item of items) {
    const s = item !== null && typeof item === 'object' ? text((item as Record<string, unknown>).name) : text(item);
    if (s.trim() !== '') out.push(s.trim());
  }
  return out;
}

/**
 * Builds the issue of one record.
 *
 * @throws Error (plain, the caller adds the origin) when the id is missing or a date unreadable.
 */
export function buildIssue(f: IssueFields, origin: string, options: IssueSourceOptions = {}): Issue {
  const id = text(f.id).trim();
  if (id === '') throw new Error('no issue id');
  const bodyRaw = text(f.body);
  const type = text(f.type).trim();
  const fixCommits = stringList(f.fixCommits);
  const issue: Issue = {
    id,
    title: text(f.title).trim(),
    body: cleanBody(bodyRaw, f.bodyFormat),
    bodyRaw,
    bodyFormat: f.bodyFormat,
    type,
    category: categorize(type, options.typeTable ?? DEFAULT_TYPE_CATEGORIES),
    created: toIsoDate(f.created),
    resolved: toIsoDate(f.resolved),
    labels: stringList(f.labels),
    status: text(f.status).trim(),
    resolution: text(f.resolution).trim(),
    origin,
  };
  if (fixCommits.length > 0) issue.fixCommits = fixCommits;
  return issue;
}

/**
 * Collects the issues of a source: builds each record, names the record of any error, skips and
 * lists it with `skipInvalid`, and rejects a second record with an id already seen.
 */
export class IssueCollector {
  private readonly seen = new Map<string, string>();
  readonly issues: Issue[] = [];
  readonly invalid: string[] = [];

  constructor(private readonly options: IssueSourceOptions) {}

  /**
   * Records a problem with the record at `origin`.
   *
   * @throws IssuelocError `<origin>: <reason>` unless `skipInvalid`.
   */
  fail(origin: string, reason: string): void {
    const msg = `${origin}: ${reason}`;
    if (!this.options.skipInvalid) throw new IssuelocError(msg);
    this.invalid.push(msg);
  }

  /** Adds the record at `origin` (see {@link buildIssue}); failures go through {@link fail}. */
  add(fields: IssueFields, origin: string): void {
    let issue: Issue;
    try {
      issue = buildIssue(fields, origin, this.options);
    } catch (e) {
      this.fail(origin, (e as Error).message);
      return;
    }
    const first = this.seen.get(issue.id);
    if (first !== undefined) {
      this.fail(origin, `duplicate issue id ${issue.id} (first at ${first})`);
      return;
    }
    this.seen.set(issue.id, origin);
    this.issues.push(issue);
  }

  /** The issues and skipped records. */
  result(): IssueSourceResult {
    return { issues: this.issues, invalid: this.invalid };
  }
}
