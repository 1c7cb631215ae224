/**
 * `GET /metrics`: Prometheus text from a registry of the server's own (prom-client): requests by
 * route, method and status, their latency, the localize requests refused for overload, the pool's
 * counters (index cache hits and misses, builds, evictions) and warm bytes, answer cache hits, and the process's
 * default metrics (RSS, CPU, event-loop lag).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BackendStats } from './backend.js';

/** The server's metrics; {@link observe} each answered request. */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly latency: Histogram<'route'>;

  /** @param stats the pool counters, read at each scrape. */
  constructor(stats: () => Promise<BackendStats>) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'issueloc_http_requests_total', help: 'HTTP requests answered, by route, method and status', labelNames: ['route', 'method', 'status'], registers });
    this.latency = new Histogram({
      name: 'issueloc_http_request_duration_seconds', help: 'Time from request to response, by route', labelNames: ['route'], registers,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 30],
    });
    let last: Promise<BackendStats> | undefined;
    // one read of the counters per scrape, shared by the metrics below
    const read = () => (last ??= stats().finally(() => setImmediate(() => { last = undefined; })));
    const fromStats = (name: string, help: string, field: keyof BackendStats, kind: 'counter' | 'gauge') => {
      const Metric = kind === 'counter' ? Counter : Gauge;
      new Metric({
        name, help, registers,
        async collect(this: Counter | Gauge) {
          const value = (await read())[field] ?? 0;
          this.reset();
          if (this instanceof Gauge) this.set(value);
          else this.inc(value);
        },
      });
    };
    fromStats('issueloc_index_cache_hits_total', 'Localize requests whose index was warm', 'hits', 'counter');
    fromStats('issueloc_index_cache_misses_total', 'Localize requests that waited for their index to be opened', 'misses', 'counter');
    fromStats('issueloc_index_builds_total', 'Indexes opened (built, or loaded from the disk cache)', 'builds', 'counter');
    fromStats('issueloc_index_build_failures_total', 'Index openings that failed', 'buildFailures', 'counter');
    fromStats('issueloc_index_builds_cancelled_total', 'Index builds cancelled because no request waited for them any more', 'buildsCancelled', 'counter');
    fromStats('issueloc_index_evictions_total', 'Warm indexes closed to stay under the memory budget', 'evictions', 'counter');
    fromStats('issueloc_answer_cache_hits_total', 'Localize requests answered from the answer cache (the same request asked again)', 'answerHits', 'counter');
    fromStats('issueloc_index_warm', 'Warm indexes', 'warmEntries', 'gauge');
    fromStats('issueloc_index_warm_bytes', 'Estimated bytes of the warm indexes', 'warmBytes', 'gauge');
    collectDefaultMetrics({ register: this.registry, prefix: 'issueloc_' });
  }

  /** Counts one answered request and its latency in seconds. */
  observe(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.latency.observe({ route }, seconds);
  }
}
