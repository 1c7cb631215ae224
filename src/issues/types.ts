/**
 * The normalised issue record every issue source produces (docs/architecture.md: `Issue`).
 * It carries the fields of the dataset's issue (`src/dataset/record.ts`, `DatasetIssue`) plus
 * what linking needs (status, resolution, fixing commits a source may give directly).
 */
import type { IssueCategory } from './category.js';

/** Markup of an issue body as the source gives it. */
export type BodyFormat = 'html' | 'jira-wiki' | 'markdown' | 'text';

/** One issue, normalised. Dates are ISO 8601 UTC strings (`2011-04-13T02:34:34.000Z`) or null. */
export interface Issue {
  /** Issue key (`MNG-5064`), GitHub issue number (`1234`), or the source's id. */
  id: string;
  title: string;
  /** Body cleaned for retrieval (markup removed; code and noformat blocks kept as text). */
  body: string;
  /** Body as the source gives it. */
  bodyRaw: string;
  /** Markup of `bodyRaw`. */
  bodyFormat: BodyFormat;
  /** Issue type as the source names it (`Bug`, `New Feature`, …; `''` when the source has none). */
  type: string;
  /** Category of `type` by the type table (`./category.ts`). */
  category: IssueCategory;
  created: string | null;
  resolved: string | null;
  labels: string[];
  /** Workflow status (`Closed`, GitHub `closed`), `''` when unknown. */
  status: string;
  /** Resolution (`Fixed`, `Won't Fix`, GitHub `completed`/`not_planned`), `''` when unknown. */
  resolution: string;
  /** Fixing commits the source names directly (full or abbreviated SHAs), if any. */
  fixCommits?: string[];
  /** Where the record came from: `file:line` (JSONL, CSV) or `file#index` (JSON, XML). */
  origin: string;
}

/** Result of reading an issue source. */
export interface IssueSourceResult {
  issues: Issue[];
  /** `file:line: reason` for each record skipped as invalid (only with `skipInvalid`). */
  invalid: string[];
}

/** Options every issue source takes. */
export interface IssueSourceOptions {
  /** Skip (and list) corrupt records instead of failing on the first. */
  skipInvalid?: boolean;
  /** Issue-type → category table (default: `DEFAULT_TYPE_CATEGORIES`). */
  typeTable?: ReadonlyMap<string, IssueCategory>;
}
