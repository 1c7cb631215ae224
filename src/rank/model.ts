/**
 * The learned ranker's model: a linear function of the candidate features (src/rank/features.ts),
 * stored as a small JSON file with the ranking options of the pipeline that made its candidates.
 */
import { readFileSync } from 'node:fs';
import { IssuelocError } from '../errors.js';
import type { RankingOptions } from '../retrieve/localize.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { FEATURES, type CandidateSet } from './features.js';
import { LEVELS, rankedIds, type Level, type TrainingQuery } from './objective.js';

/** Format tag of a model file. */
export const MODEL_FORMAT = 'issueloc-linear-ranker/1';

/** A model file's JSON. */
export interface ModelFile {
  format: typeof MODEL_FORMAT;
  /** Feature name → weight; features not named weigh 0. Ranks functions (and every level without its own weights). */
  weights: Record<string, number>;
  /**
   * Own weights for ranking the files or the modules (their items ordered by the first occurrence
   * of their candidates under these weights), when one model does not serve all levels.
   */
  levels?: Partial<Record<'file' | 'module', Record<string, number>>>;
  /** How candidates are made: pipeline ranking options and how many are reranked. */
  candidates: { depth: number; ranking: RankingOptions };
  /** What it was trained on and how (free-form provenance, shown by `issueloc train`). */
  training?: Record<string, unknown>;
}

/** A linear ranking model: score(c) = Σ_j w_j · x_j(c). */
export class LinearModel {
  /** Weights in {@link FEATURES} order (the function level's). */
  readonly weights: Float64Array;
  /** Weights per level, in {@link FEATURES} order. */
  readonly levelWeights: Record<Level, Float64Array>;

  constructor(readonly file: ModelFile) {
    this.weights = vectorOf(file.weights);
    this.levelWeights = {
      function: this.weights,
      module: file.levels?.module ? vectorOf(file.levels.module) : this.weights,
      file: file.levels?.file ? vectorOf(file.levels.file) : this.weights,
    };
  }

  /** Depth and ranking options of the candidate pipeline. */
  get candidates(): ModelFile['candidates'] { return this.file.candidates; }

  /**
   * Checks and wraps a parsed model file.
   * @param source names the file in error messages.
   * @throws IssuelocError for a wrong format tag, an unknown feature, a weight that is not a
   *   finite number, or a missing/invalid candidate depth.
   */
  static fromJson(value: unknown, source: string): LinearModel {
    const v = value as Partial<ModelFile> | null;
    if (!v || typeof v !== 'object' || v.format !== MODEL_FORMAT) {
      throw new IssuelocError(`${source}: not an issueloc model (expected "format": "${MODEL_FORMAT}")`);
    }
    if (!v.weights || typeof v.weights !== 'object') throw new IssuelocError(`${source}: model has no "weights" object`);
    checkWeights(v.weights, source);
    for (const [level, w] of Object.entries(v.levels ?? {})) {
      if (level !== 'file' && level !== 'module') throw new IssuelocError(`${source}: "levels" names '${level}' (only file and module have own weights)`);
      if (!w || typeof w !== 'object') throw new IssuelocError(`${source}: weights of level ${level} are not an object`);
      checkWeights(w, source);
    }
    const depth = v.candidates?.depth;
    if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 1) {
      throw new IssuelocError(`${source}: model needs "candidates": {"depth": positive integer, "ranking": {...}}`);
    }
    return new LinearModel({
      format: MODEL_FORMAT, weights: v.weights, ...(v.levels ? { levels: v.levels } : {}),
      candidates: { depth, ranking: v.candidates?.ranking ?? {} }, training: v.training,
    });
  }

  /**
   * Reads a model file.
   * @throws IssuelocError when the file cannot be read or parsed, or is not a valid model.
   */
  static load(path: string): LinearModel {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new IssuelocError(`cannot read model ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new IssuelocError(`${path}: not JSON (${(e as Error).message})`);
    }
    return LinearModel.fromJson(value, path);
  }

  /** Writes the model as JSON (atomically). */
  save(path: string): void {
    writeFileAtomic(path, [`${JSON.stringify(this.file, null, 2)}\n`]);
  }

  /** Score of every candidate of a set. */
  score(set: Pick<CandidateSet, 'features' | 'docs'>): Float64Array {
    return scoreRows(set.features, set.docs.length, this.weights);
  }
}

/**
 * The ranked ids of every level for a scored candidate list: functions in the order of the
 * function weights, modules and files by first occurrence under their own weights.
 */
export function rankLevels(q: Pick<TrainingQuery, 'features' | 'n' | 'ids' | 'paths' | 'modules'>, model: LinearModel): Record<Level, string[]> {
  const out = {} as Record<Level, string[]>;
  const memo = new Map<Float64Array, Record<Level, string[]>>();
  for (const level of LEVELS) {
    const w = model.levelWeights[level];
    let lists = memo.get(w);
    if (!lists) memo.set(w, (lists = rankedIds(q, orderByScore(scoreRows(q.features, q.n, w)))));
    out[level] = lists[level];
  }
  return out;
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

/** Linear scores of an n-row feature matrix (row-major, {@link FEATURES} columns). */
export function scoreRows(x: Float32Array, n: number, w: Float64Array): Float64Array {
  const F = FEATURES.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const row = i * F;
    for (let j = 0; j < F; j++) s += w[j] * x[row + j];
    out[i] = s;
  }
  return out;
}

/** Candidate indices ordered by score, best first; ties keep pipeline order. */
export function orderByScore(scores: Float64Array): Int32Array {
  const idx = Int32Array.from({ length: scores.length }, (_, i) => i);
  return idx.sort((a, b) => scores[b] - scores[a] || a - b);
}
