/**
 * The results folder of an evaluation run, written atomically file by file, and read back by
 * `issueloc stats` and `issueloc report`:
 *
 * - `summary.json`: settings, counts, split boundary, timings, retriever counters;
 * - `per-issue.jsonl`: one {@link IssueResultRow} a line (an issue under one retriever);
 * - `skipped.jsonl`: dataset records not evaluated, with the reason;
 * - `run.<retriever>.txt`: TREC runs (top `runDepth` files per issue); `qrels.txt` (all issues),
 *   and `qrels.validation.txt` / `qrels.test.txt` for a temporal split, so that
 *   `trec_eval -m P.1,5,10 -m recip_rank -m Rprec qrels.test.txt run.bm25f.txt` re-checks a table;
 * - `table3.<split>.{md,csv,json}`: the paper's Table 3 shape (a row per retriever, columns
 *   P@k, H@k, R@k, RP, MRR), and `metrics.<split>.*` with MAP and Acc@k added.
 *
 * Runs are streamed to temporary files while the evaluation goes and renamed at the end, so a
 * failed run leaves no half-written run file behind.
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { makeDirs } from '../util/make-dirs.js';
import type { IssueOutcome } from './issue-evaluator.js';
import { aggregate, DEFAULT_METRICS, PAPER_METRICS, type MetricAggregate } from '../metrics/ranking-metrics.js';
import type { EvalRun, IssueResultRow, SplitLabel } from './run-eval.js';
import { metricTable, writeTable, type MetricTable } from './tables.js';
import { formatQrels, formatRun } from './trec.js';

/** Names of the paper's retrievers as its tables print them. */
export const RETRIEVER_LABELS: Readonly<Record<string, string>> = {
  tfidf: 'TF-IDF', rvsm: 'rVSM', lsi500: 'LSI-500', lsi1000: 'LSI-1000', bm25f: 'BM25F+',
};

/** The table label of a retriever name (`lsi250` → `LSI-250`). */
export function retrieverLabel(name: string): string {
  const m = /^lsi(\d+)$/.exec(name);
  return RETRIEVER_LABELS[name] ?? (m ? `LSI-${m[1]}` : name);
}

/** Streams TREC run lines to temporary files (see the module comment). */
export class RunFileWriter {
  private readonly fds = new Map<string, { fd: number; tmp: string; final: string }>();
  private closed = false;

  constructor(readonly dir: string, retrievers: readonly string[]) {
    makeDirs(dir);
    for (const r of retrievers) {
      const final = join(dir, `run.${r}.txt`);
      const tmp = `${final}.tmp-${process.pid}`;
      this.fds.set(r, { fd: openSync(tmp, 'w'), tmp, final });
    }
  }

  /** Appends one issue's rankings (qid = issue id, tag = retriever name). */
  add(outcome: IssueOutcome): void {
    for (const r of outcome.results) {
      const f = this.fds.get(r.retriever);
      if (!f || r.ranking.length === 0) continue;
      writeSync(f.fd, formatRun([{ qid: outcome.id, ranking: r.ranking }], r.retriever).text);
    }
  }

  /** Closes and renames every run file into place. */
  commit(): string[] {
    this.close();
    for (const f of this.fds.values()) renameSync(f.tmp, f.final);
    return [...this.fds.values()].map((f) => f.final);
  }

  /** Closes and removes the temporary files. */
  abort(): void {
    this.close();
    for (const f of this.fds.values()) rmSync(f.tmp, { force: true });
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const f of this.fds.values()) closeSync(f.fd);
  }
}

/** What `summary.json` holds. */
export interface RunSummary {
  readonly tool: 'issueloc eval';
  /** Project name (the results folder's name unless given). */
  readonly name: string;
  readonly dataset: string;
  readonly repo: string;
  readonly command?: string;
  readonly settings: Record<string, unknown>;
  readonly retrievers: readonly string[];
  readonly split: string;
  readonly counts: EvalRun['counts'];
  readonly boundary?: EvalRun['boundary'];
  readonly timings: EvalRun['timings'] & { writeMillis?: number };
  readonly stats: EvalRun['stats'];
  readonly workers: number;
  /**
   * Set when the results are merged from some of the shards of a run only (`batch collect
   * --partial`): how many shards the run has, which are missing, and the issues of the whole run
   * per split label. Table titles then say `n of N issues`.
   */
  readonly partial?: { readonly shards: number; readonly missingShards: readonly number[]; readonly issues: Readonly<Record<SplitLabel, number>> };
}

/** What {@link writeResults} reads of a run: its rows, skipped records and issues (id, split label, positives), in work order. */
export type RunResults = Pick<EvalRun, 'rows' | 'skipped'> & { readonly issues: readonly Pick<EvalRun['issues'][number], 'id' | 'split' | 'positives'>[] };

