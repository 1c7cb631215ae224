/**
 * Eval jobs in shards, and their merge by `batch collect`. An eval job evaluates shard k of n of
 * one dataset with the paper's settings (`issueloc eval` defaults with one thread and exact LSI
 * fits): `runEvaluation` checks the records and labels the split on the whole dataset, then
 * evaluates the k-th of n contiguous slices of the work order. A shard's folder holds
 *
 * - `result.jsonl`: its per-issue rows (an issue under one retriever: ranks of the positives,
 *   metric values), in work order;
 * - `run.<retriever>.txt`: its TREC runs;
 * - `shard.json`: its issues (id, split label, positives), the skipped records, counts, split
 *   boundary, counters, and the issues of the whole run per split label;
 * - `timings.json`: its timings (the only file whose bytes depend on who ran it, with `job.json`).
 *
 * {@link mergeEvalShards} joins the shards of each evaluation in shard order, which is the whole
 * run's work order, and writes with `writeResults` the results folder `issueloc eval` writes for
 * the whole dataset: the same per-issue rows, runs, qrels and metric tables (one metrics
 * computation: `aggregate` over the rows), and a summary whose timings and counters are the
 * shards' sums.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import { toJsonl } from '../dataset/output.js';
import { DEFAULT_ISSUE_TEXT } from '../eval/issue-text.js';
import { aggregatesBySplit, RunFileWriter, reportedSplits, writeResults, type RunResults, type RunSummary } from '../eval/results.js';
import { mergeCollected, runEvaluation, type EvalCounts, type EvalOptions, type EvalRun, type EvalTimings, type IssueResultRow } from '../eval/run-eval.js';
import { PAPER_TEXT_SETTINGS } from '../eval/text-settings.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { makeDirs } from '../util/make-dirs.js';
import { canonicalJson, type BatchJob, type EvalJob } from './job-spec.js';
import { RESULT_FILE } from './result-file.js';
import { resultDir } from './results-folder.js';

/** What `shard.json` holds. */
interface ShardRecord {
  issues: RunResults['issues'];
  skipped: EvalRun['skipped'];
  counts: EvalCounts;
  boundary?: EvalRun['boundary'];
  stats: EvalRun['stats'];
  unsharded: EvalRun['unsharded'];
}

/** The options of an eval job: `issueloc eval` defaults, one thread, exact LSI fits (`lsiRefit` 0). */
function evalOptions(spec: EvalJob): EvalOptions {
  return {
    dataset: spec.dataset, repo: spec.repo, mirrors: spec.mirrors, retrievers: spec.retrievers, split: spec.split,
    text: PAPER_TEXT_SETTINGS, issueText: DEFAULT_ISSUE_TEXT, includeTests: true, retrieverSettings: {}, workers: 1, runDepth: 1000,
    shard: { index: spec.shard, count: spec.shards },
  };
}

/** The name of an evaluation in tables and metric lines: the dataset file's name without `.jsonl`. */
function datasetName(spec: EvalJob): string {
  return spec.dataset.split('/').pop()?.replace(/\.jsonl$/i, '') ?? spec.dataset;
}

/** Evaluates shard `spec.shard` of `spec.shards` into `dir` (see the module comment). */
export async function runEvalJob(spec: EvalJob, dir: string): Promise<void> {
  const runs = new RunFileWriter(dir, spec.retrievers);
  let run: EvalRun;
  try {
    run = await runEvaluation(evalOptions(spec), (_issue, _split, outcome) => runs.add(outcome));
    runs.commit();
  } catch (e) {
    runs.abort();
    throw e;
  }
  const shard: ShardRecord = {
    issues: run.issues.map((i) => ({ id: i.id, split: i.split, positives: i.positives })),
    skipped: run.skipped, counts: run.counts, boundary: run.boundary, stats: run.stats, unsharded: run.unsharded,
  };
  writeFileAtomic(join(dir, 'shard.json'), [`${JSON.stringify(shard)}\n`]);
  writeFileAtomic(join(dir, 'timings.json'), [`${JSON.stringify(run.timings)}\n`]);
  writeFileAtomic(join(dir, RESULT_FILE), [toJsonl(run.rows)]);
}

/** The folder of merged results beside a collect output: `x.jsonl` → `x.eval/`. */
export function evalFolderPath(out: string): string {
  return `${out.replace(/\.jsonl$/i, '')}.eval`;
}

/** A shard's files read back. */
interface ShardFiles { spec: EvalJob; dir: string; rows: IssueResultRow[]; record: ShardRecord; timings: EvalTimings }

function readShard(results: string, job: BatchJob): ShardFiles {
  const dir = resultDir(results, job.id);
  const read = (name: string): string => {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      throw new IssuelocError(`${join(dir, name)}: missing from a finished eval job (a job of an older issueloc? remove it and enqueue again)`);
    }
  };
  try {
    const rows = read(RESULT_FILE).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as IssueResultRow);
    return { spec: job.spec as EvalJob, dir, rows, record: JSON.parse(read('shard.json')) as ShardRecord, timings: JSON.parse(read('timings.json')) as EvalTimings };
  } catch (e) {
    if (e instanceof IssuelocError) throw e;
    throw new IssuelocError(`${dir}: corrupt eval shard (${(e as Error).message})`);
  }
}

