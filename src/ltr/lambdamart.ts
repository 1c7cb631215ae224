/**
 * LambdaMART (Burges 2010, "From RankNet to LambdaRank to LambdaMART: An Overview", Microsoft
 * Research TR-2010-82): gradient-boosted regression trees (MART, Friedman 2001) fitted to
 * LambdaRank's gradients. Per query and per pair (i, j) of a gold candidate i and a non-gold
 * candidate j, under the current scores s:
 *
 *   ρ_ij = 1 / (1 + e^{σ(s_i − s_j)})                       (§1, Eq. 3 with σ = 1)
 *   λ_ij = σ · |ΔNDCG_ij| · ρ_ij                            (§4, Eq. 6: |ΔNDCG| replaces the
 *                                                            cross-entropy gradient's unit weight)
 *   λ_i += λ_ij,  λ_j −= λ_ij                               (§4, Eq. 7; λ points up the ranking)
 *   w_i, w_j += σ² · |ΔNDCG_ij| · ρ_ij (1 − ρ_ij)            (§7, the second derivative)
 *
 * |ΔNDCG_ij| = |1/log₂(2 + r_i) − 1/log₂(2 + r_j)| / maxDCG is the change of NDCG when i and j
 * (0-based ranks r) swap, for binary gains (2^1 − 1 = 1 for gold, 0 otherwise); maxDCG is the DCG
 * of the query's gold candidates ranked first. Each tree is fitted to λ with Newton-step leaves
 * γ = Σλ / (Σw + λ₂) (§7, Algorithm 1, damped by λ₂ as in src/ltr/tree-growth.ts), and the scores
 * move by ν·γ. The first score is a linear function of the features (default: the `pipeline`
 * feature alone), so boosting starts from the lexical pipeline's ranking.
 *
 * Levels: the function level is trained with "candidate is a gold function"; files and modules
 * with "candidate's file (module) is gold", as their rankings are the roll-up of the candidates
 * by first occurrence (src/ltr/objective.ts).
 */
import { IssuelocError } from '../errors.js';
import { binFeatures } from './feature-bins.js';
import { FEATURES, type FeatureName } from './features/registry.js';
import { scoreRows } from './model.js';
import type { Level, LabelledQuery } from './objective.js';
import { TreeEnsemble, type RegressionTree } from './regression-tree.js';
import { growTree } from './tree-growth.js';

/** Options of {@link fitLambdaMart}. */
export interface LambdaMartOptions {
  /** Boosting rounds: trees (default 100). */
  trees?: number;
  /** Depth of each tree (default 2). */
  maxDepth?: number;
  /** Shrinkage ν (default 0.1). */
  learningRate?: number;
  /** Fewest candidates per leaf (default 20). */
  minLeaf?: number;
  /** λ₂ added to a leaf's Σw (default 1). */
  l2?: number;
  /** Quantile bins per feature (default 32, at most 256). */
  maxBins?: number;
  /** Linear first score (default the pipeline score alone, { pipeline: 1 }; 0 when `features` leaves `pipeline` out). */
  init?: Partial<Record<FeatureName, number>>;
  /** Features the trees may split on (default all). */
  features?: readonly FeatureName[];
  /**
   * Scores boosting starts from, for the rows of the stacked feature matrix (rows × FEATURES,
   * row-major), instead of `init` · x: another model's scores, when trees are added to it
   * (per-repository adaptation, src/ltr/adapt.ts). `init` is still returned as given.
   */
  start?: (x: Float32Array, rows: number) => Float64Array;
  /**
   * A weight per query (in the order of `queries`, each > 0; default 1): its LambdaRank gradients
   * and second derivatives are multiplied by it, so a query of weight 2 counts as two copies
   * (src/ltr/query-weights.ts: each language or repository weighing the same).
   */
  queryWeights?: readonly number[];
}

/**
 * Defaults of {@link LambdaMartOptions}: the best setting of leave-repositories-out
 * cross-validation on Loc-Bench (bench/ltr-folds.ts, 5 folds; rate 0.1 and leaf 20 from a grid
 * over trees 100–300, depth 2–3, rate 0.05–0.1, leaf 20–100 on 295 issues outside SWE-bench
 * Lite's repositories; 100 trees of depth 2 from trees 100–300 × depth 2–3 on 389 such issues).
 */
export const LAMBDAMART_DEFAULTS = { trees: 100, maxDepth: 2, learningRate: 0.1, minLeaf: 20, l2: 1, maxBins: 32 } as const;

