/**
 * Per-repository adaptation: the built-in model (src/ltr/default-model.json) with more LambdaMART
 * trees fitted on the repository's own history before a base commit B. Each commit of that
 * history is a pseudo-issue (its message stands for the issue, the files and functions it changed
 * are the positives; mined by src/history/commit-miner.ts), so a repository needs no issue tracker
 * export and no labels, in any language the index reads.
 *
 * How (fixed settings, {@link ADAPT_DEFAULTS}):
 * 1. The most recent `limit` pseudo-issues among B's ancestors, newest first, are cut into
 *    `snapshots` groups of consecutive commits; each group is asked at the merge base of its
 *    commits' parents (an ancestor of every one of them), so the index, the file history and the
 *    commit-message SimiScore a pseudo-issue sees are those of a state before its own commit: its
 *    own message and change never count as evidence for it.
 * 2. Candidates and features as for any labelled issue (src/ltr/train.ts `collectQueries`).
 * 3. Trees are boosted from the built-in model's scores (LambdaMART's gradients at those scores),
 *    at the function level or the file level. The number of trees and the level are chosen on a
 *    temporal hold-out of the pseudo-issues themselves (the newest `holdOut` share, fitted on the
 *    older ones; 0 trees — the built-in model — when nothing beats it), then refitted on all.
 *
 * Nothing after B is read: the pseudo-issues are B's ancestors, and every snapshot is one too.
 */
import { IssuelocError } from '../errors.js';
import type { IndexSettings } from '../index/code-index.js';
import type { PseudoIssue } from '../history/commit-miner.js';
import type { GitRepo } from '../repo/git.js';
import { FEATURES } from './features/registry.js';
import type { LabelledIssue } from './labelled-issues.js';
import { fitLambdaMart } from './lambdamart.js';
import { RankingModel } from './model.js';
import { labelQuery, parseObjective, type LabelledQuery } from './objective.js';
import type { TreeNodeJson } from './regression-tree.js';
import { collectQueries, modelObjective } from './train.js';

/**
 * Where pseudo-issues come from: at most `limit` of the commits that are ancestors of `base`
 * (full SHA), newest first (default: the commit miner, src/ltr/adapt-source.ts).
 * @param cacheDir the repository's cache folder.
 */
export type PseudoIssueSource = (repo: GitRepo, base: string, limit: number, cacheDir: string) => Promise<PseudoIssue[]>;

/** Settings of an adaptation (part of the cache key). */
export interface AdaptSettings {
  /** Most recent pseudo-issues used. */
  limit: number;
  /** Groups of pseudo-issues, each asked at its own earlier snapshot. */
  snapshots: number;
  /** Most trees added to the built-in model. */
  maxTrees: number;
  /** Share of the newest pseudo-issues held out to choose the trees and level. */
  holdOut: number;
  /** Fewest pseudo-issues with a positive among the candidates to fit anything. */
  minExamples: number;
}

/**
 * Defaults: 400 commits in 4 snapshots trains in well under a minute on two cores for a repository
 * of a few thousand files (index builds of the snapshots aside: their blobs come from the blob
 * cache, so after the first only changed files are parsed).
 */
export const ADAPT_DEFAULTS: AdaptSettings = { limit: 400, snapshots: 4, maxTrees: 100, holdOut: 0.2, minExamples: 30 };

/** Version of the adaptation procedure (part of the cache key). */
export const ADAPT_VERSION = 'adapt.v1';

/** What the hold-out chose, and how well each choice did. */
export interface AdaptChoice {
  level: 'function' | 'file';
  trees: number;
  /** Hold-out objective of the built-in model and of the chosen one (file:MAP,function:MAP). */
  builtIn: number;
  chosen: number;
}

/**
 * How an adapted model was made, as its model file stores it (`training.adapted`), so a model read
 * back from the cache reports what its training run did.
 */
export interface AdaptedTraining {
  version: string;
  /** The base commit (full SHA). */
  base: string;
  /** Pseudo-issues mined before the base commit (absent in models cached before it was stored). */
  mined?: number;
  /** Those that gave a training query (a positive among the candidates). */
  pseudoIssues: number;
  level: AdaptChoice['level'];
  /** Trees added to the built-in model (0: it is the built-in model). */
  trees: number;
  /** Hold-out objective (file:MAP,function:MAP) of the built-in model and of the chosen one. */
  holdOut: { builtIn: number; adapted: number };
  /** The cache key (src/ltr/adapted-models.ts). */
  key?: string;
}

