/**
 * Training a ranker: candidate features of labelled issues (cached on disk), then either
 * coordinate ascent of a linear model on a top-heavy objective (src/ltr/coordinate-ascent.ts) or
 * LambdaMART trees (src/ltr/lambdamart.ts).
 */
import { SimilarIssues, type EarlierIssue } from '../history/similar-issues.js';
import { baggedAscent } from './coordinate-ascent.js';
import { FeatureCache } from './feature-cache.js';
import { FeatureExtractor, type FeatureOptions } from './features/extract.js';
import { FEATURES, type FeatureName } from './features/registry.js';
import { forEachIssue, type IssueLoopOptions, type LabelledIssue } from './labelled-issues.js';
import { fitLambdaMart, lambdaMartSettings, type LambdaMartOptions } from './lambdamart.js';
import { RankingModel, type ModelFile, type OwnLevel } from './model.js';
import {
  DEFAULT_OBJECTIVE, labelQuery, parseObjective, queryObjective, type LabelledQuery, type Level, type ObjectiveTerm, type TrainingQuery,
} from './objective.js';
import { queryWeights, type Balance } from './query-weights.js';
import { trainingQueryOf } from './training-query.js';

/** The learners `issueloc train` offers. */
export const LEARNERS = ['lambdamart', 'coordinate-ascent'] as const;
export type Learner = (typeof LEARNERS)[number];
/** The learner used when none is named. */
export const DEFAULT_LEARNER: Learner = 'lambdamart';

/**
 * Candidates of the default model: the default lexical pipeline as docs/results.md
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
    titleWeight: 2,
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
  const similar = opts.similarIssues ? similarIssuesByRepo(issues) : undefined;
  const similarOf = similar ? (repo: string) => similar.get(repo) : undefined;
  const cache = opts.featuresCache
    ? new FeatureCache(opts.featuresCache, { candidates, index: opts.indexSettings ?? {}, history: opts.history !== false, similar: opts.similarIssues === true }, similarOf)
    : undefined;
  const out = new Map<LabelledIssue, TrainingQuery>();
  const todo: LabelledIssue[] = [];
  for (const i of issues) {
    if (i.gold.file.length === 0) continue;
    const hit = cache?.get(i);
    if (hit) out.set(i, hit);
    else todo.push(i);
  }
  await forEachIssue(todo, { ...opts, similarIssues: similarOf }, async (ctx) => {
    const q = trainingQueryOf(ctx, new FeatureExtractor(ctx.codeIndex, { ...candidates, graph: await ctx.graph() }));
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
  /** Default {@link DEFAULT_LEARNER}. */
  learner?: Learner;
  /**
   * What coordinate ascent maximises for the main model (see `parseObjective`; default
   * `file:MAP,function:MAP`); for LambdaMART (which maximises NDCG) it is only reported.
   */
  objective?: string;
  /** Features the main model may use (default all). */
  features?: readonly FeatureName[];
  /**
   * Coordinate ascent: own models for ranking files or modules, each fitted with its objective
   * (and features), stored as the model file's `levels`. Levels not named use the main model.
   */
  levels?: Partial<Record<OwnLevel, { objective: string; features?: readonly FeatureName[] }>>;
  restarts?: number;
  /** Coordinate ascent: bootstrap bags averaged (default 1: plain coordinate ascent). */
  bags?: number;
  seed?: number;
  /** LambdaMART: trees, depth, learning rate, leaf size, first score. */
  lambdamart?: LambdaMartOptions;
  /**
   * LambdaMART: levels given own trees, fitted with that level's labels (candidate's file or
   * module is gold); the others use the function level's trees. Default none: on held-out
   * Loc-Bench repositories (bench/ltr-folds.ts) the function trees ranked files and modules
   * better than own trees did.
   */
  levelTrees?: readonly OwnLevel[];
  /**
   * LambdaMART: the labels of the main trees (those ranking every level without own trees):
   * "candidate is a gold function" (default) or "candidate's file is gold" (`file`: every issue
   * with a gold file among the candidates counts, also those whose gold functions the candidates
   * miss or the dataset's labels do not name).
   */
  labels?: 'function' | 'file';
  /**
   * LambdaMART: weigh the training queries so that each language of the gold files (or each
   * repository) weighs the same (`power` 1) or √ its count (0.5); src/ltr/query-weights.ts.
   */
  balance?: { by: Balance; power?: number };
  candidates?: Required<Pick<FeatureOptions, 'depth' | 'ranking'>>;
  /** Free-form provenance stored in the model file. */
  training?: Record<string, unknown>;
  onPass?: (start: number, pass: number, value: number) => void;
}

/** A fitted model and its objective on the training queries. */
export interface FitResult {
  model: RankingModel;
  /** Mean objective of the model (each term at its level's scorer), objective weights normalised. */
  value: number;
  /** The same for the pipeline score alone. */
  initialValue: number;
}

/**
 * Fits a model on training queries with the learner of `opts`: (bagged) coordinate ascent of the
 * main linear model and the own models of the levels in `opts.levels`, or LambdaMART trees for
 * the function level and the levels in `opts.levelTrees`.
 * @throws IssuelocError for a bad objective, no training query, or LambdaMART options out of range.
 */
