/**
 * Evaluation of file retrievers on a localisation dataset ("file localisation from issues at
 * large", §3.6): each issue's candidate files at its a-priori state are ranked by every retriever,
 * with collection statistics of that state; issues are split 50/50 in time by their first linked
 * commit (validation, then test) or evaluated all together.
 *
 * Work order and threads: issues are evaluated in order of their a-priori commit's time, so that
 * consecutive states share blobs (cached term counts) and LSI models; with `workers` > 1 the
 * ordered list is cut into that many contiguous slices, each evaluated by a worker thread with its
 * own repository process and caches. With `lsiRefit` > 0 LSI results depend slightly on the slices
 * (a model is reused within a slice), so the worker count is part of a run's settings; with
 * `lsiRefit` 0 every score is the same bits for any worker count (scores do not depend on what a
 * thread evaluated before).
 *
 * Outcomes stream to a sink in work order, whatever order the threads finish them in (early ones
 * wait packed, `outcome-order.ts`); the run keeps only the compact per-issue rows, in work order too.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { IssuelocError } from '../errors.js';
import { mirrorPath } from '../repo/mirrors.js';
import type { DatasetRecord } from '../dataset/record.js';
import { loadDataset } from '../dataset/import/load.js';
import { GitRepo } from '../repo/git.js';
import type { RetrieverSettings } from '../retrieve/file-retrievers/registry.js';
import { IssueEvaluator, type IssueOutcome, type IssueTask, type LoopSettings, type LoopTimings } from './issue-evaluator.js';
import type { IssueTextOptions } from './issue-text.js';
import type { MetricValues } from '../metrics/ranking-metrics.js';
import { inWorkOrder } from './outcome-order.js';
import { prepareIssues, type PreparedIssue, type SkippedRecord } from './prepare.js';
import { compareIdsNatural, temporalSplit } from './split.js';
import type { TextSettings } from './text-settings.js';

/** Which issues are evaluated and how they are labelled. */
export type SplitMode = 'temporal' | 'all';

/** The split label of an issue. */
export type SplitLabel = 'validation' | 'test' | 'all';

/** Options of {@link runEvaluation}. */
export interface EvalOptions {
  /**
   * Dataset JSONL: records of `src/dataset/record.ts`, or a SWE-bench, Loc-Bench or Tomcat file
   * (`loadDataset`; SWE-bench and Tomcat need `mirrors`); rows that give no record are skipped.
   */
  readonly dataset: string;
  /** The repository every record refers to (work tree or bare). */
  readonly repo?: string;
  /**
   * Instead of `repo`: a folder of fetched mirrors (`OWNER+NAME/repo`, `swe-bench+OWNER__NAME/repo`)
   * where each record's repository (`record.repo`, GitHub `owner/name`) is looked up; records of
   * repositories not there are skipped with that reason (multi-repository sets such as Loc-Bench).
   * Without `repo`, a record not found there (or every record, without `mirrors`) is opened where
   * it says it was mined or imported from (`provenance.repoPath`: `dataset mine-commits`,
   * `dataset build`, `dataset import`), when that folder exists.
   */
  readonly mirrors?: string;
  readonly retrievers: readonly string[];
  readonly split: SplitMode;
  readonly text: TextSettings;
  readonly issueText: IssueTextOptions;
  /** Rank test files too (default true: the paper ranks all source files). */
  readonly includeTests: boolean;
  readonly retrieverSettings: RetrieverSettings;
  /** Worker threads; 1 evaluates in this thread. */
  readonly workers: number;
  /** Ranked files kept per issue and retriever for the TREC run (default 1000). */
  readonly runDepth: number;
  readonly maxFileBytes?: number;
  /** Evaluate only the first `limit` issues in work order (quick runs). */
  readonly limit?: number;
  /**
   * Evaluate only shard `index` (0-based) of `count`: the index-th of `count` contiguous slices of
   * the work order (after `limit`). Records are checked and the split is labelled on the whole
   * dataset first, so each issue keeps the split label (and the run the boundary) of the unsharded
   * run; the shards' rows and runs, joined in shard order, are the unsharded run's (with one
   * thread each, and `lsiRefit` 0: a reused LSI model would depend on the slice).
   */
  readonly shard?: { readonly index: number; readonly count: number };
  /** Progress: phase, done, total. */
  readonly onProgress?: (phase: 'prepare' | 'evaluate', done: number, total: number) => void;
}

/** The default worker count: both cores when the machine has them. */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()));
}

