/**
 * Loading a dataset file of any kind: dataset records (JSONL written by `issueloc dataset build`
 * or `dataset import`), or the rows of a published benchmark (SWE-bench, Loc-Bench, Tomcat) read
 * through its importer. `loadDataset` is the one way to load any of them (the learned ranker's
 * training and evaluation, `issueloc eval`).
 */
import { IssuelocError } from '../../errors.js';
import { RepoPool } from '../../repo/mirrors.js';
import { readDataset } from '../read.js';
import type { DatasetRecord } from '../record.js';
import { readRows } from './rows.js';
import { importBenchmark, type ImportSource } from './run.js';

/** The kinds of dataset file {@link loadDataset} reads: dataset records, or a benchmark's rows. */
export type DatasetKind = 'records' | ImportSource;

/**
 * Recognises the kind of a dataset file from its first row: `issue` + `aprioriCommit` = dataset
 * records; `edit_functions` = Loc-Bench; `bug_id` = Tomcat; `instance_id` + `patch` = SWE-bench.
 * @throws IssuelocError for an empty, unreadable or unrecognised file (a corrupt row is named `file:line`).
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

/** What {@link loadDataset} returns. */
export interface LoadedDataset {
  kind: DatasetKind;
  /** In file order. */
  records: DatasetRecord[];
  /** Rows that gave no record (no gold, repository or commit missing), with the reason; none for records. */
  dropped: { id: string; reason: string }[];
}

/** Options of {@link loadDataset}. */
export interface LoadDatasetOptions {
  /**
   * Folder of fetched mirrors (`OWNER+NAME/repo`, `swe-bench+OWNER__NAME/repo`) where SWE-bench
   * and Tomcat gold is read (`src/repo/mirrors.ts`); needed for those two kinds only.
   */
  mirrors?: string;
}

/**
 * Loads the records of a dataset file of any kind ({@link datasetKind}):
 * - dataset records: as written ({@link readDataset});
 * - SWE-bench: gold from the patch at the base commit (`importSwebench`); instances editing no
 *   existing function are dropped, as are those whose repository is not among the mirrors;
 * - Loc-Bench: the rows' `edit_functions`/`edit_files` as gold, every row kept, no git work
 *   (records carry no repository path or candidate count; callers find the repository by `repo`);
 * - Tomcat: the fixed files that exist at the a-priori state, file level only (`importTomcat`
 *   with `functions: false`, apache/tomcat from the mirrors).
 * Benchmark rows are read with the importers' defaults (`dataset import` writes the same records,
 * with candidate counts).
 *
 * @throws IssuelocError for an unreadable, empty or unrecognised file, a corrupt row, a SWE-bench
 *   or Tomcat file without `mirrors`, or apache/tomcat missing from them.
 */
export async function loadDataset(path: string, options: LoadDatasetOptions = {}): Promise<LoadedDataset> {
  const kind = datasetKind(path);
  if (kind === 'records') return { kind, records: readDataset(path), dropped: [] };
  if (kind === 'locbench') {
    const result = await importBenchmark(kind, path, {}); // gold is given; missing repositories are the caller's to skip
    return { kind, records: result.records, dropped: result.dropped.map((d) => ({ id: d.id, reason: d.reason })) };
  }
  if (options.mirrors === undefined) {
    throw new IssuelocError(`${path}: reading the gold of a ${kind === 'tomcat' ? 'Tomcat' : 'SWE-bench'} file needs its repositories (a mirrors folder); or import it first with issueloc dataset import`);
  }
  const pool = new RepoPool(options.mirrors);
  try {
    const result = await importBenchmark(kind, path, { openRepo: pool.open, functions: false, reposFrom: options.mirrors });
    const dropped = result.dropped.map((d) => ({ id: d.id, reason: d.reason }));
    const records: DatasetRecord[] = [];
    for (const r of result.records) {
      if (kind === 'swebench' && !r.provenance.repoPath) dropped.push({ id: r.issue.id, reason: `repository ${r.repo} not found` });
      else records.push(r);
    }
    return { kind, records, dropped };
  } finally {
    await pool.close();
  }
}
