/**
 * What a learned ranker is trained to maximise: ranking metrics of the reordered candidates at
 * the function level and, by roll-up (first occurrence, the SweRank protocol), at the module and
 * file levels. Definitions are those of src/metrics/ranking-metrics.ts (Acc@k of LocAgent, AP, RR), computed
 * here from integer labels so that one evaluation of all training queries costs microseconds per
 * query.
 */
import { IssuelocError } from '../errors.js';
import { parseMetric, type MetricSpec } from '../metrics/ranking-metrics.js';

export const LEVELS = ['function', 'module', 'file'] as const;
export type Level = (typeof LEVELS)[number];

/** One labelled query: its candidates' features and which candidates are gold. */
export interface TrainingQuery {
  id: string;
  repo: string;
  /** Number of candidates. */
  n: number;
  /** n × FEATURES.length, row-major. */
  features: Float32Array;
  ids: string[];
  paths: string[];
  modules: string[];
  gold: Record<Level, string[]>;
  /**
   * The best files of the pipeline that hold no candidate, best first, each with its pipeline
   * score divided by the best candidate's (the scale of the `pipeline` feature); the file
   * ranking places them at their lexical rank (`rankLevels`). Absent: none.
   */
  otherFiles?: { path: string; score: number }[];
}

/** A training query with its labels as integers, for fast metric evaluation. */
export interface LabelledQuery {
  query: TrainingQuery;
  /** Per level: the group of each candidate (function: itself; module/file: first-seen index). */
  group: Record<Level, Int32Array>;
  /** Per level: 1 when group g is gold. */
  goldGroup: Record<Level, Uint8Array>;
  /** Per level: number of gold items, including those outside the candidates. */
  nGold: Record<Level, number>;
}

/** One term of an objective: a metric at a level, with a weight. */
export interface ObjectiveTerm {
  level: Level;
  metric: MetricSpec;
  weight: number;
}

/** The default objective: MAP at the file and the function level, equally weighted. */
export const DEFAULT_OBJECTIVE = 'file:MAP,function:MAP';

/**
 * Parses an objective such as `file:MAP,function:MAP` or `file:Acc@5=2,function:Acc@10`
 * (`level:metric[=weight]`, metrics as {@link parseMetric}; MAP and MRR are per query AP and RR).
 * @throws IssuelocError for an unknown level or metric or a bad weight.
 */
export function parseObjective(spec: string): ObjectiveTerm[] {
  const terms = spec.split(',').map((s) => s.trim()).filter(Boolean).map((part) => {
    const m = /^(\w+):([^=]+)(?:=(.+))?$/.exec(part);
    if (!m) throw new IssuelocError(`objective term '${part}' is not level:metric[=weight]`);
    const level = m[1] as Level;
    if (!LEVELS.includes(level)) throw new IssuelocError(`objective term '${part}': unknown level '${m[1]}' (levels: ${LEVELS.join(', ')})`);
    const weight = m[3] === undefined ? 1 : Number(m[3]);
    if (!Number.isFinite(weight) || weight <= 0) throw new IssuelocError(`objective term '${part}': weight must be a positive number`);
    return { level, metric: parseMetric(m[2]), weight };
  });
  if (terms.length === 0) throw new IssuelocError('objective is empty');
  return terms;
}

/** Integer labels of a training query. */
export function labelQuery(query: TrainingQuery): LabelledQuery {
  const keys: Record<Level, string[]> = { function: query.ids, module: query.modules, file: query.paths };
  const group = {} as Record<Level, Int32Array>;
  const goldGroup = {} as Record<Level, Uint8Array>;
  const nGold = {} as Record<Level, number>;
  for (const level of LEVELS) {
    const gold = new Set(query.gold[level]);
    const ids = new Map<string, number>();
    const g = new Int32Array(query.n);
    const flags: number[] = [];
    keys[level].forEach((key, i) => {
      let id = ids.get(key);
      if (id === undefined) { id = ids.size; ids.set(key, id); flags.push(gold.has(key) ? 1 : 0); }
      g[i] = id;
    });
    group[level] = g;
    goldGroup[level] = Uint8Array.from(flags);
    nGold[level] = gold.size;
  }
  return { query, group, goldGroup, nGold };
}

