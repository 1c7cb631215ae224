/**
 * What the benchmark importers (SWE-bench, Loc-Bench, Ye et al. 2014 Tomcat) share: options,
 * result shape, the issue part of a record, and the candidate-file count.
 */
import type { GitRepo } from '../../repo/git.js';
import { buildIssue, type IssueFields } from '../../issues/normalise.js';
import type { IssueSourceOptions } from '../../issues/types.js';
import type { UnitExtractor } from '../function-positives.js';
import { datasetIssue } from '../build.js';
import type { DatasetIssue, DatasetRecord } from '../record.js';
import { candidateFileFilter } from '../source-files.js';

/** Opens the repository of a GitHub `owner/name`, or gives null when it is not available. */
export type RepoOpener = (ownerName: string) => Promise<GitRepo | null>;

/** Options every importer takes. */
export interface ImportOptions extends IssueSourceOptions {
  /** Where repositories come from (e.g. {@link RepoPool}); without it no git work is done. */
  openRepo?: RepoOpener;
  /** Code-unit extractor for function positives (default: the corpus extractor). */
  extract?: UnitExtractor;
  /** The records' `variant` (default: the benchmark's name). */
  variant?: string;
  /** Called before each row and once at the end with (rows done, rows in the file). */
  progress?: (done: number, total: number) => void;
}

/** A row that produced no record, and why. */
export interface DroppedSample {
  id: string;
  origin: string;
  /** Why, in words (may name a commit). */
  reason: string;
  /**
   * The reason as a stable code, for counting: `base-commit-missing`, `no-function-edited`,
   * `fix-commit-not-found`, `root-commit`, `no-positive`, `repo-not-available`.
   */
  code: string;
  /** The row's language, where the source names one (SWE-PolyBench). */
  language?: string;
}

/** What an importer returns. */
export interface ImportResult {
  records: DatasetRecord[];
  dropped: DroppedSample[];
  /** `file:line: reason` of rows skipped as corrupt (only with `skipInvalid`). */
  invalid: string[];
}

/**
 * The dataset issue of a benchmark row, built like every issue source builds its issues (body
 * cleaned by its markup, type → category by the type table, dates to ISO 8601).
 * @throws Error (plain; the caller names the row) when the id is empty or a date is unreadable.
 */
export function benchmarkIssue(fields: IssueFields, origin: string, options: IssueSourceOptions): DatasetIssue {
  return datasetIssue(buildIssue(fields, origin, options));
}

/**
 * Number of candidate files at `commit`: the source files a localiser ranks (`candidateFileFilter`);
 * without tests by default, as in the SWE-bench protocol's corpus.
 */
export async function countCandidates(repo: GitRepo, commit: string, withTests = false): Promise<number> {
  return countCandidatePaths(await repo.listPaths(commit), withTests);
}

/** Number of source files among `paths` (`candidateFileFilter(withTests)`; default: tests left out). */
export function countCandidatePaths(paths: Iterable<string>, withTests = false): number {
  const isSource = candidateFileFilter(withTests);
  let n = 0;
  for (const p of paths) if (isSource(p)) n++;
  return n;
}
