/**
 * Per-query ranking metrics: P@k, H@k, R@k, R-Precision, reciprocal rank, average precision and
 * LocAgent/SweRank Acc@k, plus their means over queries.
 *
 * Inputs everywhere: `ranked` = candidate ids best first (no duplicates), `positives` = the ids an
 * issue needed changed (its qrels). Ranks are 1-based. A query without positives has no defined
 * value for any metric: its values are `null` (never NaN), and {@link aggregate} leaves it out of
 * the mean and counts it in `nUndefined`.
 *
 * Denominators use the whole positive set as given, including positives that are not in `ranked`
 * (as trec_eval does with the qrels): filter positives to the candidate set first if a positive
 * that cannot be retrieved should not count.
 *
 * Equations follow "Gotta catch 'em all! Towards File Localisation from Issues at Large"
 * (Maarleveld, Guo, Feitosa, arXiv 2507.18319), Eq. 7–10 (the metric definitions of its
 * evaluation section; which number names which metric is not re-checked here). Its replication
 * package (gml4tdm/replication-package-issue-linking) computed them with torchmetrics'
 * RetrievalPrecision (non-adaptive k), RetrievalHitRate, RetrievalRecall, RetrievalRPrecision and
 * RetrievalMRR, whose definitions these match; Acc@k follows LocAgent `evaluation/eval_metric.py` `acc_at_k`, as used by SweRank.
 */
import { IssuelocError } from '../errors.js';

/** The columns of the paper's Tables 3 and 4, in its order. */
export const PAPER_METRICS = [
  'P@1', 'P@5', 'P@10', 'H@1', 'H@5', 'H@10', 'R@1', 'R@5', 'R@10', 'RP', 'MRR',
] as const;

/** Paper metrics plus MAP and the Acc@k cut-offs SweRank/LocAgent report (files 1/3/5, modules and functions 5/10, Loc-Bench 10/15). */
export const DEFAULT_METRICS: readonly string[] = [
  ...PAPER_METRICS, 'MAP', 'Acc@1', 'Acc@3', 'Acc@5', 'Acc@10', 'Acc@15',
];

/** Metric values of one query, keyed by metric name; `null` = undefined (no positives). */
export type MetricValues = Record<string, number | null>;

/** A parsed metric name: `P@k`, `H@k`, `R@k`, `Acc@k` carry k; `RP`, `MRR`, `MAP` do not. */
export interface MetricSpec {
  readonly name: string;
  readonly kind: 'P' | 'H' | 'R' | 'Acc' | 'RP' | 'MRR' | 'MAP';
  readonly k?: number;
}

/**
 * Parses a metric name: `P@k`, `H@k`, `R@k`, `Acc@k` (k a positive integer), `RP`, `MRR`, `MAP`.
 * Per query, `MRR` holds the reciprocal rank and `MAP` the average precision: their means over
 * queries are MRR and MAP.
 * @throws IssuelocError for any other name.
 */
export function parseMetric(name: string): MetricSpec {
  if (name === 'RP' || name === 'MRR' || name === 'MAP') return { name, kind: name };
  const m = /^(P|H|R|Acc)@([1-9][0-9]*)$/.exec(name);
  if (!m) {
    throw new IssuelocError(
      `unknown metric '${name}' (expected P@k, H@k, R@k, Acc@k, RP, MRR or MAP)`);
  }
  return { name, kind: m[1] as MetricSpec['kind'], k: Number(m[2]) };
}

/**
 * Where the positives sit in a ranking.
 * @returns sorted 1-based ranks of the positives found in `ranked`, and the number of distinct
 *   positives.
 * @throws IssuelocError when `ranked` holds an id twice (a run must rank each candidate once).
 */
