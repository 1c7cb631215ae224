/**
 * Coordinate ascent for linear ranking models (Metzler & Croft 2007, "Linear feature-based models
 * for information retrieval", Information Retrieval 10(3), §4.2): the ranking metric itself is
 * maximised, one weight at a time, by a line search over growing steps in both directions; passes
 * over the features repeat until a pass gains less than a tolerance; random restarts guard
 * against local optima. The step schedule follows RankLib's CoorAscent (base step, doubled up to
 * 25 times). Scores are invariant to a positive scale, so weights are kept at Σ|w| = 1.
 */
import { IssuelocError } from '../errors.js';
import { FEATURES, type FeatureName } from './features/registry.js';
import { scoreRows } from './model.js';
import { queryObjective, type LabelledQuery, type ObjectiveTerm } from './objective.js';

/** Options of {@link coordinateAscent}. */
export interface CoordinateAscentOptions {
  /** What to maximise (mean over queries). */
  objective: readonly ObjectiveTerm[];
  /** Starting points after the first (default 2); the first starts from `init`. */
  restarts?: number;
  /** Passes over the features per start (default 8). */
  maxPasses?: number;
  /** A pass must raise the objective by more than this to continue (default 1e-4). */
  tolerance?: number;
  /** Seed of the feature order and the random starts (default 1). */
  seed?: number;
  /** First starting point (default: the pipeline score alone, or the first allowed feature). */
  init?: Partial<Record<FeatureName, number>>;
  /** Features that may get a non-zero weight (default all). */
  features?: readonly FeatureName[];
  /** Called after each pass with (start, pass, objective). */
  onPass?: (start: number, pass: number, value: number) => void;
}

/** A fitted weight vector and its training objective. */
export interface AscentResult {
  /** Weights in FEATURES order, Σ|w| = 1. */
  weights: Float64Array;
  /** Mean objective on the training queries (objective weights normalised to sum 1). */
  value: number;
  /** Mean objective of the starting point `init` (the baseline). */
  initialValue: number;
}

const STEP_BASE = 0.002;
const STEP_SCALE = 2;
const STEPS = 25;

/**
 * Fits a linear model by coordinate ascent.
 * @throws IssuelocError when there is no training query.
 */
export function coordinateAscent(queries: readonly LabelledQuery[], opts: CoordinateAscentOptions): AscentResult {
  if (queries.length === 0) throw new IssuelocError('no training query (no issue had a candidate list)');
  // features that never vary carry no information: they keep weight 0
  const allowed = (opts.features ?? FEATURES).map((f) => FEATURES.indexOf(f)).filter((j) => varies(queries, j));
  if (allowed.length === 0) throw new IssuelocError('no allowed feature varies over the training queries');
  const rng = mulberry32(opts.seed ?? 1);
  const tolerance = opts.tolerance ?? 1e-4;

  const init = initWeights(opts, allowed);
  const initialValue = meanObjective(queries, init, opts.objective);
  let best = { weights: normalise(init), value: initialValue };

  for (let start = 0; start <= (opts.restarts ?? 2); start++) {
    const w = start === 0 ? Float64Array.from(init) : randomStart(init, allowed, rng);
    const state = new ScoreState(queries, opts.objective, w);
    let value = state.value();
    for (let pass = 0; pass < (opts.maxPasses ?? 8); pass++) {
      const before = value;
      for (const j of shuffle([...allowed], rng)) {
        const original = w[j];
        state.lift(j, original);
        let bestW = original;
        const tryWeight = (v: number) => {
          const got = state.valueWith(j, v);
          if (got > value + 1e-12) { value = got; bestW = v; }
        };
        for (const dir of [1, -1]) {
          let step = STEP_BASE * dir;
          let total = 0;
          for (let s = 0; s < STEPS && Math.abs(total) <= 4; s++) {
            total += step;
            tryWeight(original + total);
            step *= STEP_SCALE;
          }
        }
        if (original !== 0) tryWeight(0);
        w[j] = bestW;
        state.settle(j, bestW);
      }
      opts.onPass?.(start, pass, value);
      if (value - before <= tolerance) break;
    }
    if (value > best.value) best = { weights: normalise(w), value };
  }
  return { weights: best.weights, value: best.value, initialValue };
}

/**
 * Bagged coordinate ascent (Breiman 1996, "Bagging predictors", Machine Learning 24(2)): fits
 * `bags` models on bootstrap samples of the queries (drawn with replacement, seeded) and averages
 * their normalised weights. Small training sets give coordinate ascent a high variance (each fit
 * follows a few queries); the average is steadier. `bags` ≤ 1 is plain coordinate ascent.
 * @returns the averaged weights and their objective on all queries.
 */