/** Options of {@link adaptModel}. */
export interface AdaptOptions {
  /** Folder of the index and history caches of this repository. */
  cacheDir: string;
  /** Index settings (those of the queries that will use the model). */
  index?: Partial<IndexSettings>;
  settings?: Partial<AdaptSettings>;
  source: PseudoIssueSource;
  /** Cache of extracted features (reused across runs; none = extract every time). */
  featuresCache?: string;
  /** Progress: the step, and (done, total) for feature extraction. */
  onProgress?: (step: 'mine' | 'features' | 'fit', done: number, total: number) => void;
}

/** An adapted model and how it was made. */
export interface AdaptResult {
  model: RankingModel;
  /** Pseudo-issues mined, and those that gave a training query (a positive among the candidates). */
  mined: number;
  used: number;
  choice: AdaptChoice;
  millis: number;
}

const OBJECTIVE = parseObjective('file:MAP,function:MAP');

/**
 * Adapts the built-in model to the history of `repo` before `base` (see the module comment).
 * With fewer than `minExamples` usable pseudo-issues the result is the built-in model (0 trees).
 * @param base full SHA of the base commit.
 * @throws IssuelocError when git cannot read the history.
 */
export async function adaptModel(repo: GitRepo, base: string, opts: AdaptOptions): Promise<AdaptResult> {
  const t0 = performance.now();
  const s = { ...ADAPT_DEFAULTS, ...opts.settings };
  const builtIn = RankingModel.load('default');
  opts.onProgress?.('mine', 0, 1);
  const pseudo = (await opts.source(repo, base, s.limit, opts.cacheDir)).filter((p) => p.parent !== '' && p.files.length > 0).slice(0, s.limit);
  opts.onProgress?.('mine', 1, 1);
  const issues = await labelledPseudoIssues(repo, pseudo, s.snapshots);
  const queries = await collectQueries(issues, {
    repoRoot: '', cacheRoot: opts.cacheDir, indexSettings: opts.index, candidates: { depth: builtIn.candidates.depth, ranking: builtIn.candidates.ranking },
    featuresCache: opts.featuresCache, onProgress: (done, total) => opts.onProgress?.('features', done, total),
  });
  opts.onProgress?.('fit', 0, 1);
  const labelled = queries.map(labelQuery).filter(hasPositive);
  const { model, choice } = fitAdapted(builtIn, labelled, s, { base, mined: pseudo.length });
  opts.onProgress?.('fit', 1, 1);
  return { model, mined: pseudo.length, used: labelled.length, choice, millis: performance.now() - t0 };
}

/**
 * Pseudo-issues (newest first) as labelled issues, each asked at the snapshot of its group: the
 * pseudo-issues are cut into `snapshots` groups of consecutive commits and each group is asked at
 * the merge base of its commits' parents, so no commit is evidence for itself (its own message
 * and change are after the snapshot). A group whose parents have no common ancestor is left out.
 * @param name the issues' `repo` (`owner/name`: names their cache folder under a cache root);
 *   default '' (the cache root is the repository's own cache folder).
 */
export async function labelledPseudoIssues(repo: GitRepo, pseudo: readonly PseudoIssue[], snapshots: number, name = ''): Promise<LabelledIssue[]> {
  const size = Math.max(1, Math.ceil(pseudo.length / Math.max(1, snapshots)));
  const out: LabelledIssue[] = [];
  for (let g = 0; g < pseudo.length; g += size) {
    const group = pseudo.slice(g, g + size);
    const snapshot = await mergeBase(repo, [...new Set(group.map((p) => p.parent))]);
    if (!snapshot) continue;
    for (const p of group) {
      out.push({
        id: `commit:${p.sha}`, repo: name, commit: snapshot, text: p.body ? `${p.subject}\n${p.body}` : p.subject, created: p.time * 1000, repoPath: repo.gitDir,
        gold: { function: p.functions, module: p.modules, file: p.files },
      });
    }
  }
  return out;
}

/** The best common ancestor of commits (`git merge-base --octopus`), or undefined when they have none. */
async function mergeBase(repo: GitRepo, commits: readonly string[]): Promise<string | undefined> {
  if (commits.length === 1) return commits[0];
  const res = await repo.exec(['merge-base', '--octopus', ...commits]);
  const sha = res.stdout.toString('utf8').trim();
  return res.code === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}

