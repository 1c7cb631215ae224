/**
 * From what the user names (repositories, commits, an issue file, datasets) to batch jobs:
 * paths made absolute, revisions resolved to commits and input files digested, so each job's
 * id ({@link jobId}) says exactly what it computes.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { IssuelocError } from '../errors.js';
import type { IndexSettings } from '../index/code-index.js';
import { readRows } from '../dataset/import/rows.js';
import { REMOTE_REVISIONS } from '../repo/revision.js';
import { GitRepo } from '../repo/git.js';
import { MAX_ISSUE_FILE_BYTES, parseIssueLine } from './issue-line.js';
import { jobId, sha256, type BatchJob, type JobSpec, type LocalizeJob } from './job-spec.js';

/** Most bytes of an input file digested into a job id. */
const MAX_DIGEST_BYTES = 1 << 30;

/** SHA-256 of a file's bytes. @throws IssuelocError naming a missing or huge file. */
export function fileDigest(path: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new IssuelocError(`cannot read ${path}: no such file`);
  }
  if (size > MAX_DIGEST_BYTES) throw new IssuelocError(`${path}: larger than ${MAX_DIGEST_BYTES} bytes`);
  return sha256(readFileSync(path));
}

/**
 * Commits of `revs` in `repo`, checked as a queued job's (one commit each, no commit-message search:
 * a worker elsewhere would run it). @throws IssuelocError for a non-repository or unknown revision.
 */
export async function resolveCommits(repo: string, revs: readonly string[]): Promise<string[]> {
  const r = await GitRepo.open(repo);
  try {
    const out: string[] = [];
    for (const rev of revs) out.push(await r.resolveCommit(rev, { rules: REMOTE_REVISIONS }));
    return out;
  } finally {
    await r.close();
  }
}

function jobOf(spec: JobSpec, fingerprintParts: readonly string[], results: string): BatchJob {
  const fingerprint = sha256(fingerprintParts.join('\n'));
  return { id: jobId(spec, fingerprint), spec, fingerprint, results: resolve(results) };
}

/** One `index` job per (repository, revision). */
export async function planIndexJobs(
  commits: readonly { repo: string; rev: string }[], results: string, opts: { settings?: Partial<IndexSettings>; cacheDir?: string } = {},
): Promise<BatchJob[]> {
  const jobs: BatchJob[] = [];
  for (const c of commits) {
    const repo = resolve(c.repo);
    const [commit] = await resolveCommits(repo, [c.rev]);
    jobs.push(jobOf({ kind: 'index', repo, commit, settings: opts.settings ?? {}, ...(opts.cacheDir ? { cacheDir: resolve(opts.cacheDir) } : {}) }, [commit], results));
  }
  return jobs;
}

/** Settings shared by the `dataset` jobs of one enqueue. */
export interface DatasetPlanOptions { github: boolean; variant: string; functions: boolean; revs: readonly string[] }

/** One `dataset` job per repository (its issue file and Jira keys). */
export async function planDatasetJobs(
  rows: readonly { repo: string; issues: string; keys: string[] }[], results: string, opts: DatasetPlanOptions,
): Promise<BatchJob[]> {
  const jobs: BatchJob[] = [];
  for (const row of rows) {
    const repo = resolve(row.repo);
    const issues = resolve(row.issues);
    const digest = fileDigest(issues);
    const commits = await resolveCommits(repo, opts.revs);
    jobs.push(jobOf({ kind: 'dataset', repo, issues, keys: row.keys, github: opts.github, variant: opts.variant, functions: opts.functions, revs: [...opts.revs] }, [digest, ...commits], results));
  }
  return jobs;
}

/** `shards` `localize` jobs over one JSONL of issues. */
export async function planLocalizeJobs(
  repo: string, issues: string, results: string,
  opts: { shards: number; top: number; rev: string; cacheDir?: string; level?: LocalizeJob['level']; model?: string },
): Promise<BatchJob[]> {
  const path = resolve(issues);
  const digest = fileDigest(path);
  // a model file is named by its absolute path, and its bytes are part of the job's id
  const modelFile = opts.model !== undefined && !/^(default|none|repo(@.*)?)$/.test(opts.model) ? resolve(opts.model) : undefined;
  const model = modelFile ?? opts.model;
  const fingerprint = modelFile ? [digest, fileDigest(modelFile)] : [digest];
  const [commit] = await resolveCommits(resolve(repo), [opts.rev]);
  await checkIssueLines(resolve(repo), path);
  const jobs: BatchJob[] = [];
  for (let shard = 0; shard < opts.shards; shard++) {
    jobs.push(jobOf({
      kind: 'localize', repo: resolve(repo), issues: path, shard, shards: opts.shards, top: opts.top, commit,
      ...(opts.cacheDir ? { cacheDir: resolve(opts.cacheDir) } : {}),
      ...(opts.level && opts.level !== 'all' ? { level: opts.level } : {}), ...(model !== undefined ? { model } : {}),
    }, fingerprint, results));
  }
  return jobs;
}

/**
 * Every line of the JSONL `path` parses and its `"rev"`, if any, names a commit of `repo`.
 * @throws IssuelocError naming `file:line` (and the revision) for the first bad line.
 */
async function checkIssueLines(repo: string, path: string): Promise<void> {
  if (statSync(path).size > MAX_ISSUE_FILE_BYTES) throw new IssuelocError(`${path}: over ${MAX_ISSUE_FILE_BYTES} bytes`);
  const lines = readFileSync(path, 'utf8').split('\n');
  const git = await GitRepo.open(repo);
  try {
    const good = new Set<string>();
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() === '') continue;
      const where = `${path}:${i + 1}`;
      const rev = parseIssueLine(lines[i], where).rev;
      if (typeof rev !== 'string' || good.has(rev)) continue;
      try {
        await git.resolveCommit(rev, { rules: REMOTE_REVISIONS });
      } catch (e) {
        if (e instanceof IssuelocError) throw new IssuelocError(`${where}: "rev": ${e.message}`);
        throw e;
      }
      good.add(rev);
    }
  } finally {
    await git.close();
  }
}

/**
 * The `eval` jobs of each dataset file: `shards` of them, or ⌈rows / `shardSize`⌉ (rows of the
 * file, before records are checked: about `shardSize` issues each).
 */
export async function planEvalJobs(
  datasets: readonly string[], results: string,
  opts: { repo?: string; mirrors?: string; retrievers: string[]; split: 'temporal' | 'all'; shards?: number; shardSize?: number },
): Promise<BatchJob[]> {
  if ((opts.repo === undefined) === (opts.mirrors === undefined)) throw new IssuelocError('eval jobs need --repo or --mirrors (one of them)');
  if (opts.shards !== undefined && opts.shardSize !== undefined) throw new IssuelocError('give --shards or --shard-size, not both');
  const jobs: BatchJob[] = [];
  for (const d of datasets) {
    const dataset = resolve(d);
    const parts = [fileDigest(dataset)];
    if (opts.repo) parts.push(...await resolveCommits(resolve(opts.repo), ['HEAD']));
    const shards = opts.shardSize !== undefined ? Math.max(1, Math.ceil(readRows(dataset).rows.length / opts.shardSize)) : (opts.shards ?? 1);
    for (let shard = 0; shard < shards; shard++) {
      jobs.push(jobOf({
        kind: 'eval', dataset, retrievers: opts.retrievers, split: opts.split, shard, shards,
        ...(opts.repo ? { repo: resolve(opts.repo) } : { mirrors: resolve(opts.mirrors!) }),
      }, parts, results));
    }
  }
  return jobs;
}
