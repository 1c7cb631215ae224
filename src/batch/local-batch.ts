/**
 * The embedded default: a batch's jobs run in this process on a {@link ThreadPool}, with the
 * queue's failure semantics: an attempt that fails is retried after a back-off, a job that
 * fails `attempts` times is parked as failed (`failed/<id>.json`) with its last error, a job
 * whose input is bad is parked at once.
 */
import type { BatchJob } from './job-spec.js';
import { clearFailed, isDone, writeFailed } from './results-folder.js';
import { BadJobInput, ThreadPool } from './thread-pool.js';

/** Options of {@link runLocalBatch}. */
export interface LocalBatchOptions {
  /** Threads (default 1). */
  concurrency?: number;
  /** Attempts per job before it is parked as failed (default 3). */
  attempts?: number;
  /** Back-off before the n-th retry: `backoffMs · 2^(n-1)` milliseconds (default 1000). */
  backoffMs?: number;
  /** Jobs finished (done, existing or failed) of all. */
  onProgress?: (finished: number, total: number) => void;
}

/** What a local run did. */
export interface LocalBatchResult { done: number; existing: number; failed: number; millis: number }

/** Runs `jobs` (those without a result) to completion or failure. */
export async function runLocalBatch(jobs: readonly BatchJob[], opts: LocalBatchOptions = {}): Promise<LocalBatchResult> {
  const t0 = performance.now();
  const attempts = opts.attempts ?? 3;
  const backoff = opts.backoffMs ?? 1000;
  const result: LocalBatchResult = { done: 0, existing: 0, failed: 0, millis: 0 };
  let finished = 0;
  const tick = () => opts.onProgress?.(++finished, jobs.length);
  opts.onProgress?.(0, jobs.length);
  const todo = jobs.filter((j) => {
    if (!isDone(j.results, j.id)) return true;
    result.existing++;
    tick();
    return false;
  });
  const pool = new ThreadPool(Math.max(1, Math.min(opts.concurrency ?? 1, todo.length || 1)));
  try {
    await Promise.all(todo.map(async (job) => {
      clearFailed(job.results, job.id);
      for (let attempt = 1; ; attempt++) {
        try {
          const o = await pool.run(job);
          result[o.status === 'done' ? 'done' : 'existing']++;
          break;
        } catch (e) {
          const message = (e as Error).message;
          if (e instanceof BadJobInput || attempt >= attempts) {
            writeFailed(job, attempt, message);
            result.failed++;
            break;
          }
          await new Promise((r) => setTimeout(r, backoff * 2 ** (attempt - 1)));
        }
      }
      tick();
    }));
  } finally {
    await pool.close();
  }
  result.millis = performance.now() - t0;
  return result;
}
