/**
 * The results folder of a batch (a path every worker sees):
 *
 * - `batch.json`: the manifest, every job enqueued into this folder (id, spec, fingerprint);
 * - `jobs/<id>/`: a finished job's result (`result.jsonl`, kind-specific files, `job.json`);
 * - `failed/<id>.json`: a job parked as failed by the in-process pool (attempts, last error);
 * - `tmp/`: attempts under way (never a result).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { jobLabel, type BatchJob } from './job-spec.js';

/** The folder of a job's result: `<results>/jobs/<id>`. */
export function resultDir(results: string, id: string): string {
  return join(results, 'jobs', id);
}

/** A job parked as failed: how many attempts it had and the last error. */
export interface FailedRecord { id: string; label: string; attempts: number; error: string }

const manifestPath = (results: string) => join(results, 'batch.json');

/**
 * The jobs of the manifest, in enqueue order (none when there is no manifest).
 * @throws IssuelocError naming the file when it is not a manifest.
 */
export function readManifest(results: string): BatchJob[] {
  const path = manifestPath(results);
  if (!existsSync(path)) return [];
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new IssuelocError(`${path}: not a batch manifest (${(e as Error).message})`);
  }
  const jobs = (v as { jobs?: unknown }).jobs;
  if (!Array.isArray(jobs)) throw new IssuelocError(`${path}: not a batch manifest (no "jobs" list)`);
  return jobs as BatchJob[];
}

/** Adds `jobs` to the manifest (jobs already there are kept once); returns how many were new. */
export function addToManifest(results: string, jobs: readonly BatchJob[]): number {
  const known = readManifest(results);
  const ids = new Set(known.map((j) => j.id));
  const fresh = jobs.filter((j) => !ids.has(j.id) && ids.add(j.id));
  if (fresh.length > 0 || !existsSync(manifestPath(results))) {
    writeFileAtomic(manifestPath(results), [`${JSON.stringify({ jobs: [...known, ...fresh] }, null, 1)}\n`]);
  }
  return fresh.length;
}

/** Whether a job's result is there. */
export function isDone(results: string, id: string): boolean {
  return existsSync(join(resultDir(results, id), 'job.json'));
}

/** The failed record of a job, if the in-process pool parked it. */
export function failedRecord(results: string, id: string): FailedRecord | undefined {
  const path = join(results, 'failed', `${id}.json`);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as FailedRecord;
  } catch {
    return { id, label: id, attempts: 0, error: `unreadable ${path}` };
  }
}

/** Parks a job as failed (atomically). */
export function writeFailed(job: BatchJob, attempts: number, error: string): void {
  const rec: FailedRecord = { id: job.id, label: jobLabel(job.spec), attempts, error };
  writeFileAtomic(join(job.results, 'failed', `${job.id}.json`), [`${JSON.stringify(rec)}\n`]);
}

/** Removes a failed record (the job is tried again). */
export function clearFailed(results: string, id: string): void {
  rmSync(join(results, 'failed', `${id}.json`), { force: true });
}
