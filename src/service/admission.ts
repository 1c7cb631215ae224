/**
 * The one admission bound of `issueloc serve`: every piece of work (a `/v1/localize` request, each
 * localize call of an MCP request or JSON-RPC batch, a `/web/preview`) holds a slot until the work
 * itself ends — not when its caller stops waiting (504, a closed connection) — so at most
 * `limit` pieces run however callers behave. Past the bound: 429 with `Retry-After`; while
 * draining (SIGTERM): 503.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServiceBackend } from './backend.js';
import { ServiceError } from './errors.js';

/** Slots a request took before its calls start (an MCP request: one per call of its batch). */
interface Reservation { left: number }

/** Slots of work in flight; see the file comment. */
export class Admission {
  private held = 0;
  private draining = false;
  private readonly waiters = new Set<() => void>();
  private readonly reservation = new AsyncLocalStorage<Reservation>();

  constructor(readonly limit: number) {}

  /** Pieces of work in flight now. */
  get inFlight(): number { return this.held; }

  /** Slots free now (0 while draining). */
  get free(): number { return this.draining ? 0 : Math.max(0, this.limit - this.held); }

  /** Refuses new work from now on (503). */
  drain(): void { this.draining = true; }

  get isDraining(): boolean { return this.draining; }

  /** The error a request needing `n` slots gets now, or undefined when it may enter. */
  refusal(n = 1): ServiceError | undefined {
    if (this.draining) return new ServiceError('the service is shutting down', 503, 1);
    if (n > this.limit) return new ServiceError(`${n} calls in one request, more than the ${this.limit} that may be in flight: send fewer`, 429, 1);
    if (this.held + n > this.limit) return new ServiceError(`too many requests in flight (${this.limit}): retry later`, 429, 1);
    return undefined;
  }

  /**
   * Takes one slot for `work()` and gives it back when the work ends.
   * @throws ServiceError 429 past the bound, 503 while draining.
   */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const reserved = this.reservation.getStore();
    if (reserved && reserved.left > 0) {
      reserved.left--;
    } else {
      const refused = this.refusal();
      if (refused) throw refused;
      this.held++;
    }
    try {
      return await work();
    } finally {
      this.release(1);
    }
  }

  /**
   * Takes `n` slots at once for `handle()` (a request whose `n` calls start later): the calls it
   * makes through {@link run} use them; those not used are given back when `handle()` ends.
   * @throws ServiceError as {@link run}, for the `n` together.
   */
  async reserve<T>(n: number, handle: () => Promise<T>): Promise<T> {
    const refused = this.refusal(n);
    if (refused) throw refused;
    this.held += n;
    const reservation: Reservation = { left: n };
    try {
      return await this.reservation.run(reservation, handle);
    } finally {
      this.release(reservation.left);
      reservation.left = 0;
    }
  }

  private release(n: number): void {
    this.held -= n;
    if (this.held === 0) for (const w of [...this.waiters]) w();
  }

  /** Resolves when no work is in flight, or after `ms`. */
  idle(ms: number): Promise<void> {
    if (this.held === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => { clearTimeout(timer); this.waiters.delete(done); resolve(); };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}

/** `backend` with each localize call under `admission` (the slot held until the call's work ends). */
export function admitted(backend: ServiceBackend, admission: Admission): ServiceBackend {
  return {
    localize: (request, waitMs) => admission.run(() => backend.localize(request, waitMs)),
    repos: () => backend.repos(),
    stats: () => backend.stats(),
    refreshDefault: (name) => backend.refreshDefault(name),
    warmDefaults: () => backend.warmDefaults(),
    close: () => backend.close(),
  };
}
