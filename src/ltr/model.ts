/**
 * The learned ranker's model: per level, a linear function of the candidate features
 * (src/ltr/features/extract.ts) plus, optionally, an ensemble of regression trees (LambdaMART,
 * src/ltr/lambdamart.ts), stored as a small JSON file with the ranking options of the pipeline
 * that made its candidates.
 *
 * score(c) = Σ_j w_j · x_j(c) + ν · Σ_t tree_t(x(c)). Linear models (coordinate ascent) have no
 * trees and keep the file format `issueloc-linear-ranker/1`; models with trees are
 * `issueloc-ranker/2`, so that a reader that knows only linear models refuses them instead of
 * ranking by their linear part alone.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IssuelocError } from '../errors.js';
import type { RankingOptions } from '../retrieve/localize.js';
import { insertAtLexicalRank, type RankedItem } from '../retrieve/rollup.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { CandidateSet } from './features/extract.js';
import { FEATURES, type FeatureName } from './features/registry.js';
import { LEVELS, rankedIds, type Level, type TrainingQuery } from './objective.js';
import { TreeEnsemble, type EnsembleJson } from './regression-tree.js';
import { whyUnreadable } from '../util/file-errors.js';

/**
 * The built-in model (src/ltr/default-model.json: trained on Loc-Bench issues of repositories
 * other than SWE-bench Lite's; docs/learning-to-rank.md), found at the same place relative to the
 * compiled code in a checkout and in the installed package (package.json `files` ships it).
 * `RankingModel.load('default')` reads it.
 */
export const DEFAULT_MODEL_PATH = fileURLToPath(new URL('../../../src/ltr/default-model.json', import.meta.url));

/** Format tag of a linear model file. */
export const MODEL_FORMAT = 'issueloc-linear-ranker/1';
/** Format tag of a model file with trees. */
export const TREE_MODEL_FORMAT = 'issueloc-ranker/2';

/** The levels that may have a scorer of their own (else they use the function level's). */
export type OwnLevel = 'file' | 'module';

/** A model file's JSON. */
export interface ModelFile {
  format: typeof MODEL_FORMAT | typeof TREE_MODEL_FORMAT;
  /** Feature name → weight; features not named weigh 0. Ranks functions (and every level without its own scorer). */
  weights: Record<string, number>;
  /** Trees added to the function level's linear score. */
  trees?: EnsembleJson;
  /**
   * Own weights for ranking the files or the modules (their items ordered by the first occurrence
   * of their candidates under these scores), when one model does not serve all levels.
   */
  levels?: Partial<Record<OwnLevel, Record<string, number>>>;
  /** Own trees of the file or module level, added to that level's own weights (none: all 0). */
  levelTrees?: Partial<Record<OwnLevel, EnsembleJson>>;
  /** How candidates are made: pipeline ranking options and how many are reranked. */
  candidates: { depth: number; ranking: RankingOptions };
  /** What it was trained on and how (free-form provenance, shown by `issueloc train`). */
  training?: Record<string, unknown>;
}

/** One level's scoring function: Σ_j w_j · x_j plus the ensemble's contribution, if any. */
export class LevelScorer {
  /**
   * @param weights in {@link FEATURES} order.
   */
  constructor(readonly weights: Float64Array, readonly ensemble?: TreeEnsemble) {
    this.weighted = Int32Array.from(weights.keys()).filter((j) => weights[j] !== 0);
  }

  /** The columns of non-zero weight, ascending. */
  private readonly weighted: Int32Array;

  /** The columns the score depends on: non-zero weights and the columns the trees split on. */
  columns(): Set<number> {
    const out = this.ensemble?.columns() ?? new Set<number>();
    this.weights.forEach((w, j) => { if (w !== 0) out.add(j); });
    return out;
  }

  /** Scores of the n rows of a row-major feature matrix ({@link FEATURES} columns). */
  score(x: Float32Array, n: number): Float64Array {
    const s = scoreRows(x, n, this.weights, this.weighted);
    this.ensemble?.addTo(x, n, FEATURES.length, s);
    return s;
  }
}

/**
 * A ranking model: a {@link LevelScorer} per level. A level named in `levels` or `levelTrees`
 * has its own scorer (its weights, 0 when absent, plus its trees); the others share the
 * function level's (`weights` plus `trees`).
 */
export class RankingModel {
  readonly file: ModelFile;
  /** Scorer of each level (the same object where levels share one). */
  readonly scorers: Record<Level, LevelScorer>;
  /**
   * The features some level's score depends on (a non-zero weight or a split of a tree): the
   * others need not be computed, their values change no score (`FeatureExtractor`'s `reads`).
   */
  readonly reads: ReadonlySet<FeatureName>;