/** One row of the per-issue results: an issue under one retriever. */
export interface IssueResultRow {
  readonly issue: string;
  readonly retriever: string;
  readonly split: SplitLabel;
  readonly type: string;
  readonly category: string;
  readonly identifiers: number;
  readonly fileNames: number;
  /** Files in the issue's corpus. */
  readonly candidates: number;
  /** Positives used for the metrics. */
  readonly positives: number;
  readonly positiveRanks: readonly number[];
  /** Files in the ranking. */
  readonly retrieved: number;
  readonly values: MetricValues;
  /** The ten best files. */
  readonly top: readonly string[];
}

/** Receives each issue's full outcome, in work order (with any number of worker threads). */
export type OutcomeSink = (issue: PreparedIssue, split: SplitLabel, outcome: IssueOutcome) => void;

/** Counts of a run, for the summary and the CLI. */
export interface EvalCounts {
  records: number;
  evaluated: number;
  skippedRecords: number;
  /** Positives that exist but are not candidate files (see prepare.ts). */
  positivesNotCandidates: number;
  /** Positives whose blob could not be indexed. */
  positivesNotIndexed: number;
  /** Issues left without any positive (their metrics are undefined and left out of means). */
  issuesWithoutPositives: number;
  validation: number;
  test: number;
}

/** Wall and summed thread times, milliseconds. */
export interface EvalTimings extends LoopTimings {
  prepareMillis: number;
  evaluateWallMillis: number;
}

/** What {@link runEvaluation} returns. */
export interface EvalRun {
  readonly rows: IssueResultRow[];
  readonly issues: readonly (PreparedIssue & { split: SplitLabel })[];
  readonly skipped: readonly SkippedRecord[];
  readonly counts: EvalCounts;
  readonly timings: EvalTimings;
  /** Split boundary (temporal split): first-commit times in ms. */
  readonly boundary?: { lastValidationMs: number; firstTestMs: number; tiesAcrossBoundary: number };
  /** Counters per retriever (LSI fits, …) and of the blob cache, summed over workers. */
  readonly stats: Record<string, Record<string, number>>;
  readonly workers: number;
  /** Issues per split label of the whole (unsharded) work order; `counts` and `issues` are the shard's. */
  readonly unsharded: Readonly<Record<SplitLabel, number>>;
}

/** Slice `index` of `count` contiguous slices of `items` (sizes differ by one at most). */
export function sliceOf<T>(items: readonly T[], index: number, count: number): T[] {
  return items.slice(Math.floor((index * items.length) / count), Math.floor(((index + 1) * items.length) / count));
}

/**
 * Runs an evaluation (see the module comment).
 * @throws IssuelocError for an unreadable or corrupt dataset, a bad repository, a temporal split
 *   of fewer than 2 issues, or a worker failure (its message).
 */
