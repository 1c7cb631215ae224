/**
 * Function spans of blobs, parsed on worker threads when there are many (tree-sitter parsing is
 * most of the miner's time), in this thread otherwise.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { decodeSource } from '../../corpus/decode.js';
import { extractUnits } from '../../corpus/extract.js';
import type { FunctionSpan } from '../../dataset/function-positives.js';

/** The function units of a source file's bytes as spans (the corpus extractor, as the index and the gold rule use it). */
export async function functionSpans(path: string, data: Buffer): Promise<FunctionSpan[]> {
  const units = await extractUnits(path, decodeSource(data));
  return units.filter((u) => u.kind === 'function').map((u) => ({
    qualifiedName: u.qualifiedName, ...(u.namespaceParts ? { namespaceParts: u.namespaceParts } : {}), startLine: u.startLine, endLine: u.endLine,
  }));
}

/** Parses blobs for function spans: `threads` worker threads (0 = in this thread). */
export class SpanPool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (s: FunctionSpan[]) => void; reject: (e: Error) => void }>();
  private next = 0;
  private failure: Error | undefined;

  constructor(threads: number) {
    for (let k = 0; k < threads; k++) {
      const w = new Worker(new URL('./span-worker.js', import.meta.url));
      w.on('message', (m: { id: number; spans?: FunctionSpan[]; error?: string }) => {
        const entry = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.spans) entry?.resolve(m.spans);
        else entry?.reject(new Error(m.error ?? 'span worker failed'));
      });
      w.on('error', (e) => this.fail(e));
      w.unref();
      this.workers.push(w);
    }
  }

  /** Worker threads worth starting for `blobs` parses: none for a few, else up to the cores (at most 4). */
  static threadsFor(blobs: number): number {
    return blobs < 200 ? 0 : Math.min(4, Math.max(1, availableParallelism()));
  }

  /** Spans of the functions of `data` (the file at `path`). */
  parse(path: string, data: Buffer): Promise<FunctionSpan[]> {
    if (this.workers.length === 0) return functionSpans(path, data);
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    const worker = this.workers[id % this.workers.length];
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, path, data });
    }).finally(() => {
      if (this.waiting.size === 0) for (const w of this.workers) w.unref();
    }) as Promise<FunctionSpan[]>;
  }

  private fail(e: Error): void {
    this.failure = e;
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}