  /**
   * @param spec the model file without its format tag (chosen here: linear or with trees).
   * @param source names the file in error messages about its trees.
   * @throws IssuelocError for an invalid tree (see {@link TreeEnsemble.fromJson}).
   */
  constructor(spec: Omit<ModelFile, 'format'>, source = 'model') {
    const hasTrees = spec.trees !== undefined || Object.keys(spec.levelTrees ?? {}).length > 0;
    this.file = { format: hasTrees ? TREE_MODEL_FORMAT : MODEL_FORMAT, ...spec };
    const names = FEATURES as readonly string[];
    const main = new LevelScorer(vectorOf(spec.weights), spec.trees ? TreeEnsemble.fromJson(spec.trees, names, `${source}: "trees"`) : undefined);
    const own = (level: OwnLevel): LevelScorer => {
      const weights = spec.levels?.[level];
      const trees = spec.levelTrees?.[level];
      if (!weights && !trees) return main;
      return new LevelScorer(vectorOf(weights ?? {}), trees ? TreeEnsemble.fromJson(trees, names, `${source}: "levelTrees".${level}`) : undefined);
    };
    this.scorers = { function: main, module: own('module'), file: own('file') };
    const columns = new Set(LEVELS.flatMap((level) => [...this.scorers[level].columns()]));
    this.reads = new Set(FEATURES.filter((_, j) => columns.has(j)));
  }

  /** Depth and ranking options of the candidate pipeline. */
  get candidates(): ModelFile['candidates'] { return this.file.candidates; }