export function positiveRanks(
  ranked: readonly string[], positives: Iterable<string>,
): { ranks: number[]; nPositives: number } {
  const pos = positives instanceof Set ? positives as ReadonlySet<string> : new Set(positives);
  const seen = new Set<string>();
  const ranks: number[] = [];
  for (let i = 0; i < ranked.length; i++) {
    const id = ranked[i];
    if (seen.has(id)) throw new IssuelocError(`ranking lists '${id}' twice (rank ${i + 1})`);
    seen.add(id);
    if (pos.has(id)) ranks.push(i + 1);
  }
  return { ranks, nPositives: pos.size };
}

/** Number of ranks ≤ k in a sorted rank list. */
function hitsAt(ranks: readonly number[], k: number): number {
  let n = 0;
  while (n < ranks.length && ranks[n] <= k) n++;
  return n;
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new IssuelocError(`cut-off k must be a positive integer, got ${k}`);
}

/**
 * Precision at k (paper Eq. 7–10 block; torchmetrics RetrievalPrecision in its replication package): |positives ∩ top k| / k. The divisor is k even when fewer than k
 * candidates exist (torchmetrics RetrievalPrecision, adaptive_k = false).
 * @returns a value in [0, 1], or null without positives.
 */
export function precisionAtK(ranked: readonly string[], positives: Iterable<string>, k: number): number | null {
  checkK(k);
  const { ranks, nPositives } = positiveRanks(ranked, positives);
  return nPositives === 0 ? null : hitsAt(ranks, k) / k;
}

/**
 * Hit at k (paper Eq. 7–10 block; RetrievalHitRate): 1 when at least one positive is in the top k, else 0.
 * @returns 0 or 1, or null without positives.
 */
export function hitAtK(ranked: readonly string[], positives: Iterable<string>, k: number): number | null {
  checkK(k);
  const { ranks, nPositives } = positiveRanks(ranked, positives);
  return nPositives === 0 ? null : (hitsAt(ranks, k) > 0 ? 1 : 0);
}

/**
 * Recall at k (paper Eq. 7–10 block; RetrievalRecall): |positives ∩ top k| / |positives|.
 * @returns a value in [0, 1], or null without positives.
 */
export function recallAtK(ranked: readonly string[], positives: Iterable<string>, k: number): number | null {
  checkK(k);
  const { ranks, nPositives } = positiveRanks(ranked, positives);
  return nPositives === 0 ? null : hitsAt(ranks, k) / nPositives;
}

/**
 * R-Precision (paper Eq. 7–10 block; RetrievalRPrecision), with R = |positives|: |positives ∩ top R| / R.
 * @returns a value in [0, 1], or null without positives.
 */
export function rPrecision(ranked: readonly string[], positives: Iterable<string>): number | null {
  const { ranks, nPositives } = positiveRanks(ranked, positives);
  return nPositives === 0 ? null : hitsAt(ranks, nPositives) / nPositives;
}

/**
 * Reciprocal rank: 1 / rank of the first positive, 0 when no positive is ranked. Its mean over
 * queries is MRR (paper Eq. 7–10 block; RetrievalMRR; Voorhees 1999).
 * @returns a value in [0, 1], or null without positives.
 */
export function reciprocalRank(ranked: readonly string[], positives: Iterable<string>): number | null {
  const { ranks, nPositives } = positiveRanks(ranked, positives);
  if (nPositives === 0) return null;
  return ranks.length > 0 ? 1 / ranks[0] : 0;
}

/**
 * Average precision: (1/|positives|) Σ over ranked positives of (positives in top r) / r, r the
 * positive's rank; unranked positives add 0 (TREC `map`). Its mean over queries is MAP.
 * @returns a value in [0, 1], or null without positives.
 */
export function averagePrecision(ranked: readonly string[], positives: Iterable<string>): number | null {
  const { ranks, nPositives } = positiveRanks(ranked, positives);
  if (nPositives === 0) return null;
  let sum = 0;
  for (let i = 0; i < ranks.length; i++) sum += (i + 1) / ranks[i];
  return sum / nPositives;
}

/**
 * Acc@k (LocAgent `eval_metric.acc_at_k`, reported by SweRank): 1 when all positives are in the
 * top k, or, when there are more positives than k, when the top k holds only positives; else 0.
 * Equivalently |positives ∩ top k| = min(|positives|, k).
 * @returns 0 or 1, or null without positives.
 */