export async function runEvaluation(options: EvalOptions, sink: OutcomeSink = () => {}): Promise<EvalRun> {
  const loaded = await loadDataset(options.dataset, { mirrors: options.mirrors });
  const { records } = loaded;
  if (records.length === 0) throw new IssuelocError(`${options.dataset} holds no dataset records`);
  if (!options.repo && !options.mirrors && !records.some((r) => typeof r.provenance.repoPath === 'string')) {
    throw new IssuelocError(`${options.dataset}: its records name no repository folder: give --repo (one repository) or --mirrors (a folder of repositories)`);
  }
  const t0 = performance.now();
  const prepared = await prepareAll(records, options);
  prepared.skipped.unshift(...loaded.dropped);
  const prepareMillis = performance.now() - t0;
  if (prepared.issues.length === 0) {
    throw new IssuelocError(`no record of ${options.dataset} could be evaluated: ${prepared.skipped.length} skipped (first: ${prepared.skipped[0]?.id}: ${prepared.skipped[0]?.reason})`);
  }
  const labelled = labelSplit(prepared.issues, options.split);
  let order = [...labelled.issues].sort((a, b) => (a.repoPath < b.repoPath ? -1 : a.repoPath > b.repoPath ? 1 : 0)
    || a.aprioriTime - b.aprioriTime || compareIdsNatural(a.id, b.id));
  if (options.limit !== undefined) order = order.slice(0, options.limit);
  const unsharded = { validation: 0, test: 0, all: 0 };
  for (const i of order) unsharded[i.split]++;
  if (options.shard) {
    const { index, count } = options.shard;
    if (!(Number.isInteger(count) && count >= 1 && Number.isInteger(index) && index >= 0 && index < count)) throw new IssuelocError(`shard ${index} of ${count}: not a shard`);
    order = sliceOf(order, index, count);
  }
  const byId = new Map(order.map((i) => [i.id, i]));
  const rows: IssueResultRow[] = [];
  const counts: EvalCounts = {
    records: records.length + loaded.dropped.length, evaluated: 0, skippedRecords: prepared.skipped.length,
    positivesNotCandidates: order.reduce((s, i) => s + i.droppedPositives.length, 0),
    positivesNotIndexed: 0, issuesWithoutPositives: 0,
    validation: order.filter((i) => i.split === 'validation').length,
    test: order.filter((i) => i.split === 'test').length,
  };
  const onOutcome = (o: IssueOutcome) => {
    const issue = byId.get(o.id) as PreparedIssue & { split: SplitLabel };
    counts.evaluated++;
    counts.positivesNotIndexed += o.positivesNotIndexed.length;
    if (o.positives.length === 0) counts.issuesWithoutPositives++;
    for (const r of o.results) {
      rows.push({
        issue: o.id, retriever: r.retriever, split: issue.split, type: issue.type, category: issue.category,
        identifiers: issue.identifiers, fileNames: issue.fileNames, candidates: o.corpusSize,
        positives: o.positives.length, positiveRanks: r.positiveRanks, retrieved: r.retrieved, values: r.values,
        top: r.ranking.slice(0, 10).map((x) => x.id),
      });
    }
    sink(issue, issue.split, o);
    options.onProgress?.('evaluate', counts.evaluated, order.length);
  };
  const settings: LoopSettings = {
    retrievers: options.retrievers, retrieverSettings: options.retrieverSettings,
    text: options.text, includeTests: options.includeTests, maxFileBytes: options.maxFileBytes, runDepth: options.runDepth,
  };
  const tasks: IssueTask[] = order.map((i) => ({ id: i.id, repoPath: i.repoPath, aprioriCommit: i.aprioriCommit, queryText: i.queryText, positives: i.positives }));
  const workers = Math.max(1, Math.min(options.workers, tasks.length));
  const t1 = performance.now();
  options.onProgress?.('evaluate', 0, order.length);
  const { timings, stats } = workers === 1
    ? await evaluateInThread(settings, tasks, onOutcome)
    : await evaluateInWorkers(settings, tasks, workers, onOutcome);
  return {
    rows, issues: order, skipped: prepared.skipped, counts,
    timings: { ...timings, prepareMillis, evaluateWallMillis: performance.now() - t1 },
    boundary: labelled.boundary, stats, workers, unsharded,
  };
}

/**
 * Where a record's repository is, without `--repo`: under `mirrors` by its `owner/name`, else at
 * its `provenance.repoPath` when that exists; else why not (one line naming the repository).
 */
function locateRepository(r: DatasetRecord, mirrors: string | undefined): { path: string } | { reason: string } {
  const name = r.repo ?? '(none named)';
  const mirrored = mirrors !== undefined && typeof r.repo === 'string' ? mirrorPath(mirrors, r.repo) : null;
  if (mirrored !== null) return { path: mirrored };
  const recorded = r.provenance.repoPath;
  if (typeof recorded === 'string' && existsSync(recorded)) return { path: recorded };
  const at = typeof recorded === 'string' ? recorded : null;
  if (mirrors !== undefined) return { reason: `repository ${name} is not under ${mirrors}${at === null ? '' : ` nor at ${at}`}` };
  return { reason: at === null ? `repository ${name}: the record names no repository folder` : `repository ${name} is not at ${at} any more` };
}

/** Resolves each record's repository and prepares the records of each (see prepare.ts). */
async function prepareAll(records: readonly DatasetRecord[], options: EvalOptions): Promise<{ issues: PreparedIssue[]; skipped: SkippedRecord[] }> {
  const groups = new Map<string, DatasetRecord[]>();
  const skipped: SkippedRecord[] = [];
  for (const r of records) {
    const located = options.repo === undefined ? locateRepository(r, options.mirrors) : { path: options.repo };
    if ('reason' in located) {
      skipped.push({ id: r.issue.id, reason: located.reason });
      continue;
    }
    const list = groups.get(located.path) ?? [];
    list.push(r);
    groups.set(located.path, list);
  }
  if (groups.size === 0 && options.mirrors === undefined) {
    // No record's repository could be opened (a mined file moved to another machine, a deleted clone):
    // one line that says what to give, not a list of skipped records.
    throw new IssuelocError(`${options.dataset}: ${skipped[0].reason}: give --repo <path> (the repository it was mined from)`);
  }
  const issues: PreparedIssue[] = [];
  const seen = new Set<string>();
  let done = skipped.length;
  for (const [path, recs] of groups) {
    const repo = await GitRepo.open(path);
    try {
      const base = done;
      const p = await prepareIssues(recs, repo, {
        repoPath: path, includeTests: options.includeTests, issueText: options.issueText,
        onProgress: (d) => options.onProgress?.('prepare', base + d, records.length),
      }, seen);
      issues.push(...p.issues);
      skipped.push(...p.skipped);
      done += recs.length;
    } finally {
      await repo.close();
    }
  }
  return { issues, skipped };
}

