/**
 * A pool of worker threads that run batch jobs ({@link runJob}), one at a time each: the CPU
 * work of jobs runs in parallel while the calling thread stays free (for a queue's lock
 * renewals, a progress bar). A thread that dies mid-job fails that job's attempt and is replaced.
 */
import { Worker } from 'node:worker_threads';
import { IssuelocError } from '../errors.js';
import type { BatchJob } from './job-spec.js';
import type { JobOutcome } from './run-job.js';

/** A message from a pool thread: the outcome of its job, or its error. */
export type ThreadReply = { ok: true; outcome: JobOutcome } | { ok: false; message: string; badInput: boolean; exitCode: number };

interface Slot { worker: Worker; busy: boolean }
interface Pending { job: BatchJob; resolve: (o: JobOutcome) => void; reject: (e: Error) => void }

/** {@link ThreadPool.run}'s error for a job that failed because of its input (retrying will not help). */
export class BadJobInput extends IssuelocError {}

export class ThreadPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private closed = false;

  /** @param size threads (1 or more). */
  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new IssuelocError(`the pool needs 1 or more threads, got ${size}`);
  }

  /**
   * Runs one attempt of `job` on a free thread (queued until one is free).
   * @throws BadJobInput for an IssuelocError of the job; an Error for any other failure,
   *   including a thread that died.
   */
  run(job: BatchJob): Promise<JobOutcome> {
    if (this.closed) return Promise.reject(new Error('the pool is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      this.start(slot, this.waiting.shift()!);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(new URL('./pool-thread.js', import.meta.url)), busy: false };
    slot.worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, p: Pending): void {
    slot.busy = true;
    slot.worker.ref();
    const done = () => {
      slot.worker.off('message', onMessage);
      slot.worker.off('error', onError);
      slot.worker.off('exit', onExit);
      slot.busy = false;
      slot.worker.unref();
    };
    const drop = () => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
    };
    const onMessage = (m: ThreadReply) => {
      done();
      if (m.ok) p.resolve(m.outcome);
      else p.reject(m.badInput ? new BadJobInput(m.message, m.exitCode) : new Error(m.message));
      this.pump();
    };
    const onError = (e: Error) => {
      done();
      drop();
      void slot.worker.terminate();
      p.reject(new Error(`worker thread failed: ${e.message}`));
      this.pump();
    };
    const onExit = (code: number) => {
      done();
      drop();
      p.reject(new Error(`worker thread exited with code ${code}`));
      this.pump();
    };
    slot.worker.on('message', onMessage);
    slot.worker.on('error', onError);
    slot.worker.on('exit', onExit);
    slot.worker.postMessage(p.job);
  }

  /** Stops every thread (a job still running is abandoned: its attempt leaves no result). */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.waiting.splice(0)) p.reject(new Error('the pool is closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }
}
