/**
 * Function spans of blobs, parsed on worker threads when there are many (tree-sitter parsing is
 * most of the miner's time), in this thread otherwise. Each path goes to the same thread, which
 * keeps the last parse of its most recent paths and re-parses the path's next version from it
 * (tree-sitter's incremental parsing, src/corpus/reparse.ts): the miner asks for the versions of
 * a file one commit apart, so most parses re-read only what a commit changed.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { decodeSource } from '../../corpus/decode.js';
import { extractUnits, type Reparse } from '../../corpus/extract.js';
import type { KeptParse } from '../../corpus/reparse.js';
import type { FunctionSpan } from '../../dataset/function-positives.js';

/** Paths whose last parse a thread keeps (least recently used dropped first). */
const KEPT_PATHS = 256;

/** Texts longer than this (characters) are not kept for a re-parse (their trees are large). */
const MAX_KEPT_CHARS = 1 << 20;

/** The last parse of each of the most recent paths; trees live in wasm memory until {@link KeptParses.clear}. */
export class KeptParses {
  private readonly byPath = new Map<string, KeptParse>();

  /**
   * The `extractUnits` re-parse hook for `path`: parse from its kept parse, keep the new one.
   * `previous` is read when the parse starts (parses of one path may be in flight together).
   */
  for(path: string): Reparse {
    const byPath = this.byPath;
    return {
      get previous() {
        return byPath.get(path);
      },
      keep: (parse) => {
        this.drop(path);
        if (parse.text.length > MAX_KEPT_CHARS) {
          parse.tree.delete();
          return;
        }
        this.byPath.set(path, parse);
        if (this.byPath.size > KEPT_PATHS) this.drop(this.byPath.keys().next().value!);
      },
    };
  }

  /** Deletes every kept tree. */
  clear(): void {
    for (const path of [...this.byPath.keys()]) this.drop(path);
  }

  private drop(path: string): void {
    this.byPath.get(path)?.tree.delete();
    this.byPath.delete(path);
  }
}

/**
 * The function units of a source file's bytes as spans (the corpus extractor, as the index and
 * the gold rule use it); with `kept`, re-parsed from the path's kept parse (same spans, faster).
 */
export async function functionSpans(path: string, data: Buffer, kept?: KeptParses): Promise<FunctionSpan[]> {
  const units = await extractUnits(path, decodeSource(data), kept?.for(path));
  return units.filter((u) => u.kind === 'function').map((u) => ({
    qualifiedName: u.qualifiedName, ...(u.namespaceParts ? { namespaceParts: u.namespaceParts } : {}), startLine: u.startLine, endLine: u.endLine,
  }));
}

/** Parses blobs for function spans: `threads` worker threads (0 = in this thread). */
export class SpanPool {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (s: FunctionSpan[]) => void; reject: (e: Error) => void }>();
  private next = 0;
  /** Bytes sent to each thread and not answered yet. */
  private readonly pending: number[] = [];
  private readonly threadOfPath = new Map<string, number>();
  private failure: Error | undefined;

  /** Kept parses of the parses made in this thread (no worker threads). */
  private readonly kept = new KeptParses();

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
      this.pending.push(0);
    }
  }

  /** Worker threads worth starting for `blobs` parses: none for a few, else up to the cores (at most 4). */
  static threadsFor(blobs: number): number {
    return blobs < 200 ? 0 : Math.min(4, Math.max(1, availableParallelism()));
  }

  /** Spans of the functions of `data` (the file at `path`); a path is always parsed by the same thread. */
  parse(path: string, data: Buffer): Promise<FunctionSpan[]> {
    if (this.workers.length === 0) return functionSpans(path, data, this.kept);
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    const thread = this.threadOf(path);
    const worker = this.workers[thread];
    this.pending[thread] += data.length;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, path, data });
    }).finally(() => {
      this.pending[thread] -= data.length;
      if (this.waiting.size === 0) for (const w of this.workers) w.unref();
    }) as Promise<FunctionSpan[]>;
  }

  /** The thread of `path`: the one it went to before, else the one with the least work waiting. */
  private threadOf(path: string): number {
    let k = this.threadOfPath.get(path);
    if (k === undefined) {
      k = this.pending.indexOf(Math.min(...this.pending));
      this.threadOfPath.set(path, k);
    }
    return k;
  }

  private fail(e: Error): void {
    this.failure = e;
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }

  /** Stops the worker threads and deletes the kept parses. */
  async close(): Promise<void> {
    this.kept.clear();
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
}
