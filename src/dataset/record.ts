/**
 * The dataset record: one labelled localisation sample (an issue, the a-priori state of the
 * repository, and the files/functions the fix changes). Mined datasets (issue ↔ commit links)
 * and imported benchmarks (SWE-bench Lite, Loc-Bench, Ye et al. 2014 Tomcat) share it, so one
 * evaluation code path serves all of them. Names follow docs/architecture.md.
 */

/** Issue type categories (the paper's Table 2 grouping). */
export type IssueCategory = 'Bug' | 'New Feature' | 'Improvement' | 'Task' | 'Other';

/** The issue as the dataset keeps it. Dates are ISO 8601 strings, `null` when unknown. */
export interface DatasetIssue {
  /** Issue key or benchmark instance id, e.g. `MNG-1234`, `django__django-15202`, `56012`. */
  id: string;
  title: string;
  /** Body cleaned for retrieval (markup removed); equal to `bodyRaw` where there is no markup. */
  body: string;
  /** Body as the source gives it. */
  bodyRaw: string;
  /** Issue type as the source names it (`''` when the source has none). */
  type: string;
  category: IssueCategory;
  created: string | null;
  resolved: string | null;
  labels: string[];
}

/** One labelled sample. */
export interface DatasetRecord {
  issue: DatasetIssue;
  /** GitHub `owner/name` of the repository, when known. */
  repo?: string;
  /** Full SHAs of the commits linked to the issue (empty when a benchmark gives only a patch). */
  commits: string[];
  /** The a-priori state: the commit whose tree is searched (SWE-bench's `base_commit`). */
  aprioriCommit: string;
  /** Positive files (paths at the a-priori state). */
  positives: string[];
  /** Positive functions, `path:Qualified.name`. */
  positiveFunctions: string[];
  /** Positive modules, `path:TopLevelName`. */
  positiveModules?: string[];
  /** Number of candidate files at the a-priori state (0 when not computed). */
  candidates: number;
  /** How the sample was made: `first-commit`, `all-future-files`, `exact-commits`, `swebench-lite`, … */
  variant: string;
  /** Where the record came from (source file, line, tool settings, …). */
  provenance: Record<string, unknown>;
  /** Whether the fix also changes test files. */
  changesTests?: boolean;
}
