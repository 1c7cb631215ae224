/**
 * Adapted models in the cache: `<cacheDir>/models/adapted-<key>.json`, the key a digest of what
 * the model is a function of — the repository (its git folder), the base commit B (a SHA fixes
 * B's whole history, so a rewritten history gives another key; a shallow clone's cut is part of
 * the key too), the adaptation settings and
 * version, the index settings, the features' version and the built-in model it starts from. A
 * model is never reused for another history; a corrupt or foreign entry is rebuilt with one
 * warning.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_INDEX_SETTINGS, INDEX_FORMAT_VERSION, type IndexSettings } from '../index/code-index.js';
import type { GitRepo } from '../repo/git.js';
import { ADAPT_DEFAULTS, ADAPT_VERSION, adaptModel, type AdaptedTraining, type AdaptOptions, type AdaptResult, type AdaptSettings, type PseudoIssueSource } from './adapt.js';
import { minedPseudoIssues } from './adapt-source.js';
import { FEATURE_VERSION } from './features/registry.js';
import { DEFAULT_MODEL_PATH, RankingModel } from './model.js';

/** Options of {@link adaptedModel}. */
export interface AdaptedModelOptions extends Omit<AdaptOptions, 'source' | 'settings'> {
  settings?: Partial<AdaptSettings>;
  /** Default: the commit miner's pseudo-issues. */
  source?: PseudoIssueSource;
  /** Train again even when the cache holds the model. */
  force?: boolean;
  /** Told of a cache entry that could not be used (then rebuilt). */
  onWarning?: (message: string) => void;
}

/** An adapted model, where it is stored, and whether it was trained now. */
export interface AdaptedModel {
  model: RankingModel;
  file: string;
  /** The training run, when the model was trained now (absent: read from the cache). */
  trained?: AdaptResult;
}

/** Tag of the pseudo-issue source, part of the key. */
const SOURCE_TAG = 'commit-miner.v1';

/**
 * The commits a shallow clone's history is cut at (git's `shallow` file; in a linked work tree,
 * the common folder's), or null for a whole history: a deepened or unshallowed clone has
 * another history before the same base commit, so another key.
 */
function shallowCut(repo: Pick<GitRepo, 'gitDir' | 'isShallow'>): string | null {
  if (!repo.isShallow) return null;
  const dirs = [repo.gitDir];
  try {
    dirs.push(resolve(repo.gitDir, readFileSync(join(repo.gitDir, 'commondir'), 'utf8').trim()));
  } catch { /* not a linked work tree */ }
  for (const dir of dirs) {
    try {
      return readFileSync(join(dir, 'shallow'), 'utf8');
    } catch { /* try the next */ }
  }
  return 'shallow';
}

/** The cache key of the model adapted at `base` (24 hex digits). */
export function adaptedModelKey(repo: Pick<GitRepo, 'gitDir' | 'isShallow'>, base: string, settings: AdaptSettings, index: Partial<IndexSettings> = {}): string {
  const builtIn = createHash('sha256').update(readFileSync(DEFAULT_MODEL_PATH)).digest('hex');
  const parts = [ADAPT_VERSION, SOURCE_TAG, FEATURE_VERSION, INDEX_FORMAT_VERSION, repo.gitDir, base, settings, { ...DEFAULT_INDEX_SETTINGS, ...index }, builtIn];
  const cut = shallowCut(repo);
  if (cut !== null) parts.push(cut);
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);
}

/** The file of an adapted model in the cache folder. */
export function adaptedModelFile(cacheDir: string, key: string): string {
  return join(cacheDir, 'models', `adapted-${key}.json`);
}

/**
 * The model adapted to `repo`'s history before `base` (full SHA): from the cache when it holds
 * it, else trained (src/ltr/adapt.ts) and stored atomically.
 * @throws IssuelocError when git cannot read the history or the cache folder cannot be written.
 */
export async function adaptedModel(repo: GitRepo, base: string, opts: AdaptedModelOptions): Promise<AdaptedModel> {
  const settings = { ...ADAPT_DEFAULTS, ...opts.settings };
  const key = adaptedModelKey(repo, base, settings, opts.index);
  const file = adaptedModelFile(opts.cacheDir, key);
  if (!opts.force && existsSync(file)) {
    try {
      const model = RankingModel.load(file);
      const adapted = model.file.training?.adapted as AdaptedTraining | undefined;
      if (adapted?.key === key) return { model, file };
      opts.onWarning?.(`adapted model ${file} is for another history or settings: training it again`);
    } catch (e) {
      opts.onWarning?.(`adapted model ${file} is unreadable (${(e as Error).message}): training it again`);
    }
  }
  const trained = await adaptModel(repo, base, { ...opts, settings, source: opts.source ?? minedPseudoIssues });
  (trained.model.file.training!.adapted as AdaptedTraining).key = key;
  trained.model.save(file);
  return { model: trained.model, file, trained };
}