/** Whether a query has a gold candidate at the file level (else it teaches nothing). */
function hasPositive(q: LabelledQuery): boolean {
  return q.goldGroup.file.some((g) => g === 1);
}

/** The base commit a model is adapted at, and the pseudo-issues mined before it. */
interface Origin {
  base: string;
  mined: number;
}

/**
 * The built-in model plus the trees the hold-out chooses, refitted on every query (see the
 * module comment); the built-in model itself with too few queries.
 */
function fitAdapted(builtIn: RankingModel, labelled: readonly LabelledQuery[], s: AdaptSettings, origin: Origin): { model: RankingModel; choice: AdaptChoice } {
  const start = (x: Float32Array, rows: number) => builtIn.scorers.function.score(x, rows);
  const none: AdaptChoice = { level: 'function', trees: 0, builtIn: 0, chosen: 0 };
  if (labelled.length < s.minExamples) return { model: withTrees(builtIn, [], 0.1, origin, labelled.length, none), choice: none };
  // queries are newest first: hold out the newest
  const cut = Math.max(1, Math.round(labelled.length * s.holdOut));
  const held = labelled.slice(0, cut);
  const train = labelled.slice(cut);
  const builtInValue = modelObjective(held, builtIn, OBJECTIVE);
  let choice: AdaptChoice = { ...none, builtIn: builtInValue, chosen: builtInValue };
  for (const level of ['function', 'file'] as const) {
    const fit = tryFit(train, level, s.maxTrees, start);
    if (!fit) continue;
    const trees = fit.ensemble.toJson(FEATURES as readonly string[]).trees;
    for (let t = 10; t <= trees.length; t += 10) {
      const value = modelObjective(held, withTrees(builtIn, trees.slice(0, t), fit.ensemble.learningRate, origin, 0, none), OBJECTIVE);
      if (value > choice.chosen + 1e-9) choice = { level, trees: t, builtIn: builtInValue, chosen: value };
    }
  }
  if (choice.trees === 0) return { model: withTrees(builtIn, [], 0.1, origin, labelled.length, choice), choice };
  const fit = tryFit(labelled, choice.level, choice.trees, start)!;
  return { model: withTrees(builtIn, fit.ensemble.toJson(FEATURES as readonly string[]).trees, fit.ensemble.learningRate, origin, labelled.length, choice), choice };
}

function tryFit(queries: readonly LabelledQuery[], level: 'function' | 'file', trees: number, start: (x: Float32Array, rows: number) => Float64Array) {
  try {
    return fitLambdaMart(queries, level, { trees, start });
  } catch (e) {
    if (e instanceof IssuelocError) return undefined; // no query with both gold and other candidates at this level
    throw e;
  }
}

/** The built-in model with `added` trees after its own, its training record saying how it was adapted. */
function withTrees(builtIn: RankingModel, added: readonly TreeNodeJson[], rate: number, origin: Origin, queries: number, choice: AdaptChoice): RankingModel {
  return withAddedTrees(builtIn, added, rate, {
    adapted: {
      version: ADAPT_VERSION, base: origin.base, mined: origin.mined, pseudoIssues: queries, level: choice.level, trees: choice.trees,
      holdOut: { builtIn: round(choice.builtIn), adapted: round(choice.chosen) },
    } satisfies AdaptedTraining,
  });
}

/**
 * `model` (a LambdaMART model) with `added` trees (fitted at learning rate `rate`, e.g. boosted
 * from its scores) after its own, in one ensemble at the model's learning rate (leaves rescaled);
 * `training` is merged into the model file's training record.
 */
export function withAddedTrees(model: RankingModel, added: readonly TreeNodeJson[], rate: number, training: Record<string, unknown>): RankingModel {
  const own = model.file.trees!;
  const scale = rate / own.learningRate;
  return new RankingModel({
    ...model.file,
    trees: { learningRate: own.learningRate, trees: [...own.trees, ...added.map((t) => scaleLeaves(t, scale))] },
    training: { ...model.file.training, ...training },
  });
}

function scaleLeaves(node: TreeNodeJson, k: number): TreeNodeJson {
  if (typeof node === 'number') return node * k;
  return [node[0], node[1], scaleLeaves(node[2], k), scaleLeaves(node[3], k)];
}

function round(x: number): number {
  return Number(x.toFixed(4));
}
