/**
 * The state of a batch: each job of the manifest is done (its result is in the results folder),
 * or, as the queue tells, running, waiting (also delayed for a back-off) or failed (with its last
 * error); without a queue, failed (parked by the in-process pool) or missing (never run, or
 * interrupted).
 */
import type { ConnectionOptions } from 'bullmq';
import { jobLabel, type BatchJob } from './job-spec.js';
import { failedRecord, isDone, readManifest } from './results-folder.js';

export type JobState = 'done' | 'running' | 'waiting' | 'failed' | 'missing';

/** One job's state. */
export interface JobStatus { id: string; label: string; state: JobState; error?: string; attempts?: number }

/** A batch's counts and its jobs. */
export interface BatchStatus { counts: Record<JobState, number>; jobs: JobStatus[] }

/** The status of the batch in `results` (with the queue's view of unfinished jobs when given). */
export async function batchStatus(results: string, connection?: ConnectionOptions): Promise<BatchStatus> {
  const jobs = readManifest(results);
  const open = jobs.filter((j) => !isDone(results, j.id));
  const states = connection && open.length > 0 ? await (await import('./redis-queue.js')).queueStates(connection, open) : new Map();
  const counts: Record<JobState, number> = { done: 0, running: 0, waiting: 0, failed: 0, missing: 0 };
  const out: JobStatus[] = jobs.map((j: BatchJob): JobStatus => {
    const base = { id: j.id, label: jobLabel(j.spec) };
    if (isDone(results, j.id)) return { ...base, state: 'done' };
    const q = states.get(j.id);
    if (q) {
      const state: JobState = q.state === 'active' ? 'running' : q.state === 'failed' ? 'failed' : q.state === 'completed' ? 'missing' : 'waiting';
      return { ...base, state, ...(q.error ? { error: q.error } : {}), attempts: q.attempts };
    }
    const f = failedRecord(results, j.id);
    if (f) return { ...base, state: 'failed', error: f.error, attempts: f.attempts };
    return { ...base, state: 'missing' };
  });
  for (const s of out) counts[s.state]++;
  return { counts, jobs: out };
}

/** `done 3 · running 1 · waiting 0 · failed 1 · missing 0 (of 5)`. */
export function statusLine(s: BatchStatus): string {
  const c = s.counts;
  return `done ${c.done} · running ${c.running} · waiting ${c.waiting} · failed ${c.failed} · missing ${c.missing} (of ${s.jobs.length})`;
}
