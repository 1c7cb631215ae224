/**
 * `issueloc serve --workers N`: localize requests run on N worker threads (node:worker_threads),
 * each holding a {@link LocalizerPool} of its own (worker-main.ts), so N queries run at once and
 * the HTTP thread only parses and answers. A request goes to the least busy of its repository's
 * workers: `replicas` of them, starting at the repository's home worker (its place in the
 * configuration, modulo N). With replicas = N (the default) one busy repository uses every
 * thread; with replicas = 1 each repository's index lives in one thread only (RSS grows with
 * replicas: each thread holds its own copy, under the memory budget of its own pool).
 *
 * A worker that dies fails its requests in flight (500) and is started again.
 */
import { Worker } from 'node:worker_threads';
import type { ServiceConfig } from './config.js';
import { fromWire, type BackendStats, type LocalizeRequest, type RepoListing, type ServiceBackend, type WireError } from './backend.js';
import { ServiceError } from './errors.js';

/** A message to a worker. */
export type WorkerCall =
  | { id: number; op: 'localize'; request: LocalizeRequest; waitMs: number }
  | { id: number; op: 'repos' | 'stats' | 'close' }
  | { id: number; op: 'warm'; names: string[] }
  | { id: number; op: 'refresh'; name: string };

/** A worker's answer, or a warning it reports (`id` 0). */
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError } | { id: 0; warning: string };

/** A call without its id (a distributive Omit: each kind keeps its fields). */
type CallBody = WorkerCall extends infer C ? (C extends WorkerCall ? Omit<C, 'id'> : never) : never;

/** What a worker is started with. */
export interface WorkerData {
  config: ServiceConfig;
}

/** Options of {@link WorkerBackend}. */
export interface WorkerBackendOptions {
  /** Threads (1 or more). */
  workers: number;
  /** Workers per repository (1 … workers; default: workers). */
  replicas?: number;
  onWarning?: (message: string) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
  /** Requests sent and not answered. */
  busy: number;
}

/** Requests spread over worker threads; see the file comment. */
export class WorkerBackend implements ServiceBackend {
  private readonly slots: Slot[] = [];
  /** The workers of each configured repository, its home worker first. */
  private readonly serving = new Map<string, number[]>();
  /** The workers of a name not configured: the first's pool answers 404. */
  private readonly unknownServing: number[];
  private readonly replicas: number;
  private nextId = 1;
  private closing = false;
  private readonly warn: (message: string) => void;

  constructor(private readonly config: ServiceConfig, options: WorkerBackendOptions) {
    this.warn = options.onWarning ?? (() => {});
    this.replicas = Math.max(1, Math.min(options.workers, options.replicas ?? options.workers));
    const servedFrom = (home: number) => Array.from({ length: this.replicas }, (_, k) => (home + k) % options.workers);
    [...config.repositories.keys()].forEach((name, i) => this.serving.set(name, servedFrom(i % options.workers)));
    this.unknownServing = servedFrom(0);
    for (let i = 0; i < options.workers; i++) this.slots.push(this.start(i));
  }

  /** The workers that serve a repository (an unknown name goes to the first: its pool answers 404). */
  private workersOf(name: string): number[] {
    return this.serving.get(name) ?? this.unknownServing;
  }

  private start(i: number): Slot {
    const data: WorkerData = { config: this.config };
    const worker = new Worker(new URL('./worker-main.js', import.meta.url), { workerData: data });
    const slot: Slot = { worker, pending: new Map(), busy: 0 };
    worker.on('message', (m: WorkerReply) => {
      if ('warning' in m) return this.warn(m.warning);
      const p = slot.pending.get(m.id);
      if (!p) return;
      slot.pending.delete(m.id);
      slot.busy--;
      if (m.ok) p.resolve(m.value);
      else p.reject(fromWire(m.error));
    });
    worker.on('error', (e) => this.warn(`worker ${i}: ${e.message.split('\n')[0]}`));
    worker.on('exit', (code) => {
      for (const p of slot.pending.values()) p.reject(new ServiceError(`worker ${i} stopped (exit ${code})`, 500));
      slot.pending.clear();
      slot.busy = 0;
      if (!this.closing) {
        this.warn(`worker ${i} stopped (exit ${code}): starting another`);
        this.slots[i] = this.start(i);
      }
    });
    return slot;
  }

  private call<T>(i: number, message: CallBody): Promise<T> {
    const slot = this.slots[i];
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      slot.busy++;
      slot.worker.postMessage({ ...message, id });
    });
  }

  localize(request: LocalizeRequest, waitMs: number): Promise<string> {
    const candidates = this.workersOf(request.repository);
    let i = candidates[0];
    for (const c of candidates) if (this.slots[c].busy < this.slots[i].busy) i = c;
    return this.call<string>(i, { op: 'localize', request, waitMs });
  }

  async repos(): Promise<RepoListing[]> {
    const lists = await Promise.all(this.slots.map((_, i) => this.call<RepoListing[]>(i, { op: 'repos' })));
    return lists[0].map((r, k) => ({
      ...r,
      commit: lists.map((l) => l[k].commit).find((c) => c !== undefined),
      warm: lists.flatMap((l) => l[k].warm),
    }));
  }

  async stats(): Promise<BackendStats> {
    const all = await Promise.all(this.slots.map((_, i) => this.call<BackendStats>(i, { op: 'stats' })));
    const sum = { ...all[0] };
    for (const s of all.slice(1)) for (const k of Object.keys(sum) as (keyof BackendStats)[]) sum[k] = (sum[k] ?? 0) + (s[k] ?? 0);
    return sum;
  }

  async refreshDefault(name: string): Promise<string | undefined> {
    const moved = await Promise.all(this.workersOf(name).map((i) => this.call<string | undefined>(i, { op: 'refresh', name })));
    return moved.find((c) => c !== undefined);
  }

  async warmDefaults(): Promise<void> {
    const names = [...this.config.repositories.keys()];
    await Promise.all(this.slots.map((_, i) => this.call(i, { op: 'warm', names: names.filter((n) => this.workersOf(n).includes(i)) })));
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.slots.map(async (s, i) => {
      const bounded = new Promise((r) => setTimeout(r, 10_000).unref());
      await Promise.race([this.call(i, { op: 'close' }).catch(() => undefined), bounded]);
      await s.worker.terminate();
    }));
  }
}
