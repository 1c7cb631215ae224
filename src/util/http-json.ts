/**
 * JSON over HTTP for model servers (OpenAI-compatible `/v1/embeddings` and `/v1/chat/completions`
 * of vLLM, Ollama, llama.cpp server, TEI, …): one POST with a timeout, retried with exponential
 * back-off on rate limits (429), server errors (5xx), timeouts and refused connections.
 */
import { IssuelocError } from '../errors.js';

/** How {@link postJson} waits and retries. */
export interface RetryPolicy {
  /** Milliseconds one request may take before it is abandoned (default 120 000). */
  timeoutMs: number;
  /** Retries after the first try (default 3; 0 = one try only). */
  retries: number;
  /** Wait before the first retry in ms, doubled each retry (default 500). A `Retry-After` header wins when longer (capped at 30 s). */
  backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { timeoutMs: 120_000, retries: 3, backoffMs: 500 };

/** Options of {@link postJson}. */
export interface PostJsonOptions extends Partial<RetryPolicy> {
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Told of each retry (for a warning on stderr); `attempt` counts from 1. */
  onRetry?: (attempt: number, reason: string, waitMs: number) => void;
}

/** A request that failed for good: the server's status (0 = no answer), after all retries. */
export class HttpRequestError extends IssuelocError {
  constructor(message: string, readonly status: number, readonly retryable: boolean) {
    super(message);
    this.name = 'HttpRequestError';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * POSTs `body` as JSON to `url` and returns the parsed JSON answer.
 *
 * @throws HttpRequestError naming the URL and the last reason when every try failed
 *   (`retryable` true when the last failure was a rate limit, server error, timeout or refused
 *   connection; false for other 4xx answers, which are not retried, and for a body that is not JSON).
 */
export async function postJson(url: string, body: unknown, opts: PostJsonOptions = {}): Promise<unknown> {
  const policy: RetryPolicy = {
    timeoutMs: opts.timeoutMs ?? DEFAULT_RETRY.timeoutMs,
    retries: opts.retries ?? DEFAULT_RETRY.retries,
    backoffMs: opts.backoffMs ?? DEFAULT_RETRY.backoffMs,
  };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const payload = JSON.stringify(body);
  let last = '';
  for (let attempt = 0; ; attempt++) {
    let retryAfterMs = 0;
    try {
      const res = await fetch(url, { method: 'POST', headers, body: payload, signal: AbortSignal.timeout(policy.timeoutMs) });
      const text = await res.text();
      if (res.ok) {
        try {
          return JSON.parse(text);
        } catch {
          throw new HttpRequestError(`${url} answered with a body that is not JSON: ${text.slice(0, 120)}`, res.status, false);
        }
      }
      last = `HTTP ${res.status}${text ? `: ${oneLine(text)}` : ''}`;
      if (res.status !== 429 && res.status < 500) throw new HttpRequestError(`${url} refused the request (${last})`, res.status, false);
      retryAfterMs = retryAfter(res.headers.get('retry-after'));
      if (attempt >= policy.retries) throw new HttpRequestError(`${url} failed after ${attempt + 1} tries (${last})`, res.status, true);
    } catch (e) {
      if (e instanceof HttpRequestError) throw e;
      const err = e as Error & { cause?: { code?: string; message?: string } };
      last = err.name === 'TimeoutError' || err.name === 'AbortError'
        ? `no answer within ${policy.timeoutMs} ms`
        : `${err.cause?.code ?? err.cause?.message ?? err.message}`;
      if (attempt >= policy.retries) throw new HttpRequestError(`${url} failed after ${attempt + 1} tries (${last})`, 0, true);
    }
    const wait = Math.max(policy.backoffMs * 2 ** attempt, retryAfterMs);
    opts.onRetry?.(attempt + 1, last, wait);
    await sleep(wait);
  }
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