/** A fitted LambdaMART model of one level: score = init · x + ν Σ_t tree_t(x). */
export interface LambdaMartFit {
  /** Linear first score, in FEATURES order. */
  init: Float64Array;
  ensemble: TreeEnsemble;
  /** Mean NDCG of the training queries under the first score and after the last tree. */
  initialNdcg: number;
  ndcg: number;
}

/** Per candidate of a labelled query: 1 when it is gold at `level` (its file or module, for those levels). */
export function levelLabels(q: LabelledQuery, level: Level): Uint8Array {
  const group = q.group[level];
  const gold = q.goldGroup[level];
  return Uint8Array.from(group, (g) => gold[g]);
}

/**
 * Fits LambdaMART at one level. Queries whose candidates are all gold or all not gold at that
 * level have no pair and are left out. Deterministic: no sampling, ties broken by row order.
 * Cost: one binning of the feature matrix, then per tree O(pairs) for the gradients and
 * O(rows × features) per tree level for the histograms.
 * @throws IssuelocError when no query has both a gold and a non-gold candidate, or an option is out of range.
 */
export function fitLambdaMart(queries: readonly LabelledQuery[], level: Level, opts: LambdaMartOptions = {}): LambdaMartFit {
  const o = lambdaMartSettings(opts);
  const F = FEATURES.length;
  if (opts.queryWeights && (opts.queryWeights.length !== queries.length || opts.queryWeights.some((w) => !(w > 0) || !Number.isFinite(w)))) {
    throw new IssuelocError(`query weights: expected ${queries.length} positive numbers, got ${opts.queryWeights.length}`);
  }
  const used = queries.map((q, k) => ({ q, labels: levelLabels(q, level), w: opts.queryWeights?.[k] ?? 1 })).filter(({ labels }) => {
    let gold = 0;
    for (const y of labels) gold += y;
    return gold > 0 && gold < labels.length;
  });
  if (used.length === 0) throw new IssuelocError(`no training query has both gold and other candidates at the ${level} level`);

  const offsets = new Int32Array(used.length + 1);
  used.forEach(({ q }, k) => { offsets[k + 1] = offsets[k] + q.query.n; });
  const rows = offsets[used.length];
  const x = new Float32Array(rows * F);
  const labels = new Uint8Array(rows);
  used.forEach(({ q, labels: y }, k) => { x.set(q.query.features, offsets[k] * F); labels.set(y, offsets[k]); });

  const init = new Float64Array(F);
  // boosting starts from the pipeline score, unless the trees may not use it
  const start = opts.init ?? (!opts.features || opts.features.includes('pipeline') ? { pipeline: 1 } : {});
  for (const [name, w] of Object.entries(start)) init[FEATURES.indexOf(name as FeatureName)] = w ?? 0;
  const scores = opts.start ? opts.start(x, rows) : scoreRows(x, rows, init);
  const binned = binFeatures(x, rows, F, o.maxBins);
  const allowed = new Uint8Array(F).fill(opts.features ? 0 : 1);
  for (const f of opts.features ?? []) allowed[FEATURES.indexOf(f)] = 1;

  const lambda = new Float64Array(rows);
  const weight = new Float64Array(rows);
  const step = new Float64Array(rows);
  const orders = used.map(({ q }) => Int32Array.from({ length: q.query.n }, (_, i) => i));
  const gradients = (): number => {
    let ndcg = 0;
    for (let k = 0; k < used.length; k++) {
      const a = offsets[k];
      const b = offsets[k + 1];
      ndcg += lambdaGradients(scores.subarray(a, b), labels.subarray(a, b), orders[k], lambda.subarray(a, b), weight.subarray(a, b));
      const w = used[k].w;
      if (w !== 1) for (let i = a; i < b; i++) { lambda[i] *= w; weight[i] *= w; }
    }
    return ndcg / used.length;
  };

  const initialNdcg = gradients();
  let ndcg = initialNdcg;
  const trees: RegressionTree[] = [];
  for (let t = 0; t < o.trees; t++) {
    const tree = growTree(binned, lambda, weight, { maxDepth: o.maxDepth, minLeaf: o.minLeaf, l2: o.l2, allowed }, step);
    trees.push(tree);
    for (let i = 0; i < rows; i++) scores[i] += o.learningRate * step[i];
    ndcg = gradients();
  }
  return { init, ensemble: new TreeEnsemble(o.learningRate, trees), initialNdcg, ndcg };
}