export function baggedAscent(queries: readonly LabelledQuery[], opts: CoordinateAscentOptions & { bags?: number }): AscentResult {
  const bags = opts.bags ?? 1;
  if (bags <= 1) return coordinateAscent(queries, opts);
  if (queries.length === 0) throw new IssuelocError('no training query (no issue had a candidate list)');
  const rng = mulberry32((opts.seed ?? 1) * 7919);
  const sum = new Float64Array(FEATURES.length);
  let initialValue = 0;
  for (let b = 0; b < bags; b++) {
    const sample = Array.from({ length: queries.length }, () => queries[Math.floor(rng() * queries.length)]);
    const fit = coordinateAscent(sample, { ...opts, seed: (opts.seed ?? 1) + b });
    for (let j = 0; j < sum.length; j++) sum[j] += fit.weights[j] / bags;
    if (b === 0) initialValue = meanObjective(queries, initWeights(opts, FEATURES.map((_, j) => j)), opts.objective);
  }
  const weights = normalise(sum);
  return { weights, value: meanObjective(queries, weights, opts.objective), initialValue };
}

/** Mean objective over queries of the linear model `w` (objective weights normalised to sum 1). */
export function meanObjective(queries: readonly LabelledQuery[], w: Float64Array, objective: readonly ObjectiveTerm[]): number {
  return new ScoreState(queries, objective, w).value();
}

/**
 * Candidate scores of every query under the current weights, updated one feature at a time:
 * `lift(j)` removes feature j's part, `valueWith(j, v)` evaluates weight v for it, and
 * `settle(j, v)` adds it back with weight v (O(candidates) each, no re-scoring of all features).
 */
class ScoreState {
  private readonly scores: Float64Array[];
  private readonly trial: Float64Array[];
  private readonly norm: number;

  constructor(private readonly queries: readonly LabelledQuery[], private readonly objective: readonly ObjectiveTerm[], w: Float64Array) {
    this.scores = queries.map((q) => scoreRows(q.query.features, q.query.n, w));
    this.trial = queries.map((q) => new Float64Array(q.query.n));
    this.norm = objective.reduce((s, t) => s + t.weight, 0) * queries.length;
  }

  value(): number {
    let sum = 0;
    this.queries.forEach((q, k) => { sum += queryObjective(q, this.scores[k], this.objective); });
    return sum / this.norm;
  }

  lift(j: number, wj: number): void {
    this.add(j, -wj);
  }

  settle(j: number, wj: number): void {
    this.add(j, wj);
  }

  valueWith(j: number, wj: number): number {
    const F = FEATURES.length;
    let sum = 0;
    this.queries.forEach((q, k) => {
      const base = this.scores[k];
      const t = this.trial[k];
      const x = q.query.features;
      for (let i = 0; i < t.length; i++) t[i] = base[i] + wj * x[i * F + j];
      sum += queryObjective(q, t, this.objective);
    });
    return sum / this.norm;
  }

  private add(j: number, wj: number): void {
    if (wj === 0) return;
    const F = FEATURES.length;
    this.queries.forEach((q, k) => {
      const s = this.scores[k];
      const x = q.query.features;
      for (let i = 0; i < s.length; i++) s[i] += wj * x[i * F + j];
    });
  }
}

/** The starting weights: `opts.init`, else the pipeline score alone (or the first allowed feature). */
function initWeights(opts: CoordinateAscentOptions, allowed: readonly number[]): Float64Array {
  const init = new Float64Array(FEATURES.length);
  if (opts.init) for (const [name, v] of Object.entries(opts.init)) init[FEATURES.indexOf(name as FeatureName)] = v ?? 0;
  else init[allowed.includes(FEATURES.indexOf('pipeline')) ? FEATURES.indexOf('pipeline') : allowed[0]] = 1;
  return init;
}

/** Whether feature j takes more than one value over the candidates of the queries. */
function varies(queries: readonly LabelledQuery[], j: number): boolean {
  const F = FEATURES.length;
  let first: number | undefined;
  for (const q of queries) {
    const x = q.query.features;
    for (let i = 0; i < q.query.n; i++) {
      first ??= x[i * F + j];
      if (x[i * F + j] !== first) return true;
    }
  }
  return false;
}

function normalise(w: Float64Array): Float64Array {
  let s = 0;
  for (const v of w) s += Math.abs(v);
  return s > 0 ? w.map((v) => v / s) : Float64Array.from(w);
}

function randomStart(init: Float64Array, allowed: number[], rng: () => number): Float64Array {
  const w = Float64Array.from(init);
  for (const j of allowed) w[j] += (rng() - 0.5) * 0.2;
  return w;
}

function shuffle<T>(xs: T[], rng: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const k = Math.floor(rng() * (i + 1));
    [xs[i], xs[k]] = [xs[k], xs[i]];
  }
  return xs;
}

/** A small seeded PRNG (mulberry32), uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
