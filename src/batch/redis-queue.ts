/**
 * Batch jobs on a distributed queue: BullMQ over Redis (`redis://HOST:PORT/N`). Enqueueing adds
 * each job under a queue id derived from its id and results folder, so enqueueing twice adds it
 * once. A worker process runs the jobs on its {@link ThreadPool}; BullMQ holds a lock per running
 * job, renewed by the worker: a worker killed mid-job stops renewing, and another worker's
 * stalled-job check puts the job back in the queue (its attempt left no result). Failed attempts
 * are retried with exponential back-off; after `attempts` the job is parked as failed with its error.
 */
import { Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { IssuelocError } from '../errors.js';
import { sha256, type BatchJob } from './job-spec.js';
import { BadJobInput, ThreadPool } from './thread-pool.js';

/** The BullMQ queue name. */
export const QUEUE_NAME = 'issueloc-batch';

/** Default wait for Redis to answer, milliseconds. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** A parsed `--queue` URL. */
export interface QueueAddress { url: string; host: string; port: number; db: number; username?: string; password?: string; tls: boolean }

/**
 * Parses `redis://[USER:PASSWORD@]HOST[:PORT][/N]` (or `rediss://` for TLS).
 * @throws IssuelocError (exit 2) naming the URL when it is not one.
 */
export function parseQueueUrl(url: string): QueueAddress {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new IssuelocError(`--queue ${url}: not a URL (redis://HOST:PORT/N)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new IssuelocError(`--queue ${url}: not a redis:// URL`);
  const dbText = u.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0 || db > 15 || !/^\d*$/.test(dbText)) throw new IssuelocError(`--queue ${url}: the database number must be 0 to 15`);
  const port = u.port === '' ? 6379 : Number(u.port);
  if (!u.hostname) throw new IssuelocError(`--queue ${url}: no host`);
  return {
    url, host: u.hostname.replace(/^\[|\]$/g, ''), port, db, tls: u.protocol === 'rediss:',
    username: u.username ? decodeURIComponent(u.username) : undefined, password: u.password ? decodeURIComponent(u.password) : undefined,
  };
}

function connectionOf(a: QueueAddress, connectTimeout: number): ConnectionOptions {
  return {
    host: a.host, port: a.port, db: a.db, username: a.username, password: a.password, ...(a.tls ? { tls: {} } : {}),
    connectTimeout, maxRetriesPerRequest: null,
  };
}

/**
 * Checks that Redis answers at `url` within `timeoutMs`, and returns BullMQ connection options.
 * @throws IssuelocError (exit 2) `cannot reach redis at URL: reason` otherwise.
 */
export async function checkRedis(url: string, timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): Promise<ConnectionOptions> {
  const a = parseQueueUrl(url);
  const probe = new Redis({
    host: a.host, port: a.port, db: a.db, username: a.username, password: a.password, ...(a.tls ? { tls: {} } : {}),
    connectTimeout: timeoutMs, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false,
  });
  let cause: Error | undefined;
  probe.on('error', (e: Error) => { cause = e; });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe.connect().then(() => probe.ping()),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs); }),
    ]);
  } catch (e) {
    throw new IssuelocError(`cannot reach redis at ${url}: ${redisFailure(cause ?? (e as Error))}`);
  } finally {
    clearTimeout(timer);
    probe.disconnect();
  }
  return connectionOf(a, timeoutMs);
}

/** Why a connection failed, in words (`connection refused`, `unknown host`, …; else the error's first line). */
export function redisFailure(e: Error): string {
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused', ENOTFOUND: 'unknown host', EAI_AGAIN: 'unknown host (DNS lookup failed)',
    ETIMEDOUT: 'connection timed out', ECONNRESET: 'connection reset', EHOSTUNREACH: 'host unreachable', ENETUNREACH: 'network unreachable',
  };
  const code = (e as NodeJS.ErrnoException).code;
  return (code && words[code]) || e.message.split('\n')[0] || 'connection failed';
}

/** The queue id of a job: its id in its results folder (`j` + 32 hex digits). */
export function queueJobId(job: BatchJob): string {
  return `j${sha256(`${job.id}\n${job.results}`).slice(0, 32)}`;
}

/** Retry settings of enqueued jobs. */
export interface RetryOptions {
  /** Attempts before a job is parked as failed (default 3). */
  attempts?: number;
  /** First back-off, milliseconds, doubled per retry (default 1000). */
  backoffMs?: number;
}

/** Adds `jobs` to the queue (jobs already there stay as they are). */
export async function enqueueJobs(connection: ConnectionOptions, jobs: readonly BatchJob[], retry: RetryOptions = {}): Promise<void> {
  const queue = new Queue(QUEUE_NAME, { connection });
  try {
    for (let i = 0; i < jobs.length; i += 500) {
      await queue.addBulk(jobs.slice(i, i + 500).map((job) => ({
        name: job.spec.kind, data: job,
        opts: {
          jobId: queueJobId(job), attempts: retry.attempts ?? 3, backoff: { type: 'exponential', delay: retry.backoffMs ?? 1000 },
          removeOnComplete: false, removeOnFail: false,
        },
      })));
    }
  } finally {
    await queue.close();
  }
}

