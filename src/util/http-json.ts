/**
 * JSON over HTTP for model servers (OpenAI-compatible `/v1/embeddings` and `/v1/chat/completions`
 * of vLLM, Ollama, llama.cpp server, TEI, …): one POST, retried with exponential back-off on rate
 * limits (429), server errors (5xx), timeouts and refused connections, every wait bounded: a
 * connect timeout, a timeout per try, a budget for all tries of one call together, a cap on the
 * answer's size (read as a stream, abandoned past the cap) and an optional outer abort signal
 * (the per-issue deadline).
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { IssuelocError } from '../errors.js';
import { formatBytes } from './read-bounded.js';

/** How {@link postJson} waits and retries. */
export interface RetryPolicy {
  /** Milliseconds one try may take, connecting and reading the whole answer included (default 30 000). */
  timeoutMs: number;
  /** Retries after the first try (default 2; 0 = one try only). */
  retries: number;
  /** Wait before the first retry in ms, doubled each retry (default 500). A `Retry-After` header wins when longer (capped at 30 s). */
  backoffMs: number;
  /**
   * Milliseconds all tries of one call may take together, back-off waits included (default
   * 30 000): the most a dead or slow endpoint costs per call. A try gets what is left of it.
   */
  budgetMs: number;
  /** Milliseconds to open the connection (default 5 000). */
  connectTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { timeoutMs: 30_000, retries: 2, backoffMs: 500, budgetMs: 30_000, connectTimeoutMs: 5_000 };

/** Default cap on an answer's body: 16 MiB (an embeddings batch of 32 texts × 4 096 dimensions is about 3 MiB of JSON). */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Bytes of an error answer (non-2xx) read for its message. */
const ERROR_BODY_BYTES = 64 * 1024;

/** Options of {@link postJson}. */
export interface PostJsonOptions extends Partial<RetryPolicy> {
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Told of each retry (for a warning on stderr); `attempt` counts from 1. */
  onRetry?: (attempt: number, reason: string, waitMs: number, url: string) => void;
  /** Most bytes of a successful answer's body (default {@link DEFAULT_MAX_RESPONSE_BYTES}); a longer answer fails the call, unretried. */
  maxResponseBytes?: number;
  /** Outer abort (a per-issue deadline): the call stops at once and rejects with the signal's reason; no retry. */
  signal?: AbortSignal;
}

/** A request that failed for good: the server's status (0 = no answer), after all retries. */
export class HttpRequestError extends IssuelocError {
  constructor(message: string, readonly status: number, readonly retryable: boolean) {
    super(message);
    this.name = 'HttpRequestError';
  }
}

/** One try that got no usable answer: why, and whether another try may help. */
class TryFailure extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
  }
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  text: string;
}

/**
 * POSTs `body` as JSON to `url` and returns the parsed JSON answer.
 *
 * @throws HttpRequestError naming the URL and the last reason when every try failed
 *   (`retryable` true when the last failure was a rate limit, server error, timeout or refused
 *   connection; false for other 4xx answers, which are not retried, for a body that is not JSON,
 *   and for a body over `maxResponseBytes`). When the policy's budget leaves no time for the
 *   next try, the call fails before its retries are used up.
 * @throws the reason of `opts.signal` (e.g. DeadlineExceeded) when it aborts.
 */
