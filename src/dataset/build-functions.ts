/**
 * The function-level step of a mined dataset (docs/dataset.md, `--functions`): SweLoc-style positive functions
 * for every record of a build, and the option to keep only issues whose fixing commits also change
 * tests (SweRank's SweLoc takes only such PRs). Works on a finished {@link BuildResult}, so the
 * file-level build stays streaming and this step reads only the records' commits.
 */
import { GitRepo } from '../repo/git.js';
import type { UnitExtractor } from './function-positives.js';
import type { BuildResult, DroppedIssue, DropReason } from './build.js';
import type { DatasetRecord } from './record.js';
import { addFunctionPositives } from './record-functions.js';

/** Options of {@link addFunctionLevel}. */
export interface FunctionLevelOptions {
  /** Fill `positiveFunctions` / `positiveModules` (`addFunctionPositives`). */
  functions: boolean;
  /** Keep only records whose commits also change a test file (`changesTests`). */
  onlyWithTests: boolean;
  /** Code-unit extractor (default: the corpus extractor). */
  extract?: UnitExtractor;
  /** Called after each record with (done, total) while functions are computed. */
  progress?: (done: number, total: number) => void;
}

/** The linked commits of a record, for a dropped-issue entry. */
function linkedCommitsOf(r: DatasetRecord): string[] {
  const linked = r.provenance.linkedCommits;
  return Array.isArray(linked) ? (linked as string[]) : r.commits;
}

/**
 * A build with function-level positives and/or only the issues whose commits change tests.
 *
 * Functions: for each record, the existing functions of its positive files that its commits edit
 * against their first parents (a removed line in the old span, or an added line in the new span,
 * of a function that exists at the a-priori state: the rule of the reference evaluator ref_eval.py, see
 * `record-functions.ts`). Test filter: a record is kept when `changesTests` is true; an issue all
 * of whose records go is added to `dropped` with reason `no-test-change`, and the counts
 * (`inDataset`, `samples`, `dropReasons`) are recomputed. `meta.functions` reports records without
 * any function, the number of positive functions, and commits whose diffs git could not read
 * (missing blobs: those files give no functions, never a crash).
 *
 * @param result a build of `meta.repo` (records with full SHAs of that repository).
 * @returns a new result (the input is not changed); the input itself when both options are off.
 * @throws IssuelocError when the repository cannot be opened or a record's commit is not in it.
 */
export async function addFunctionLevel(result: BuildResult, options: FunctionLevelOptions): Promise<BuildResult> {
  if (!options.functions && !options.onlyWithTests) return result;
  const started = Date.now();
  let records: DatasetRecord[];
  let functionsMeta: BuildResult['meta']['functions'];
  if (options.functions) {
    const repo = await GitRepo.open(result.meta.repo);
    try {
      const res = await addFunctionPositives(repo, result.records, {
        onlyChangingTests: options.onlyWithTests,
        extract: options.extract,
        progress: options.progress,
      });
      records = res.records;
      functionsMeta = {
        recordsWithoutFunctions: res.withoutFunctions,
        positiveFunctions: records.reduce((n, r) => n + r.positiveFunctions.length, 0),
        unreadableCommits: [...new Set(res.unreadableCommits)],
      };
    } finally {
      await repo.close();
    }
  } else {
    records = result.records.filter((r) => r.changesTests === true);
  }
  const kept = new Set(records.map((r) => r.issue.id));
  const dropped: DroppedIssue[] = [...result.dropped];
  const droppedNow = new Set<string>();
  for (const r of result.records) {
    if (kept.has(r.issue.id) || droppedNow.has(r.issue.id)) continue;
    droppedNow.add(r.issue.id);
    dropped.push({ id: r.issue.id, reason: 'no-test-change', detail: 'no sample commit changes a test file', commits: linkedCommitsOf(r) });
  }
  const dropReasons: Partial<Record<DropReason, number>> = {};
  for (const d of dropped) dropReasons[d.reason] = (dropReasons[d.reason] ?? 0) + 1;
  const millis = Date.now() - started;
  const meta = result.meta;
  return {
    records,
    dropped,
    meta: {
      ...meta,
      counts: { ...meta.counts, inDataset: kept.size, samples: records.length },
      dropReasons,
      onlyWithTests: options.onlyWithTests,
      ...(functionsMeta ? { functions: functionsMeta } : {}),
      millis: { ...meta.millis, functions: millis, total: meta.millis.total + millis },
    },
  };
}