/** Counts of the whole run from its shards': the records are each shard's, the issues' sums. */
function mergeCounts(parts: readonly EvalCounts[]): EvalCounts {
  const sum = (k: keyof EvalCounts) => parts.reduce((s, c) => s + c[k], 0);
  return {
    records: parts[0].records, evaluated: sum('evaluated'), skippedRecords: parts[0].skippedRecords,
    positivesNotCandidates: sum('positivesNotCandidates'), positivesNotIndexed: sum('positivesNotIndexed'),
    issuesWithoutPositives: sum('issuesWithoutPositives'), validation: sum('validation'), test: sum('test'),
  };
}

/** Writes `path` as the bytes of `sources` one after another (one source in memory at a time). */
function concatFiles(path: string, sources: readonly string[]): void {
  const fd = openSync(path, 'w');
  try {
    for (const s of sources) {
      const buf = readFileSync(s);
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off);
    }
  } finally {
    closeSync(fd);
  }
}

/** One evaluation merged from its shards: the results folder, and its metric lines for the collect output. */
function mergeEvaluation(shards: readonly ShardFiles[], total: number, dir: string): string {
  const first = shards[0];
  const spec = first.spec;
  const same = canonicalJson({ skipped: first.record.skipped, boundary: first.record.boundary, unsharded: first.record.unsharded });
  for (const s of shards) {
    if (canonicalJson({ skipped: s.record.skipped, boundary: s.record.boundary, unsharded: s.record.unsharded }) !== same) {
      throw new IssuelocError(`shards of ${spec.dataset} disagree on the records or the split (${s.dir})`, 3);
    }
  }
  const rows = shards.flatMap((s) => s.rows);
  const run: RunResults = { rows, skipped: first.record.skipped, issues: shards.flatMap((s) => s.record.issues) };
  const loops = mergeCollected(shards.map((s) => ({ timings: s.timings, stats: s.record.stats })));
  const timings: EvalTimings = {
    ...loops.timings,
    prepareMillis: shards.reduce((t, s) => t + s.timings.prepareMillis, 0),
    evaluateWallMillis: shards.reduce((t, s) => t + s.timings.evaluateWallMillis, 0),
  };
  const present = new Set(shards.map((s) => s.spec.shard));
  const missingShards = Array.from({ length: total }, (_, k) => k).filter((k) => !present.has(k));
  const name = datasetName(spec);
  const summary: RunSummary = {
    tool: 'issueloc eval', name, dataset: spec.dataset, repo: spec.repo ?? `mirrors: ${spec.mirrors}`,
    settings: { text: PAPER_TEXT_SETTINGS, issueText: DEFAULT_ISSUE_TEXT, includeTests: true, runDepth: 1000 },
    retrievers: spec.retrievers, split: spec.split, counts: mergeCounts(shards.map((s) => s.record.counts)), boundary: first.record.boundary,
    timings, stats: loops.stats, workers: 1,
    ...(missingShards.length > 0 ? { partial: { shards: total, missingShards, issues: first.record.unsharded } } : {}),
  };
  makeDirs(dir);
  for (const r of spec.retrievers) concatFiles(join(dir, `run.${r}.txt`), shards.map((s) => join(s.dir, `run.${r}.txt`)));
  writeResults(dir, summary, run);
  const lines: unknown[] = [];
  for (const split of reportedSplits(rows)) {
    const issues = run.issues.filter((i) => i.split === split).length;
    const partial = summary.partial ? { partial: { issues, of: first.record.unsharded[split], shards: total, missingShards } } : {};
    for (const [retriever, metrics] of aggregatesBySplit(rows, spec.retrievers, split)) lines.push({ dataset: name, split, retriever, metrics, ...partial });
  }
  return toJsonl(lines);
}

/**
 * Merges the finished shards of every evaluation among `jobs` (eval jobs in enqueue order; an
 * evaluation is a dataset with its settings, split into `shards` jobs): writes under `folder`
 * one results folder per evaluation with any finished shard (named after the dataset, `-2`,
 * `-3` … when a name repeats), replacing `folder` as a whole.
 * @param usable whether a job's result may be used (it is there and its checksums hold).
 * @returns the metric lines (dataset, split, retriever, metrics; with `partial` coverage when
 *   shards are missing) of every evaluation, in enqueue order.
 * @throws IssuelocError (exit 2) for a finished shard whose files are missing or corrupt; (exit 3)
 *   when the shards of one evaluation disagree on its records or split (a bug). Nothing is
 *   written then.
 */
export function mergeEvalShards(results: string, jobs: readonly BatchJob[], folder: string, usable: (id: string) => boolean): string {
  const groups = new Map<string, BatchJob[]>();
  for (const j of jobs) {
    const key = canonicalJson({ ...j.spec, shard: undefined, fingerprint: j.fingerprint });
    groups.set(key, [...(groups.get(key) ?? []), j]);
  }
  const tmp = `${folder}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  makeDirs(tmp);
  const names = new Map<string, number>();
  const parts: string[] = [];
  try {
    for (const group of groups.values()) {
      const done = group.filter((j) => usable(j.id)).map((j) => readShard(results, j)).sort((a, b) => a.spec.shard - b.spec.shard);
      if (done.length === 0) continue;
      const name = datasetName(done[0].spec);
      const seen = (names.get(name) ?? 0) + 1;
      names.set(name, seen);
      parts.push(mergeEvaluation(done, done[0].spec.shards, join(tmp, seen === 1 ? name : `${name}-${seen}`)));
    }
    rmSync(folder, { recursive: true, force: true });
    renameSync(tmp, folder);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return parts.join('');
}