/**
 * LambdaRank gradients of one query (Burges 2010, §4 Eq. 6–7 and §7; see the module comment):
 * fills `lambda` (direction of each score's move) and `weight` (Σ of the second derivatives).
 *
 * @param scores current scores of the query's candidates.
 * @param labels 1 for a gold candidate.
 * @param order candidate indices; re-sorted in place by score (best first, ties by index) with
 *   insertion sort, cheap as one tree moves few candidates past each other.
 * @returns the query's NDCG under `scores` (binary gains; 0 without gold).
 */
export function lambdaGradients(scores: Float64Array, labels: Uint8Array, order: Int32Array, lambda: Float64Array, weight: Float64Array): number {
  const n = scores.length;
  for (let k = 1; k < n; k++) {
    const i = order[k];
    let m = k - 1;
    while (m >= 0 && (scores[order[m]] < scores[i] || (scores[order[m]] === scores[i] && order[m] > i))) {
      order[m + 1] = order[m];
      m--;
    }
    order[m + 1] = i;
  }
  const discount = new Float64Array(n);
  let gold = 0;
  let dcg = 0;
  for (let r = 0; r < n; r++) {
    const i = order[r];
    discount[i] = 1 / Math.log2(r + 2);
    if (labels[i]) { gold++; dcg += discount[i]; }
  }
  lambda.fill(0);
  weight.fill(0);
  if (gold === 0 || gold === n) return gold === 0 ? 0 : 1;
  let maxDcg = 0;
  for (let r = 0; r < gold; r++) maxDcg += 1 / Math.log2(r + 2);
  // ρ_ij = 1 / (1 + e^{s_i − top} · e^{top − s_j}): one exp per candidate instead of per pair
  const invMax = 1 / maxDcg;
  const top = scores[order[0]];
  const others = new Int32Array(n - gold);
  const otherExp = new Float64Array(n - gold);
  const otherDiscount = new Float64Array(n - gold);
  const otherLambda = new Float64Array(n - gold);
  const otherWeight = new Float64Array(n - gold);
  for (let j = 0, m = 0; j < n; j++) {
    if (labels[j]) continue;
    others[m] = j;
    otherExp[m] = Math.exp(top - scores[j]);
    otherDiscount[m++] = discount[j];
  }
  for (let i = 0; i < n; i++) {
    if (!labels[i]) continue;
    const ei = Math.exp(scores[i] - top);
    const di = discount[i];
    let li = 0;
    let wi = 0;
    for (let m = 0; m < others.length; m++) {
      const delta = Math.abs(di - otherDiscount[m]) * invMax;
      const rho = 1 / (1 + ei * otherExp[m]);
      const l = delta * rho;
      const w = l * (1 - rho);
      li += l;
      wi += w;
      otherLambda[m] -= l;
      otherWeight[m] += w;
    }
    lambda[i] = li;
    weight[i] = wi;
  }
  for (let m = 0; m < others.length; m++) {
    lambda[others[m]] = otherLambda[m];
    weight[others[m]] = otherWeight[m];
  }
  return dcg / maxDcg;
}

/**
 * The numeric settings of LambdaMART options: given values, else {@link LAMBDAMART_DEFAULTS}.
 * @throws IssuelocError for a value out of range (trees < 0, depth < 1, learning rate ≤ 0,
 *   min leaf < 1, λ₂ < 0; bins are checked by `binFeatures`).
 */
export function lambdaMartSettings(opts: LambdaMartOptions): { -readonly [K in keyof typeof LAMBDAMART_DEFAULTS]: number } {
  const o = { ...LAMBDAMART_DEFAULTS };
  for (const k of Object.keys(o) as (keyof typeof o)[]) if (opts[k] !== undefined) (o as Record<string, number>)[k] = opts[k];
  if (!Number.isInteger(o.trees) || o.trees < 0) throw new IssuelocError(`trees must be a whole number ≥ 0, got ${o.trees}`);
  if (!Number.isInteger(o.maxDepth) || o.maxDepth < 1) throw new IssuelocError(`tree depth must be a whole number ≥ 1, got ${o.maxDepth}`);
  if (!(o.learningRate > 0) || !Number.isFinite(o.learningRate)) throw new IssuelocError(`learning rate must be a positive number, got ${o.learningRate}`);
  if (!Number.isInteger(o.minLeaf) || o.minLeaf < 1) throw new IssuelocError(`min leaf must be a whole number ≥ 1, got ${o.minLeaf}`);
  if (!(o.l2 >= 0)) throw new IssuelocError(`l2 must be a number ≥ 0, got ${o.l2}`);
  return o;
}