  /**
   * Checks and wraps a parsed model file (either format).
   * @param source names the file in error messages.
   * @throws IssuelocError (one line naming `source`) for a wrong format tag, trees in a linear
   *   file, an unknown feature, a weight that is not a finite number, an own scorer of a level
   *   other than file or module, a bad tree or ensemble, or a missing/invalid candidate depth.
   */
  static fromJson(value: unknown, source: string): RankingModel {
    const v = value as Partial<ModelFile> | null;
    if (!v || typeof v !== 'object' || (v.format !== MODEL_FORMAT && v.format !== TREE_MODEL_FORMAT)) {
      throw new IssuelocError(`${source}: not an issueloc model (expected "format": "${MODEL_FORMAT}" or "${TREE_MODEL_FORMAT}")`);
    }
    if (v.format === MODEL_FORMAT && (v.trees !== undefined || v.levelTrees !== undefined)) {
      throw new IssuelocError(`${source}: a model with trees needs "format": "${TREE_MODEL_FORMAT}"`);
    }
    if (!v.weights || typeof v.weights !== 'object') throw new IssuelocError(`${source}: model has no "weights" object`);
    checkWeights(v.weights, source);
    for (const [level, w] of Object.entries(v.levels ?? {})) {
      if (level !== 'file' && level !== 'module') throw new IssuelocError(`${source}: "levels" names '${level}' (only file and module have own weights)`);
      if (!w || typeof w !== 'object') throw new IssuelocError(`${source}: weights of level ${level} are not an object`);
      checkWeights(w, source);
    }
    for (const level of Object.keys(v.levelTrees ?? {})) {
      if (level !== 'file' && level !== 'module') throw new IssuelocError(`${source}: "levelTrees" names '${level}' (only file and module have own trees)`);
    }
    const depth = v.candidates?.depth;
    if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1) {
      throw new IssuelocError(`${source}: model needs "candidates": {"depth": positive integer, "ranking": {...}}`);
    }
    return new RankingModel({
      weights: v.weights,
      ...(v.trees !== undefined ? { trees: v.trees } : {}),
      ...(v.levels ? { levels: v.levels } : {}),
      ...(v.levelTrees ? { levelTrees: v.levelTrees } : {}),
      candidates: { depth, ranking: v.candidates?.ranking ?? {} }, training: v.training,
    }, source);
  }

  /**
   * Reads a model file.
   * @throws IssuelocError when the file cannot be read or parsed, or is not a valid model.
   */
  static load(path: string): RankingModel {
    if (path === 'default') path = DEFAULT_MODEL_PATH;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new IssuelocError(`cannot read model ${path}: ${whyUnreadable(e)}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new IssuelocError(`${path}: not JSON (${(e as Error).message})`);
    }
    return RankingModel.fromJson(value, path);
  }

  /** Writes the model as JSON (atomically), indented, each tree on one line. */
  save(path: string): void {
    const compact: string[] = [];
    const text = JSON.stringify(this.file, function (key, value: unknown) {
      // the tree lists of ensembles: one line per tree
      if (key === 'trees' && Array.isArray(value)) return value.map((t) => `\u0000${compact.push(JSON.stringify(t)) - 1}`);
      return value;
    }, 2);
    writeFileAtomic(path, [`${text.replace(/"\\u0000(\d+)"/g, (_, k: string) => compact[Number(k)])}\n`]);
  }

  /** Scores of every candidate of a set at a level (default the function level). */
  score(set: Pick<CandidateSet, 'features' | 'docs'>, level: Level = 'function'): Float64Array {
    return this.scorers[level].score(set.features, set.docs.length);
  }
}

/**
 * The ranked ids of every level for a scored candidate list: functions in the order of the
 * function scorer, modules and files by first occurrence under their own scorers; the query's
 * `otherFiles` (files holding no candidate) go into the file ranking at their lexical rank
 * (`insertAtLexicalRank`), as `ModelRanker` ranks them.
 */
export function rankLevels(q: Pick<TrainingQuery, 'features' | 'n' | 'ids' | 'paths' | 'modules' | 'otherFiles'>, model: RankingModel): Record<Level, string[]> {
  const out = {} as Record<Level, string[]>;
  const memo = new Map<LevelScorer, Record<Level, string[]>>();
  for (const level of LEVELS) {
    const scorer = model.scorers[level];
    let lists = memo.get(scorer);
    if (!lists) memo.set(scorer, (lists = rankedIds(q, orderByScore(scorer.score(q.features, q.n)))));
    out[level] = lists[level];
  }
  if (q.otherFiles?.length) {
    const pipeline = FEATURES.indexOf('pipeline');
    const others = q.otherFiles.map((f) => ({ id: f.path, score: f.score }));
    out.file = withOtherFiles(out.file.map((id) => ({ id, score: 0 })), q.paths, (i) => q.features[i * FEATURES.length + pipeline], others, Infinity).map((it) => it.id);
  }
  return out;
}

/**
 * A model's file ranking with the files that hold no candidate at their lexical rank
 * (`insertAtLexicalRank`), each candidate file compared by the pipeline score of its best (first)
 * candidate. Shared by `rankLevels` and `ModelRanker`.
 * @param paths the candidates' paths, in pipeline order.
 * @param pipelineAt the pipeline score of candidate i, on the scale of the `others`' scores.
 */
export function withOtherFiles(files: readonly RankedItem[], paths: readonly string[], pipelineAt: (i: number) => number, others: readonly RankedItem[], limit: number): RankedItem[] {
  const best = new Map<string, number>();
  paths.forEach((p, i) => { if (!best.has(p)) best.set(p, pipelineAt(i)); });
  return insertAtLexicalRank(files, others, (it) => best.get(it.id)!, limit);
}

function vectorOf(weights: Record<string, number>): Float64Array {
  const v = new Float64Array(FEATURES.length);
  FEATURES.forEach((name, j) => { v[j] = weights[name] ?? 0; });
  return v;
}

function checkWeights(weights: object, source: string): void {
  for (const [name, w] of Object.entries(weights)) {
    if (!(FEATURES as readonly string[]).includes(name)) throw new IssuelocError(`${source}: unknown feature '${name}' (features: ${FEATURES.join(', ')})`);
    if (typeof w !== 'number' || !Number.isFinite(w)) throw new IssuelocError(`${source}: weight of '${name}' is not a finite number`);
  }
}

/**
 * Linear scores of an n-row feature matrix (row-major, {@link FEATURES} columns): Σ_j w_j · x_j
 * over the columns in ascending order.
 * @param columns the columns of non-zero weight, ascending (default: all): a column of weight 0
 *   adds ±0, which changes no sum of finite values, so the sums are the same bit for bit.
 */
export function scoreRows(x: Float32Array, n: number, w: Float64Array, columns?: Int32Array): Float64Array {
  const F = FEATURES.length;
  const out = new Float64Array(n);
  if (columns) {
    const C = columns.length;
    for (let i = 0; i < n; i++) {
      let s = 0;
      const row = i * F;
      for (let c = 0; c < C; c++) s += w[columns[c]] * x[row + columns[c]];
      out[i] = s;
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    let s = 0;
    const row = i * F;
    for (let j = 0; j < F; j++) s += w[j] * x[row + j];
    out[i] = s;
  }
  return out;
}

/**
 * Candidate indices ordered by score, best first; ties keep pipeline order (a stable merge sort
 * on typed arrays, the same order as a sort by `scores[b] − scores[a] || a − b`, without a
 * comparator call per comparison).
 */
export function orderByScore(scores: Float64Array): Int32Array {
  const n = scores.length;
  let from = new Int32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  // runs of 8 by insertion, then merges of doubling runs
  const RUN = 8;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    for (let k = lo + 1; k < hi; k++) {
      const i = from[k];
      const s = scores[i];
      let m = k;
      while (m > lo && scores[from[m - 1]] < s) { from[m] = from[m - 1]; m--; }
      from[m] = i;
    }
  }
  let to = new Int32Array(n);
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width), hi = Math.min(n, lo + 2 * width);
      let a = lo, b = mid, k = lo;
      // the left run's element first unless the right one scores higher (stable)
      while (a < mid && b < hi) to[k++] = scores[from[b]] > scores[from[a]] ? from[b++] : from[a++];
      while (a < mid) to[k++] = from[a++];
      while (b < hi) to[k++] = from[b++];
    }
    const t = from; from = to; to = t;
  }
  return from;
}