/**
 * 1-based ranks of the gold items of `level` when candidates come in `order` (items ranked by
 * the first occurrence of their group), ascending.
 */
export function goldRanks(q: LabelledQuery, order: Int32Array, level: Level): number[] {
  const g = q.group[level];
  const goldGroup = q.goldGroup[level];
  const seen = new Uint8Array(goldGroup.length);
  const ranks: number[] = [];
  let rank = 0;
  for (let k = 0; k < order.length; k++) {
    const id = g[order[k]];
    if (seen[id]) continue;
    seen[id] = 1;
    rank++;
    if (goldGroup[id]) ranks.push(rank);
  }
  return ranks;
}

/**
 * Value of one metric from sorted gold ranks and the number of gold items (the definitions of
 * src/metrics/ranking-metrics.ts; checked against `evaluateQuery` in test/ltr/objective.test.ts).
 * @returns null when there is no gold item.
 */
export function metricFromRanks(spec: MetricSpec, ranks: readonly number[], nGold: number): number | null {
  if (nGold === 0) return null;
  const k = spec.k ?? 0;
  let within = 0;
  while (within < ranks.length && ranks[within] <= (spec.kind === 'RP' ? nGold : k)) within++;
  switch (spec.kind) {
    case 'P': return within / k;
    case 'H': return within > 0 ? 1 : 0;
    case 'R': return within / nGold;
    case 'Acc': return within === Math.min(nGold, k) ? 1 : 0;
    case 'RP': return within / nGold;
    case 'MRR': return ranks.length > 0 ? 1 / ranks[0] : 0;
    case 'MAP': {
      let sum = 0;
      for (let i = 0; i < ranks.length; i++) sum += (i + 1) / ranks[i];
      return sum / nGold;
    }
  }
}

/**
 * The same ranks as {@link goldRanks} for the order that sorts candidates by `scores` (best
 * first, ties by candidate index), without sorting: an item's rank is 1 + the number of items
 * whose best candidate comes before its own. O(n + items × gold items).
 */
export function goldRanksByScore(q: LabelledQuery, scores: Float64Array, level: Level): number[] {
  const g = q.group[level];
  const goldGroup = q.goldGroup[level];
  const G = goldGroup.length;
  const best = new Float64Array(G).fill(-Infinity);
  const bestAt = new Int32Array(G).fill(-1);
  for (let i = 0; i < g.length; i++) {
    const id = g[i];
    if (scores[i] > best[id] || bestAt[id] < 0) { best[id] = scores[i]; bestAt[id] = i; }
  }
  const ranks: number[] = [];
  for (let a = 0; a < G; a++) {
    if (!goldGroup[a]) continue;
    let rank = 1;
    for (let b = 0; b < G; b++) {
      if (best[b] > best[a] || (best[b] === best[a] && bestAt[b] < bestAt[a])) rank++;
    }
    ranks.push(rank);
  }
  return ranks.sort((x, y) => x - y);
}

/** Weighted objective of one query under candidate `scores`; levels without gold add 0. */
export function queryObjective(q: LabelledQuery, scores: Float64Array, objective: readonly ObjectiveTerm[]): number {
  let total = 0;
  const ranksOf: Partial<Record<Level, number[]>> = {};
  for (const t of objective) {
    const ranks = (ranksOf[t.level] ??= goldRanksByScore(q, scores, t.level));
    total += t.weight * (metricFromRanks(t.metric, ranks, q.nGold[t.level]) ?? 0);
  }
  return total;
}

/** Ranked ids per level when the candidates of `q` come in `order` (first occurrence kept). */
export function rankedIds(q: Pick<TrainingQuery, 'ids' | 'paths' | 'modules'>, order: Int32Array): Record<Level, string[]> {
  const out: Record<Level, string[]> = { function: [], module: [], file: [] };
  const seen: Record<Level, Set<string>> = { function: new Set(), module: new Set(), file: new Set() };
  for (const i of order) {
    const keys: Record<Level, string> = { function: q.ids[i], module: q.modules[i], file: q.paths[i] };
    for (const level of LEVELS) {
      if (seen[level].has(keys[level])) continue;
      seen[level].add(keys[level]);
      out[level].push(keys[level]);
    }
  }
  return out;
}