export async function postJson(url: string, body: unknown, opts: PostJsonOptions = {}): Promise<unknown> {
  const policy: RetryPolicy = {
    timeoutMs: opts.timeoutMs ?? DEFAULT_RETRY.timeoutMs,
    retries: opts.retries ?? DEFAULT_RETRY.retries,
    backoffMs: opts.backoffMs ?? DEFAULT_RETRY.backoffMs,
    budgetMs: opts.budgetMs ?? DEFAULT_RETRY.budgetMs,
    connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_RETRY.connectTimeoutMs,
  };
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new HttpRequestError(`${url} is not an http(s) URL`, 0, false);
  const target = new URL(url);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  // node:http(s) loaded on the first request, not by every process that imports this module
  const send = (await (target.protocol === 'https:' ? import('node:https') : import('node:http'))).request;
  const start = Date.now();
  const tries = (n: number) => `${n} ${n === 1 ? 'try' : 'tries'}`;
  let last = '';
  for (let attempt = 0; ; attempt++) {
    opts.signal?.throwIfAborted();
    const timeoutMs = Math.max(1, Math.min(policy.timeoutMs, policy.budgetMs - (Date.now() - start)));
    let status = 0;
    let retryAfterMs = 0;
    try {
      const answer = await tryOnce(send, target, payload, headers, { timeoutMs, connectTimeoutMs: policy.connectTimeoutMs, maxBytes, signal: opts.signal });
      status = answer.status;
      if (status >= 200 && status < 300) {
        try {
          return JSON.parse(answer.text);
        } catch {
          throw new HttpRequestError(`${url} answered with a body that is not JSON: ${oneLine(answer.text.slice(0, 120))}`, status, false);
        }
      }
      last = `HTTP ${status}${answer.text ? `: ${oneLine(answer.text)}` : ''}`;
      if (status !== 429 && status < 500) throw new HttpRequestError(`${url} refused the request (${last})`, status, false);
      retryAfterMs = retryAfter(answer.retryAfter ?? null);
    } catch (e) {
      if (!(e instanceof TryFailure)) throw e;
      last = e.message;
      if (!e.retryable) throw new HttpRequestError(`${url}: ${last}`, 0, false);
    }
    if (attempt >= policy.retries) throw new HttpRequestError(`${url} failed after ${tries(attempt + 1)} (${last})`, status, true);
    const wait = Math.max(policy.backoffMs * 2 ** attempt, retryAfterMs);
    if (Date.now() - start + wait >= policy.budgetMs) {
      throw new HttpRequestError(`${url} failed after ${tries(attempt + 1)} (${last}); its ${policy.budgetMs / 1000} s budget leaves no time for another`, status, true);
    }
    opts.onRetry?.(attempt + 1, last, wait, url);
    await sleep(wait, opts.signal);
  }
}

/** One POST: the status and the body (a successful one up to `maxBytes`, an error one up to 64 KiB). */
function tryOnce(
  send: (url: URL, options: RequestOptions) => ClientRequest, url: URL, payload: Buffer, headers: Record<string, string>,
  o: { timeoutMs: number; connectTimeoutMs: number; maxBytes: number; signal?: AbortSignal },
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const timers: NodeJS.Timeout[] = [];
    let settled = false;
    const finish = (err: Error | undefined, answer?: Answer) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      o.signal?.removeEventListener('abort', onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else {
        resolve(answer!);
      }
    };
    const onAbort = () => finish(o.signal!.reason as Error);
    const req = send(url, { method: 'POST', headers: { ...headers, 'content-length': String(payload.length) } });
    o.signal?.addEventListener('abort', onAbort, { once: true });
    timers.push(setTimeout(() => finish(new TryFailure(`no answer within ${o.timeoutMs} ms`, true)), o.timeoutMs));
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const t = setTimeout(() => finish(new TryFailure(`no connection within ${o.connectTimeoutMs} ms`, true)), o.connectTimeoutMs);
      timers.push(t);
      socket.once('connect', () => clearTimeout(t));
    });
    req.on('error', (e: Error & { code?: string }) => finish(new TryFailure(e.code ?? e.message, true)));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      const limit = ok ? o.maxBytes : Math.min(o.maxBytes, ERROR_BODY_BYTES);
      const tooLong = () => new TryFailure(`answer exceeds the cap of ${formatBytes(o.maxBytes)}; abandoned`, false);
      const declared = Number(res.headers['content-length']);
      if (ok && declared > o.maxBytes) return finish(tooLong());
      const chunks: Buffer[] = [];
      let bytes = 0;
      const answer = () => ({ status, retryAfter: headerValue(res.headers['retry-after']), text: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (bytes + chunk.length > limit) {
          if (ok) return finish(tooLong());
          chunks.push(chunk.subarray(0, limit - bytes));
          return finish(undefined, answer());
        }
        bytes += chunk.length;
        chunks.push(chunk);
      });
      res.on('end', () => finish(undefined, answer()));
      res.on('error', (e: Error & { code?: string }) => finish(new TryFailure(e.code ?? e.message, true)));
    });
    req.end(payload);
  });
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts (the timer is cleared). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), capped at 30 s; 0 when absent. */
function retryAfter(v: string | null): number {
  if (!v) return 0;
  const s = Number(v);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(v) - Date.now();
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 30_000) : 0;
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 160 ? `${t.slice(0, 160)}…` : t;
}

/** `base` + `/` + `path`, whatever slashes `base` ends with. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
