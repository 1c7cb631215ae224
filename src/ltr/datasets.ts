/**
 * Labelled issues from a dataset file of any kind the project reads: dataset records (mined by
 * `issueloc dataset build` or written by an importer), SWE-bench(-Lite) JSONL, Loc-Bench JSONL,
 * or Ye et al.'s Tomcat JSONL. The kind is recognised from the first row's fields.
 */
import { IssuelocError } from '../errors.js';
import { readRows } from '../dataset/import/rows.js';
import { importLocbench } from '../dataset/import/locbench.js';
import { importSwebench } from '../dataset/import/swebench.js';
import { importTomcat } from '../dataset/import/tomcat.js';
import { RepoPool } from '../dataset/import/mirrors.js';
import type { ImportResult } from '../dataset/import/common.js';
import type { DatasetRecord } from '../dataset/record.js';
import type { IndexSettings } from '../index/code-index.js';
import { labelledIssueOf, type LabelledIssue } from './labelled-issues.js';

/** The kinds of dataset file {@link readLabelledIssues} reads. */
export type DatasetKind = 'records' | 'swebench' | 'locbench' | 'tomcat';

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
 * Recognises the kind of a dataset file from its first row: `issue` + `aprioriCommit` = dataset
 * records; `edit_functions` = Loc-Bench; `bug_id` = Tomcat; `instance_id` + `patch` = SWE-bench.
 * @throws IssuelocError for an empty or unrecognised file.
 */
export function datasetKind(path: string): DatasetKind {
  const { rows } = readRows(path);
  const first = rows[0]?.value;
  if (!first) throw new IssuelocError(`${path}: no rows`);
  if ('issue' in first && 'aprioriCommit' in first) return 'records';
  if ('edit_functions' in first) return 'locbench';
  if ('bug_id' in first) return 'tomcat';
  if ('instance_id' in first && 'patch' in first) return 'swebench';
  throw new IssuelocError(`${path}: unknown dataset kind (expected dataset records, SWE-bench, Loc-Bench or Tomcat JSONL)`);
}

/**
 * Reads the labelled issues of a dataset file. Gold items: dataset records' positives;
 * SWE-bench gold from the patch at the base commit (needs the repository; instances editing no
 * existing function are dropped, as are instances whose repository is not there); Loc-Bench's
 * `edit_functions`/`edit_files` (all rows kept: {@link forEachIssue} skips those whose repository
 * or commit is missing); Tomcat's fixed files that exist at the a-priori state (file level only).
 *
 * @param repoRoot folder of fetched mirrors (`OWNER+NAME/repo`, `swe-bench+OWNER__NAME/repo`).
 * @throws IssuelocError for an unreadable or unrecognised file (see the importers).
 */
export async function readLabelledIssues(path: string, repoRoot: string): Promise<LabelledDataset> {
  const kind = datasetKind(path);
  if (kind === 'records') {
    const { rows } = readRows(path);
    const issues = rows.map((r) => labelledIssueOf(r.value as unknown as DatasetRecord));
    return { kind, issues, dropped: [], indexSettings: protocolIndexSettings(kind) };
  }
  const pool = new RepoPool(repoRoot);
  try {
    let result: ImportResult;
    if (kind === 'tomcat') {
      const repo = await pool.open('apache/tomcat');
      if (!repo) throw new IssuelocError(`${path}: the Tomcat set needs apache/tomcat under ${repoRoot}`);
      result = await importTomcat(path, { repo, functions: false });
    } else if (kind === 'locbench') {
      result = await importLocbench(path); // gold is given; missing repositories are skipped later
    } else {
      result = await importSwebench(path, { openRepo: pool.open });
    }
    const issues: LabelledIssue[] = [];
    const dropped = result.dropped.map((d) => ({ id: d.id, reason: d.reason }));
    for (const r of result.records) {
      if (kind === 'swebench' && !r.provenance.repoPath) dropped.push({ id: r.issue.id, reason: `repository ${r.repo} not found` });
      else issues.push(labelledIssueOf(r));
    }
    return { kind, issues, dropped, indexSettings: protocolIndexSettings(kind) };
  } finally {
    await pool.close();
  }
}