export function fitModel(queries: readonly TrainingQuery[], opts: FitOptions = {}): FitResult {
  const labelled = queries.map(labelQuery);
  const objective = opts.objective ?? DEFAULT_OBJECTIVE;
  const spec = (opts.learner ?? DEFAULT_LEARNER) === 'lambdamart' ? lambdaMartSpec(labelled, opts) : linearSpec(labelled, objective, opts);
  const model = new RankingModel({
    ...spec.parts,
    candidates: opts.candidates ?? DEFAULT_CANDIDATES,
    training: { learner: opts.learner ?? DEFAULT_LEARNER, ...spec.summary, queries: queries.length, ...opts.training },
  });
  const terms = parseObjective(objective);
  return {
    model,
    value: modelObjective(labelled, model, terms),
    initialValue: modelObjective(labelled, new RankingModel({ weights: { pipeline: 1 }, candidates: model.candidates }), terms),
  };
}

type ModelParts = Pick<ModelFile, 'weights' | 'trees' | 'levels' | 'levelTrees'>;

function linearSpec(labelled: readonly LabelledQuery[], objective: string, opts: FitOptions): { parts: ModelParts; summary: Record<string, unknown> } {
  const fitOne = (spec: string, features?: readonly FeatureName[]) => {
    const fit = baggedAscent(labelled, {
      objective: parseObjective(spec), features, restarts: opts.restarts, seed: opts.seed, onPass: opts.onPass, bags: opts.bags,
    });
    const weights: Record<string, number> = {};
    FEATURES.forEach((f, j) => { if (fit.weights[j] !== 0) weights[f] = Number(fit.weights[j].toPrecision(6)); });
    return { weights, summary: { objective: spec, train: Number(fit.value.toFixed(4)), pipelineAlone: Number(fit.initialValue.toFixed(4)) } };
  };
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
  return {
    parts: { weights: main.weights, ...(Object.keys(levels).length > 0 ? { levels } : {}) },
    summary: { ...main.summary, ...(Object.keys(levelSummaries).length > 0 ? { levels: levelSummaries } : {}), bags: opts.bags ?? 1 },
  };
}

function lambdaMartSpec(labelled: readonly LabelledQuery[], opts: FitOptions): { parts: ModelParts; summary: Record<string, unknown> } {
  const names = FEATURES as readonly string[];
  const balance = opts.balance && opts.balance.by !== 'none' ? queryWeights(labelled.map((q) => q.query), opts.balance.by, opts.balance.power) : undefined;
  const fitLevel = (level: Level) => {
    const fit = fitLambdaMart(labelled, level, { ...opts.lambdamart, features: opts.features, ...(balance ? { queryWeights: balance } : {}) });
    const weights: Record<string, number> = {};
    FEATURES.forEach((f, j) => { if (fit.init[j] !== 0) weights[f] = fit.init[j]; });
    return { weights, trees: fit.ensemble.toJson(names), summary: { ndcg: Number(fit.ndcg.toFixed(4)), pipelineAlone: Number(fit.initialNdcg.toFixed(4)) } };
  };
  const main = fitLevel(opts.labels ?? 'function');
  const levels: NonNullable<ModelFile['levels']> = {};
  const levelTrees: NonNullable<ModelFile['levelTrees']> = {};
  const summaries: Record<string, unknown> = { [opts.labels ?? 'function']: main.summary };
  for (const level of opts.levelTrees ?? []) {
    const own = fitLevel(level);
    levels[level] = own.weights;
    levelTrees[level] = own.trees;
    summaries[level] = own.summary;
  }
  const o = lambdaMartSettings(opts.lambdamart ?? {});
  return {
    parts: { weights: main.weights, trees: main.trees, ...(Object.keys(levels).length > 0 ? { levels, levelTrees } : {}) },
    summary: {
      trees: o.trees, maxDepth: o.maxDepth, learningRate: o.learningRate, minLeaf: o.minLeaf, l2: o.l2, maxBins: o.maxBins, ndcg: summaries,
      ...(opts.labels && opts.labels !== 'function' ? { labels: opts.labels } : {}),
      ...(balance ? { balance: { by: opts.balance!.by, power: opts.balance!.power ?? 1 } } : {}),
    },
  };
}

/**
 * Mean objective of a model over labelled queries: each term's metric at its level, from that
 * level's scorer (objective weights normalised to sum 1).
 */
export function modelObjective(labelled: readonly LabelledQuery[], model: RankingModel, terms: readonly ObjectiveTerm[]): number {
  const norm = terms.reduce((s, t) => s + t.weight, 0) * labelled.length;
  let sum = 0;
  for (const q of labelled) {
    const scores = new Map<unknown, Float64Array>();
    for (const t of terms) {
      const scorer = model.scorers[t.level];
      let s = scores.get(scorer);
      if (!s) scores.set(scorer, (s = scorer.score(q.query.features, q.query.n)));
      sum += queryObjective(q, s, [t]);
    }
  }
  return norm > 0 ? sum / norm : 0;
}
