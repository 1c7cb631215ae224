/**
 * Labelled issues from a dataset file of any kind the project reads (dataset records, SWE-bench,
 * Loc-Bench, Tomcat; `loadDataset`, src/dataset/read.ts), with the index settings of the
 * dataset's protocol.
 */
import { loadDataset, type DatasetKind } from '../dataset/import/load.js';
import type { IndexSettings } from '../index/code-index.js';
import { labelledIssueOf, type LabelledIssue } from './labelled-issues.js';

/** What {@link readLabelledIssues} returns. */
export interface LabelledDataset {
  kind: DatasetKind;
  issues: LabelledIssue[];
  /** Rows that gave no issue (missing repository or commit, no gold), with the reason. */
  dropped: { id: string; reason: string }[];
  /** Index settings the dataset's protocol asks for ({@link protocolIndexSettings}). */
  indexSettings: Partial<IndexSettings>;
}

/**
 * Index settings of a benchmark's protocol: SWE-bench and Loc-Bench rank the functions of the
 * non-test Python files (SweRank, LocAgent); Ye et al. (2014) rank every Java file of Tomcat, tests
 * included. Mined dataset records use the library defaults.
 */
export function protocolIndexSettings(kind: DatasetKind): Partial<IndexSettings> {
  if (kind === 'tomcat') return { includeTests: true };
  if (kind === 'swebench' || kind === 'locbench') return { languages: ['python'] };
  return {};
}

/**
 * Reads the labelled issues of a dataset file (`loadDataset`: gold items and dropped rows as it
 * says per kind; Loc-Bench issues whose repository or commit is missing are skipped later by
 * `forEachIssue`).
 *
 * @param repoRoot folder of fetched mirrors (`OWNER+NAME/repo`, `swe-bench+OWNER__NAME/repo`).
 * @throws IssuelocError for an unreadable or unrecognised file (see `loadDataset`).
 */
export async function readLabelledIssues(path: string, repoRoot: string): Promise<LabelledDataset> {
  const { kind, records, dropped } = await loadDataset(path, { mirrors: repoRoot });
  return { kind, issues: records.map(labelledIssueOf), dropped, indexSettings: protocolIndexSettings(kind) };
}
