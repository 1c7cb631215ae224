/**
 * `POST /web/preview` off the HTTP thread, on worker threads kept between requests
 * ({@link PreviewThreads}; preview-worker.ts): a thread answers one request at a time and keeps
 * its repositories open (their `git cat-file --batch` processes) for the next, so a preview costs
 * neither a thread's start nor a git process's. Each request is bounded in time (past the
 * deadline, or when the caller leaves, its thread is ended: 504 / 499) and memory (a thread over
 * its heap is ended: 413); preview.ts bounds what one request may read. A thread ended or failed
 * is never reused; at most {@link MAX_IDLE_THREADS} idle threads are kept (the admission bound of
 * the server bounds the busy ones).
 */
import { Worker } from 'node:worker_threads';
import { fromWire, type WireError } from '../backend.js';
import { ServiceError } from '../errors.js';
import type { ItemPreview, PreviewItem } from './preview.js';

/** What a thread is given for one request. */
export interface PreviewJob {
  repositoryPath: string;
  commit: string;
  items: PreviewItem[];
}

/** A thread's answer to one job. */
export type PreviewReply = { ok: true; previews: ItemPreview[] } | { ok: false; error: WireError };

/** Heap of a preview thread at most (MB): six 1 MiB files parsed take far less. */
const HEAP_MB = 256;
/** Idle threads kept for the next requests (each holds its open repositories, up to preview-worker.ts's bound). */
export const MAX_IDLE_THREADS = 2;

/** Preview threads reused between requests; see the file comment. {@link close} them when done. */
export class PreviewThreads {
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  private closed = false;

  /**
   * The previews of `job`, computed on a thread (an idle one, else a new one); past `timeoutMs`
   * a ServiceError 504, when `signal` aborts (the caller left) 499, the thread ended either way.
   */
  run(job: PreviewJob, timeoutMs: number, signal?: AbortSignal): Promise<ItemPreview[]> {
    if (this.closed) return Promise.reject(new ServiceError('the service is shutting down', 503, 1));
    const worker = this.idle.pop() ?? new Worker(new URL('./preview-worker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    worker.ref();
    this.busy.add(worker);
    return new Promise((resolve, reject) => {
      let settled = false;
      const end = (reuse: boolean, f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        this.busy.delete(worker);
        if (reuse && !this.closed && this.idle.length < MAX_IDLE_THREADS) {
          worker.unref(); // an idle thread does not keep the process alive
          this.idle.push(worker);
        } else {
          void worker.terminate();
        }
        f();
      };
      const timer = setTimeout(() => end(false, () => reject(new ServiceError(`preview not done within ${timeoutMs / 1000} s: ask for fewer items`, 504))), timeoutMs);
      const onAbort = () => end(false, () => reject(new ServiceError('the caller went away', 499)));
      const onMessage = (m: PreviewReply) => end(true, () => {
        if (m.ok) resolve(m.previews);
        else reject(m.error.status >= 500 ? new Error(m.error.message) : fromWire(m.error));
      });
      const onError = (e: Error) => end(false, () => reject((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ServiceError('preview too large: ask for fewer items', 413) : e));
      const onExit = () => end(false, () => reject(new Error('the preview thread ended without an answer')));
      signal?.addEventListener('abort', onAbort);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(job);
    });
  }

  /** Threads now: idle (kept for the next request) and busy. */
  get size(): { idle: number; busy: number } {
    return { idle: this.idle.length, busy: this.busy.size };
  }

  /** Ends every thread (their repositories close with them); later runs are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle.splice(0), ...this.busy];
    this.busy.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }
}
