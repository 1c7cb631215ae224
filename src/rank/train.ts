/**
 * Training a linear ranker: candidate features of labelled issues (cached on disk), then
 * coordinate ascent on a top-heavy objective (src/rank/coordinate-ascent.ts).
 */
import { SimilarIssues, type EarlierIssue } from '../history/similar-issues.js';
import { baggedAscent, type AscentResult } from './coordinate-ascent.js';
import { FeatureCache } from './feature-cache.js';
import { FEATURES, FeatureExtractor, type FeatureName, type FeatureOptions } from './features.js';
import { forEachIssue, type IssueLoopOptions, type LabelledIssue } from './issue-loop.js';
import { LinearModel, MODEL_FORMAT, type ModelFile } from './model.js';
import { DEFAULT_OBJECTIVE, labelQuery, parseObjective, type TrainingQuery } from './objective.js';
import { trainingQueryOf } from './training-query.js';

/**
 * Candidates of the default model: the default lexical pipeline of issue 6 as docs/results.md
 * chose it (BM25F path and name ×3 against the body, δ = 0, whole-file prior 1.0, the
 * issue-text signals at weights 0.1–0.15), written out in full so that a model keeps its
 * candidates when library defaults change.
 */
export const DEFAULT_CANDIDATES: Required<Pick<FeatureOptions, 'depth' | 'ranking'>> = {
  depth: 200,
  ranking: {
    bm25: { k1: 1.2, b: 0.75, delta: 0, weights: [3, 3, 1] },
    filePrior: 1.0,
    signals: { frameFile: 0.1, frameFunction: 0.15, mentionedFile: 0.1, mentionedUnit: 0.15, namedFunction: 0.075 },
  },
};

/** Options of {@link collectQueries}. */
export interface CollectOptions extends Omit<IssueLoopOptions, 'similarIssues'> {
  /** Candidate pipeline (default {@link DEFAULT_CANDIDATES}). */
  candidates?: Required<Pick<FeatureOptions, 'depth' | 'ranking'>>;
  /** Feature cache root (none = extract every time). */
  featuresCache?: string;
  /** Use the dataset's own earlier issues for the similarIssues feature (default false). */
  similarIssues?: boolean;
}

/**
 * Training queries of labelled issues: from the feature cache, else extracted (index loaded or
 * built per base commit) and cached. Issues without a gold file are left out.
 */
export async function collectQueries(issues: readonly LabelledIssue[], opts: CollectOptions): Promise<TrainingQuery[]> {
  const candidates = opts.candidates ?? DEFAULT_CANDIDATES;
  const cache = opts.featuresCache
    ? new FeatureCache(opts.featuresCache, { candidates, index: opts.indexSettings ?? {}, history: opts.history !== false, similar: opts.similarIssues === true })
    : undefined;
  const out = new Map<LabelledIssue, TrainingQuery>();
  const todo: LabelledIssue[] = [];
  for (const i of issues) {
    if (i.gold.file.length === 0) continue;
    const hit = cache?.get(i);
    if (hit) out.set(i, hit);
    else todo.push(i);
  }
  const similar = opts.similarIssues ? similarIssuesByRepo(issues) : undefined;
  await forEachIssue(todo, { ...opts, similarIssues: similar ? (repo) => similar.get(repo) : undefined }, (ctx) => {
    const q = trainingQueryOf(ctx, new FeatureExtractor(ctx.codeIndex, candidates));
    cache?.set(ctx.issue, q);
    out.set(ctx.issue, q);
  });
  return issues.filter((i) => out.has(i)).map((i) => out.get(i)!);
}

/** SimiScore indexes over the issues themselves, per repository (earlier issues only count). */
export function similarIssuesByRepo(issues: readonly LabelledIssue[]): Map<string, SimilarIssues> {
  const byRepo = new Map<string, EarlierIssue[]>();
  for (const i of issues) {
    if (Number.isNaN(i.created)) continue;
    const list = byRepo.get(i.repo) ?? [];
    list.push({ id: i.id, text: i.text, time: i.created, files: i.gold.file });
    byRepo.set(i.repo, list);
  }
  return new Map([...byRepo].map(([repo, list]) => [repo, new SimilarIssues(list)]));
}

/** Options of {@link fitModel}. */
export interface FitOptions {
  /** Objective of the main model (see `parseObjective`; default `file:MAP,function:MAP`). */
  objective?: string;
  /** Features the main model may use (default all). */
  features?: readonly FeatureName[];
  /**
   * Own models for ranking files or modules: each fitted with its objective (and features),
   * stored as the model file's `levels`. Levels not named use the main model.
   */
  levels?: Partial<Record<'file' | 'module', { objective: string; features?: readonly FeatureName[] }>>;
  restarts?: number;
  /** Bootstrap bags averaged (default 1: plain coordinate ascent). */
  bags?: number;
  seed?: number;
  candidates?: Required<Pick<FeatureOptions, 'depth' | 'ranking'>>;
  /** Free-form provenance stored in the model file. */
  training?: Record<string, unknown>;
  onPass?: (start: number, pass: number, value: number) => void;
}

/**
 * Fits a linear model on training queries by (bagged) coordinate ascent: the main model, then
 * the own models of the levels in `opts.levels`.
 */
export function fitModel(queries: readonly TrainingQuery[], opts: FitOptions = {}): { model: LinearModel; fit: AscentResult } {
  const labelled = queries.map(labelQuery);
  const fitOne = (objective: string, features?: readonly FeatureName[]) => {
    const fit = baggedAscent(labelled, {
      objective: parseObjective(objective), features, restarts: opts.restarts, seed: opts.seed, onPass: opts.onPass, bags: opts.bags,
    });
    const weights: Record<string, number> = {};
    FEATURES.forEach((f, j) => { if (fit.weights[j] !== 0) weights[f] = Number(fit.weights[j].toPrecision(6)); });
    return { fit, weights, summary: { objective, train: Number(fit.value.toFixed(4)), pipelineAlone: Number(fit.initialValue.toFixed(4)) } };
  };
  const objective = opts.objective ?? DEFAULT_OBJECTIVE;
  const main = fitOne(objective, opts.features);
  const levels: NonNullable<ModelFile['levels']> = {};
  const levelSummaries: Record<string, unknown> = {};
  for (const level of ['file', 'module'] as const) {
    const spec = opts.levels?.[level];
    if (!spec) continue;
    const own = fitOne(spec.objective, spec.features);
    levels[level] = own.weights;
    levelSummaries[level] = own.summary;
  }
  const model = new LinearModel({
    format: MODEL_FORMAT,
    weights: main.weights,
    ...(Object.keys(levels).length > 0 ? { levels } : {}),
    candidates: opts.candidates ?? DEFAULT_CANDIDATES,
    training: { ...main.summary, ...(Object.keys(levelSummaries).length > 0 ? { levels: levelSummaries } : {}), bags: opts.bags ?? 1, queries: queries.length, ...opts.training },
  });
  return { model, fit: main.fit };
}
