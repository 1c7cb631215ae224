/**
 * Batch jobs: one unit of batch work each (mine one repository's dataset, index one commit,
 * localize one shard of a JSONL of issues, evaluate one shard of a dataset), written down as plain JSON so
 * it can travel through a queue. A job's id is a digest of its kind, inputs and settings and of
 * the content of its inputs (the issue file's bytes, the commits the revisions name), so the
 * same work enqueued twice is one job, and changed inputs are a new one.
 */
import { createHash } from 'node:crypto';
import { packageVersion } from '../version.js';
import type { IndexSettings } from '../index/code-index.js';

/** The job kinds. */
export const JOB_KINDS = ['dataset', 'index', 'localize', 'eval'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Mine one repository's dataset (`issueloc dataset build`). */
export interface DatasetJob {
  kind: 'dataset';
  /** Absolute path of the repository (work tree or bare). */
  repo: string;
  /** Absolute path of the issue file (any format `readIssues` reads). */
  issues: string;
  /** Jira project keys to find in first lines of commit messages; none with `github`. */
  keys: string[];
  /** Find GitHub references (#N, fixes #N). */
  github: boolean;
  /** Sample variant (`first-commit` …). */
  variant: string;
  /** Also fill positiveFunctions. */
  functions: boolean;
  /** Revisions whose history is mined. */
  revs: string[];
}

/** Index one commit (`issueloc index`). */
export interface IndexJob {
  kind: 'index';
  repo: string;
  /** The commit (full SHA, resolved at enqueue). */
  commit: string;
  /** Index settings overriding the defaults (none: the defaults). */
  settings: Partial<IndexSettings>;
  /** Cache folder (default: the repository's default cache folder). */
  cacheDir?: string;
}

/** Localize one shard of a JSONL of issues (`issueloc localize` per line). */
export interface LocalizeJob {
  kind: 'localize';
  repo: string;
  /** Absolute path of the JSONL: one `{ "id"?, "text" | "title"+"body", "rev"? }` a line. */
  issues: string;
  /** This job's shard: lines whose 0-based number modulo `shards` is `shard`. */
  shard: number;
  shards: number;
  /** Items per level. */
  top: number;
  /** The base commit of lines without `rev` (resolved at enqueue). */
  commit: string;
  cacheDir?: string;
  /** Which rankings each line holds (as `localize --level`; default all). */
  level?: 'file' | 'module' | 'function' | 'all';
  /** The learned-model stage (as `localize --model`: `default`, `none`, `repo[@REV]` or an absolute model file); default: localize's. */
  model?: string;
}

/** Evaluate the file retrievers on one shard of a dataset (`issueloc eval`; src/batch/eval-shards.ts). */
export interface EvalJob {
  kind: 'eval';
  /** Absolute path of the dataset file. */
  dataset: string;
  repo?: string;
  mirrors?: string;
  retrievers: string[];
  split: 'temporal' | 'all';
  /** This job's shard: the `shard`-th (0-based) of `shards` contiguous slices of the run's work order. */
  shard: number;
  shards: number;
}

export type JobSpec = DatasetJob | IndexJob | LocalizeJob | EvalJob;

/** A job as queued: its id, what it does, and where its result goes. */
export interface BatchJob {
  /** {@link jobId} of `spec` and `fingerprint`. */
  id: string;
  spec: JobSpec;
  /** Digest of the input content the spec names by path (file bytes, resolved commits). */
  fingerprint: string;
  /** Absolute path of the results folder (a path every worker sees). */
  results: string;
}

/** JSON with object keys sorted, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  ));
}

/** SHA-256 hex of some text. */
export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The id of a job: 32 hex digits of the SHA-256 of the issueloc version, the spec (kind, inputs,
 * settings; not the cache folder) and the fingerprint of the inputs' content.
 */
export function jobId(spec: JobSpec, fingerprint: string): string {
  const what = { ...spec, cacheDir: undefined }; // where indexes are cached changes no result
  return sha256(canonicalJson({ version: packageVersion(), spec: what, fingerprint })).slice(0, 32);
}

/** A short human label of a job for status lines: `index django@abc123def456`. */
export function jobLabel(spec: JobSpec): string {
  const name = (p: string | undefined) => (p ?? '').split('/').filter((s) => s !== '' && s !== 'repo' && s !== '.git').pop() ?? p ?? '';
  switch (spec.kind) {
    case 'dataset': return `dataset ${name(spec.repo)}`;
    case 'index': return `index ${name(spec.repo)}@${spec.commit.slice(0, 12)}`;
    case 'localize': return `localize ${name(spec.issues)} shard ${spec.shard + 1}/${spec.shards}`;
    case 'eval': return `eval ${name(spec.dataset)}${spec.shards > 1 ? ` shard ${spec.shard + 1}/${spec.shards}` : ''}`;
  }
}
