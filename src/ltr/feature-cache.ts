/**
 * Candidate features cached on disk, one file per issue, under a folder named by a digest of
 * everything that changes them (the feature registry's {@link FEATURE_VERSION}, index format and
 * settings, query weighting, candidate pipeline, evidence used):
 * index builds are the slow part of training, so features are extracted once and models are
 * fitted many times. An issue's file is named by what its features are a function of: the
 * repository, the base commit (history features see its ancestors only), the issue's id and
 * text, and with similar-issue evidence the earlier issues it is computed from.
 */
import { join } from 'node:path';
import { isInt, isRecord, isStringArray, readCheckedJson, writeCheckedJson } from '../util/checked-file.js';
import { FEATURES, FEATURE_VERSION } from './features/registry.js';
import { INDEX_FORMAT_VERSION } from '../index/code-index.js';
import { DEFAULT_TITLE_WEIGHT } from '../retrieve/query.js';
import type { SimilarIssues } from '../history/similar-issues.js';
import type { LabelledIssue } from './labelled-issues.js';
import type { TrainingQuery } from './objective.js';
import { sha1Hex } from '../util/sha1.js';

/** Tag of the cache files (src/util/checked-file.ts); part of the folder key, so older formats are not read. */
const FEATURES_TAG = 'feat.v2';

/**
 * The cache folder's name for `settings` (see {@link FeatureCache}) and a features' version
 * (default the registry's): 12 hex digits.
 */
export function featureCacheKey(settings: unknown, featureVersion: string = FEATURE_VERSION): string {
  return sha1Hex(JSON.stringify([featureVersion, FEATURES_TAG, INDEX_FORMAT_VERSION, DEFAULT_TITLE_WEIGHT, settings])).slice(0, 12);
}

type StoredQuery = Omit<TrainingQuery, 'features' | 'gold'> & { features: string };

/** A per-issue cache of {@link TrainingQuery} features. */
export class FeatureCache {
  readonly dir: string;

  /**
   * @param root the cache root folder.
   * @param settings everything besides the features' version that changes the features (JSON-able).
   * @param similarIssues the similar-issue evidence per repository (`owner/name`), when used:
   *   each issue's entry is keyed by the earlier issues its score reads.
   */
  constructor(root: string, settings: unknown, private readonly similarIssues?: (repo: string) => SimilarIssues | undefined) {
    this.dir = join(root, featureCacheKey(settings));
  }

  private fileOf(issue: LabelledIssue): string {
    const similar = this.similarIssues?.(issue.repo)?.digestBefore(issue.created) ?? '';
    const name = sha1Hex(JSON.stringify([issue.repo, issue.id, issue.commit, issue.text, similar])).slice(0, 20);
    return join(this.dir, `${name}.json`);
  }

  /** The cached features of an issue (gold taken from the issue), or undefined (missing, or corrupt: then one warning line). */
  get(issue: LabelledIssue): TrainingQuery | undefined {
    const v = readCheckedJson(this.fileOf(issue), FEATURES_TAG, isStoredQuery);
    if (!v) return undefined;
    const buf = Buffer.from(v.features, 'base64');
    const features = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    return { ...v, features, gold: issue.gold };
  }

  /** Stores an issue's features (atomically). */
  set(issue: LabelledIssue, q: TrainingQuery): void {
    const { features, gold: _gold, ...rest } = q;
    const data = Buffer.from(features.buffer, features.byteOffset, features.byteLength).toString('base64');
    writeCheckedJson(this.fileOf(issue), FEATURES_TAG, { ...rest, features: data }, { fsync: false });
  }
}

/** Whether `x` is a stored query whose arrays agree with its candidate count. */
function isStoredQuery(x: unknown): x is StoredQuery {
  if (!isRecord(x) || typeof x.id !== 'string' || typeof x.repo !== 'string' || !isInt(x.n) || typeof x.features !== 'string') return false;
  const n = x.n;
  return [x.ids, x.paths, x.modules].every((a) => isStringArray(a) && a.length === n) &&
    Buffer.byteLength(x.features, 'base64') === 4 * n * FEATURES.length &&
    (x.otherFiles === undefined || (Array.isArray(x.otherFiles) && x.otherFiles.every((o: unknown) => isRecord(o) && typeof o.path === 'string' && typeof o.score === 'number')));
}
