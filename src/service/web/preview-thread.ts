/**
 * `POST /web/preview` off the HTTP thread: each request runs on a worker thread of its own
 * (preview-worker.ts), bounded in time (the thread is ended at the deadline: 504) and memory;
 * preview.ts bounds what one request may read.
 */
import { Worker } from 'node:worker_threads';
import { fromWire, type WireError } from '../backend.js';
import { ServiceError } from '../errors.js';
import type { ItemPreview, PreviewItem } from './preview.js';

/** What the thread is given. */
export interface PreviewJob {
  repositoryPath: string;
  commit: string;
  items: PreviewItem[];
}

type PreviewReply = { ok: true; previews: ItemPreview[] } | { ok: false; error: WireError };

/** Heap of a preview thread at most (MB): six 1 MiB files parsed take far less. */
const HEAP_MB = 256;

/**
 * The previews of `job`, computed on a worker thread ended after `timeoutMs` (→ ServiceError 504)
 * or when `signal` aborts (the caller left).
 */
export function previewOffThread(job: PreviewJob, timeoutMs: number, signal?: AbortSignal): Promise<ItemPreview[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./preview-worker.js', import.meta.url), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    let settled = false;
    const end = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      f();
    };
    const timer = setTimeout(() => end(() => reject(new ServiceError(`preview not done within ${timeoutMs / 1000} s: ask for fewer items`, 504))), timeoutMs);
    const onAbort = () => end(() => reject(new ServiceError('the caller went away', 499)));
    signal?.addEventListener('abort', onAbort);
    worker.on('message', (m: PreviewReply) => end(() => {
      if (m.ok) resolve(m.previews);
      else reject(m.error.status >= 500 ? new Error(m.error.message) : fromWire(m.error));
    }));
    worker.on('error', (e) => end(() => reject((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ServiceError('preview too large: ask for fewer items', 413) : e)));
    worker.on('exit', () => end(() => reject(new Error('the preview thread ended without an answer'))));
  });
}