/** Options of {@link runQueueWorker}. */
export interface QueueWorkerOptions {
  /** Jobs at once (threads; default 1). */
  concurrency?: number;
  /** How long a job's lock lasts without renewal, ms (BullMQ default 30000): a dead worker's job is retried after about this. */
  lockMs?: number;
  /** How often stalled jobs are looked for, ms (BullMQ default 30000). */
  stalledMs?: number;
  /** Return once the queue has nothing waiting, delayed or running (polled every `idlePollMs`). */
  untilEmpty?: boolean;
  idlePollMs?: number;
  /** Each job finished by this worker. */
  onJob?: (job: BatchJob, outcome: 'done' | 'existing' | 'failed', message?: string) => void;
  /** Stops the worker (SIGTERM/SIGINT); the running jobs finish first. */
  signal?: AbortSignal;
  /** How long Redis may stay unreachable before the worker gives up, ms (default {@link DEFAULT_REDIS_WAIT_MS}). */
  redisWaitMs?: number;
  /** Told when Redis stops answering (`lost`, with the reason) and when it answers again (`back`). */
  onRedis?: (event: 'lost' | 'back', detail: string) => void;
  /** The queue's URL, for messages. */
  url?: string;
}

/** Default {@link QueueWorkerOptions.redisWaitMs}: one minute. */
export const DEFAULT_REDIS_WAIT_MS = 60_000;

/** Runs a worker until `untilEmpty` finds the queue empty or `signal` aborts. */
export async function runQueueWorker(connection: ConnectionOptions, opts: QueueWorkerOptions = {}): Promise<void> {
  const concurrency = opts.concurrency ?? 1;
  const pool = new ThreadPool(concurrency);
  const worker = new Worker<BatchJob>(QUEUE_NAME, async (job: Job<BatchJob>) => {
    try {
      const o = await pool.run(job.data);
      opts.onJob?.(job.data, o.status);
      return { status: o.status, millis: Math.round(o.millis) };
    } catch (e) {
      opts.onJob?.(job.data, 'failed', (e as Error).message);
      if (e instanceof BadJobInput) throw new UnrecoverableError(e.message);
      throw e;
    }
  }, {
    connection, concurrency, autorun: false,
    lockDuration: opts.lockMs ?? 30_000, stalledInterval: opts.stalledMs ?? 30_000, maxStalledCount: 3,
    drainDelay: 1,
  });
  let lastError: Error | undefined;
  const noteError = (e: Error) => { lastError = e; };
  worker.on('error', noteError); // connection errors: BullMQ reconnects, with back-off (1 s, e^n s, at most 20 s)
  const queue = new Queue(QUEUE_NAME, { connection });
  queue.on('error', noteError);
  let gaveUp = false;
  const stop = async () => {
    if (gaveUp) {
      // Redis is gone: closing politely would wait for it; drop the connections and the running jobs
      await bounded(worker.close(true), 2000);
      await bounded(Promise.allSettled([worker.disconnect(), queue.disconnect()]), 2000);
    } else {
      await worker.close();
      await queue.close();
    }
    await pool.close();
  };
  const running = worker.run().catch((e: Error) => { if (!gaveUp) throw e; });
  const pollMs = opts.idlePollMs ?? 500;
  const waitMs = opts.redisWaitMs ?? DEFAULT_REDIS_WAIT_MS;
  const answerMs = Math.max(1000, Math.min(5000, Number(connection && 'connectTimeout' in connection ? connection.connectTimeout : 5000) || 5000));
  let lostAt: number | undefined;
  try {
    let idle = 0;
    while (!opts.signal?.aborted && idle < 2) {
      await pause(pollMs, opts.signal);
      if (opts.signal?.aborted) break;
      const answered = await bounded((async () => ((await queue.client) as unknown as Redis).ping())(), answerMs);
      if (!answered) {
        idle = 0;
        const now = performance.now();
        if (lostAt === undefined) {
          lostAt = now;
          opts.onRedis?.('lost', lastError ? redisFailure(lastError) : `no answer in ${answerMs} ms`);
        } else if (now - lostAt >= waitMs) {
          gaveUp = true;
          throw new IssuelocError(`redis at ${opts.url ?? 'the queue'} gone for ${Math.round((now - lostAt) / 1000)} s (${lastError ? redisFailure(lastError) : 'no answer'}): giving up`);
        }
        continue;
      }
      if (lostAt !== undefined) {
        lostAt = undefined;
        opts.onRedis?.('back', '');
      }
      if (!opts.untilEmpty) continue;
      try {
        const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused', 'waiting-children');
        idle = Object.values(c).every((n) => n === 0) ? idle + 1 : 0;
      } catch {
        idle = 0; // Redis away: BullMQ reconnects; look again
      }
    }
  } finally {
    await stop();
    await bounded(running, gaveUp ? 2000 : Infinity);
  }
}

/** Waits `ms`, or less when `signal` aborts (its listener removed either way). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Whether `p` settled without error within `ms` (its outcome is dropped otherwise). */
async function bounded(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p.then(() => true, () => false),
      ...(Number.isFinite(ms) ? [new Promise<boolean>((r) => { timer = setTimeout(() => r(false), ms); })] : []),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The state of a batch's jobs in the queue, by queue id. */
export async function queueStates(connection: ConnectionOptions, jobs: readonly BatchJob[]): Promise<Map<string, { state: string; error?: string; attempts: number }>> {
  const queue = new Queue(QUEUE_NAME, { connection });
  const out = new Map<string, { state: string; error?: string; attempts: number }>();
  try {
    for (const job of jobs) {
      const j = await queue.getJob(queueJobId(job));
      if (!j) continue;
      out.set(job.id, { state: await j.getState(), error: j.failedReason || undefined, attempts: j.attemptsMade });
    }
  } finally {
    await queue.close();
  }
  return out;
}