function labelSplit(issues: PreparedIssue[], mode: SplitMode): {
  issues: (PreparedIssue & { split: SplitLabel })[];
  boundary?: EvalRun['boundary'];
} {
  if (mode === 'all') return { issues: issues.map((i) => ({ ...i, split: 'all' as const })) };
  const s = temporalSplit(issues, (i) => i.id, (i) => i.firstCommitTime);
  return {
    issues: [...s.validation.map((i) => ({ ...i, split: 'validation' as const })), ...s.test.map((i) => ({ ...i, split: 'test' as const }))],
    boundary: { ...s.boundary, tiesAcrossBoundary: s.tiesAcrossBoundary },
  };
}

export type Collected = { timings: LoopTimings; stats: Record<string, Record<string, number>> };

async function evaluateInThread(settings: LoopSettings, tasks: IssueTask[], onOutcome: (o: IssueOutcome) => void): Promise<Collected> {
  const ev = new IssueEvaluator(settings);
  try {
    for (const t of tasks) onOutcome(await ev.evaluate(t));
    return { timings: ev.timings, stats: await ev.stats() };
  } finally {
    await ev.close();
  }
}

async function evaluateInWorkers(
  settings: LoopSettings, tasks: IssueTask[], workers: number, onOutcome: (o: IssueOutcome) => void,
): Promise<Collected> {
  const slices: IssueTask[][] = [];
  for (let w = 0; w < workers; w++) slices.push(sliceOf(tasks, w, workers));
  const position = new Map(tasks.map((t, i) => [t.id, i]));
  const add = inWorkOrder(onOutcome);
  const started: Worker[] = [];
  const stopAll = () => {
    for (const w of started) void w.terminate();
  };
  const results = await Promise.all(slices.map((slice) => new Promise<Collected>((resolve, reject) => {
    const worker = new Worker(new URL('./eval-worker.js', import.meta.url), { workerData: { settings, tasks: slice } });
    started.push(worker);
    let done: Collected | undefined;
    // bad input found in a worker keeps its exit code; anything else is an internal failure (3)
    const fail = (message: string, exitCode = 3) => {
      stopAll();
      reject(new IssuelocError(`evaluation worker failed: ${message}`, exitCode));
    };
    worker.on('message', (m: { kind: string; outcome?: IssueOutcome; timings?: LoopTimings; stats?: Collected['stats']; message?: string; exitCode?: number }) => {
      if (m.kind === 'outcome') {
        const o = m.outcome as IssueOutcome;
        add(position.get(o.id) as number, o);
      }
      else if (m.kind === 'done') done = { timings: m.timings as LoopTimings, stats: m.stats ?? {} };
      else if (m.kind === 'error') fail(m.message ?? 'unknown error', m.exitCode);
    });
    worker.on('error', (e) => fail(e.message));
    worker.on('exit', (code) => {
      if (done) resolve(done);
      else fail(`stopped (exit code ${code}) before finishing`);
    });
  })));
  return mergeCollected(results);
}

/** Sums timings and counters of several threads (or of the shards of a run). */
export function mergeCollected(parts: readonly Collected[]): Collected {
  const timings: LoopTimings = { listMillis: 0, readMillis: 0, tokenizeMillis: 0, indexMillis: {}, scoreMillis: {} };
  const stats: Collected['stats'] = {};
  for (const p of parts) {
    timings.listMillis += p.timings.listMillis;
    timings.readMillis += p.timings.readMillis;
    timings.tokenizeMillis += p.timings.tokenizeMillis;
    for (const [k, v] of Object.entries(p.timings.indexMillis)) timings.indexMillis[k] = (timings.indexMillis[k] ?? 0) + v;
    for (const [k, v] of Object.entries(p.timings.scoreMillis)) timings.scoreMillis[k] = (timings.scoreMillis[k] ?? 0) + v;
    for (const [name, counters] of Object.entries(p.stats)) {
      const into = (stats[name] ??= {});
      for (const [k, v] of Object.entries(counters)) into[k] = (into[k] ?? 0) + v;
    }
  }
  return { timings, stats };
}