export function accAtK(ranked: readonly string[], positives: Iterable<string>, k: number): number | null {
  checkK(k);
  const { ranks, nPositives } = positiveRanks(ranked, positives);
  return nPositives === 0 ? null : (hitsAt(ranks, k) === Math.min(nPositives, k) ? 1 : 0);
}

/** One query's evaluation: the metric values and where the positives were found. */
export interface QueryEvaluation {
  /** Distinct positives of the query. */
  readonly nPositives: number;
  /** Sorted 1-based ranks of the positives present in the ranking. */
  readonly positiveRanks: readonly number[];
  /** Metric name → value; all null when the query has no positives. */
  readonly values: MetricValues;
}

/**
 * Computes several metrics of one query in one pass over the ranking (same definitions as the
 * single-metric functions above).
 * @param metrics metric names, see {@link parseMetric}; default {@link DEFAULT_METRICS}.
 * @throws IssuelocError on an unknown metric name or an id ranked twice.
 */
export function evaluateQuery(
  ranked: readonly string[], positives: Iterable<string>, metrics: readonly string[] = DEFAULT_METRICS,
): QueryEvaluation {
  const specs = metrics.map(parseMetric);
  const { ranks, nPositives } = positiveRanks(ranked, positives);
  const values: MetricValues = {};
  for (const s of specs) values[s.name] = nPositives === 0 ? null : metricValue(s, ranks, nPositives);
  return { nPositives, positiveRanks: ranks, values };
}

function metricValue(s: MetricSpec, ranks: readonly number[], nPos: number): number {
  const k = s.k ?? 0;
  switch (s.kind) {
    case 'P': return hitsAt(ranks, k) / k;
    case 'H': return hitsAt(ranks, k) > 0 ? 1 : 0;
    case 'R': return hitsAt(ranks, k) / nPos;
    case 'Acc': return hitsAt(ranks, k) === Math.min(nPos, k) ? 1 : 0;
    case 'RP': return hitsAt(ranks, nPos) / nPos;
    case 'MRR': return ranks.length > 0 ? 1 / ranks[0] : 0;
    case 'MAP': {
      let sum = 0;
      for (let i = 0; i < ranks.length; i++) sum += (i + 1) / ranks[i];
      return sum / nPos;
    }
  }
}

/** Mean of one metric over queries. */
export interface MetricAggregate {
  /** Mean over the queries with a defined value; null when there is none. */
  readonly mean: number | null;
  /** Queries with a defined value (the mean's denominator). */
  readonly n: number;
  /** Queries whose value is undefined (null: no positives) and were left out. */
  readonly nUndefined: number;
}

/**
 * Means of per-query metric values (macro average over queries: MRR, MAP, mean P@k, …).
 * Null values are left out and counted in `nUndefined`.
 * @param perQuery one {@link MetricValues} per query.
 * @param metrics which metrics to aggregate; default: every key seen, in first-seen order. A
 *   metric a query lacks counts as undefined for that query.
 * @throws IssuelocError when a value is NaN or infinite.
 */
export function aggregate(
  perQuery: readonly Readonly<MetricValues>[], metrics?: readonly string[],
): Record<string, MetricAggregate> {
  const names = metrics ?? [...new Set(perQuery.flatMap((q) => Object.keys(q)))];
  const out: Record<string, MetricAggregate> = {};
  for (const name of names) {
    let sum = 0;
    let n = 0;
    let nUndefined = 0;
    for (let i = 0; i < perQuery.length; i++) {
      const v = perQuery[i][name];
      if (v === null || v === undefined) { nUndefined++; continue; }
      if (!Number.isFinite(v)) throw new IssuelocError(`metric ${name} of query #${i + 1} is ${v}, expected a finite number or null`);
      sum += v;
      n++;
    }
    out[name] = { mean: n > 0 ? sum / n : null, n, nUndefined };
  }
  return out;
}