/** The splits a run reports: validation and test for a temporal split, else all. */
export function reportedSplits(rows: readonly IssueResultRow[]): SplitLabel[] {
  const present = new Set(rows.map((r) => r.split));
  return (['test', 'validation', 'all'] as const).filter((s) => present.has(s));
}

/**
 * Aggregates of every retriever on one split.
 * @returns retriever → metric → aggregate (issues without positives are counted as undefined).
 */
export function aggregatesBySplit(
  rows: readonly IssueResultRow[], retrievers: readonly string[], split: SplitLabel, metrics: readonly string[] = DEFAULT_METRICS,
): Map<string, Record<string, MetricAggregate>> {
  const out = new Map<string, Record<string, MetricAggregate>>();
  for (const r of retrievers) out.set(r, aggregate(rows.filter((x) => x.retriever === r && x.split === split).map((x) => x.values), metrics));
  return out;
}

/** A Table 3-shaped table (a row per retriever) of one split. */
export function retrieverTable(
  rows: readonly IssueResultRow[], retrievers: readonly string[], split: SplitLabel, title: string,
  columns: readonly string[] = PAPER_METRICS,
): MetricTable {
  const aggs = aggregatesBySplit(rows, retrievers, split, columns);
  return metricTable(retrievers.map((r) => ({ label: retrieverLabel(r), aggregates: aggs.get(r) ?? {} })), { title, columns, rowHeader: 'Retriever' });
}

/**
 * Writes everything but the runs (which {@link RunFileWriter} streams).
 * @returns the paths written.
 */
export function writeResults(dir: string, summary: RunSummary, run: RunResults): string[] {
  const written: string[] = [];
  const put = (name: string, text: string) => {
    writeFileAtomic(join(dir, name), [text]);
    written.push(join(dir, name));
  };
  put('per-issue.jsonl', run.rows.map((r) => JSON.stringify(r)).join('\n') + (run.rows.length > 0 ? '\n' : ''));
  put('skipped.jsonl', run.skipped.map((s) => JSON.stringify(s)).join('\n') + (run.skipped.length > 0 ? '\n' : ''));
  const qrelsOf = (split?: SplitLabel) => formatQrels(run.issues.filter((i) => !split || i.split === split).map((i) => ({ qid: i.id, positives: i.positives }))).text;
  put('qrels.txt', qrelsOf());
  const splits = reportedSplits(run.rows);
  for (const split of splits) {
    if (split !== 'all') put(`qrels.${split}.txt`, qrelsOf(split));
    const n = run.issues.filter((i) => i.split === split).length;
    const p = summary.partial;
    const covers = p ? `${n} of ${p.issues[split]} issues; ${p.missingShards.length} of ${p.shards} shards missing` : `${n} issues`;
    const title = `${summary.name}: ${split === 'all' ? 'all issues' : `${split} split`} (${covers})`;
    written.push(...writeTable(dir, `table3.${split}`, retrieverTable(run.rows, summary.retrievers, split, title)));
    written.push(...writeTable(dir, `metrics.${split}`, retrieverTable(run.rows, summary.retrievers, split, title, DEFAULT_METRICS)));
  }
  written.push(writeSummary(dir, summary));
  return written;
}

/** Writes `summary.json` (atomically) and returns its path. */
export function writeSummary(dir: string, summary: RunSummary): string {
  const path = join(dir, 'summary.json');
  writeFileAtomic(path, [`${JSON.stringify(summary, null, 2)}\n`]);
  return path;
}

/** A results folder read back. */
export interface ResultsFolder {
  readonly dir: string;
  readonly summary: RunSummary;
  readonly rows: IssueResultRow[];
}

/** Whether `dir` looks like a results folder (has `summary.json` and `per-issue.jsonl`). */
export function isResultsFolder(dir: string): boolean {
  return existsSync(join(dir, 'summary.json')) && existsSync(join(dir, 'per-issue.jsonl'));
}

/**
 * Reads a results folder.
 * @throws IssuelocError naming the file for a missing folder, unreadable or corrupt files.
 */
export function readResults(dir: string): ResultsFolder {
  if (!isResultsFolder(dir)) throw new IssuelocError(`${dir} is not a results folder of issueloc eval (no summary.json and per-issue.jsonl)`);
  let summary: RunSummary;
  try {
    summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary;
  } catch (e) {
    throw new IssuelocError(`${join(dir, 'summary.json')}: ${(e as Error).message}`);
  }
  const rows: IssueResultRow[] = [];
  const file = join(dir, 'per-issue.jsonl');
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const r = JSON.parse(line) as IssueResultRow;
      if (typeof r.issue !== 'string' || typeof r.retriever !== 'string' || typeof r.values !== 'object') throw new Error('not a result row');
      rows.push(r);
    } catch (e) {
      throw new IssuelocError(`${file}:${i + 1}: ${(e as Error).message}`);
    }
  });
  return { dir, summary, rows };
}
