/**
 * The few GitHub REST calls of `issueloc comment` (list an issue's comments, create one, edit
 * one), through @actions/github's octokit, every wait bounded: a timeout per request, retries of
 * server errors (5xx), timeouts and rate limits (secondary or primary, `Retry-After` /
 * `x-ratelimit-reset` honoured up to a cap) with doubling back-off, and a cap on the pages of
 * comments read. A failure for good is an {@link IssuelocError} naming the call and the status.
 */
import { IssuelocError } from '../errors.js';

/** How GitHub is called. */
export interface GitHubOptions {
  /** The token (`GITHUB_TOKEN` or a personal access token). */
  token: string;
  /** REST API root (`GITHUB_API_URL`; default https://api.github.com). */
  baseUrl: string;
  /** Milliseconds one request may take (default 30 000). */
  timeoutMs?: number;
  /** Retries after the first try of a request (default 3). */
  retries?: number;
  /** Wait before the first retry in ms, doubled each retry (default 1 000); a longer `Retry-After` wins up to {@link maxWaitMs}. */
  backoffMs?: number;
  /** Longest wait before one retry (default 60 000): a rate limit that resets later fails the call. */
  maxWaitMs?: number;
  /** Told of each retry and of a comment list cut short, one line each. */
  onWarning?: (message: string) => void;
}

export const DEFAULT_GITHUB_RETRY = { timeoutMs: 30_000, retries: 3, backoffMs: 1_000, maxWaitMs: 60_000 } as const;

/** Most pages of 100 comments read when looking for the comment to edit (10 000 comments). */
export const MAX_COMMENT_PAGES = 100;

/** An issue comment as far as the command cares. */
export interface IssueComment {
  id: number;
  body: string;
  /** Its address on the web. */
  url: string;
}

/** Where a comment goes: `owner/name` and the issue number. */
export interface IssueRef {
  owner: string;
  repo: string;
  issueNumber: number;
}

/** The calls the command makes. */
export interface GitHubClient {
  /** The first comment (oldest first) whose body starts with `marker`, or undefined. */
  findComment(at: IssueRef, marker: string): Promise<IssueComment | undefined>;
  createComment(at: IssueRef, body: string): Promise<IssueComment>;
  updateComment(at: IssueRef, id: number, body: string): Promise<IssueComment>;
}

/** Statuses worth another try (server errors; 408 timeout). Rate limits are judged on their own. */
function retryableStatus(status: number): boolean {
  return status >= 500 || status === 408;
}

interface OctokitLikeError {
  status?: number;
  message?: string;
  name?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/**
 * How long to wait before retrying a rate-limited answer (403/429), or undefined when it is no
 * rate limit. Secondary limits say `Retry-After` (else one minute, as GitHub documents); the
 * primary limit says when it resets.
 */
function rateLimitWaitMs(e: OctokitLikeError, now = Date.now()): number | undefined {
  if (e.status !== 403 && e.status !== 429) return undefined;
  const h = e.response?.headers ?? {};
  const retryAfter = Number(h['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  if (String(h['x-ratelimit-remaining']) === '0') {
    const reset = Number(h['x-ratelimit-reset']);
    return Number.isFinite(reset) ? Math.max(0, reset * 1000 - now) : 60_000;
  }
  if (/secondary rate limit|abuse/i.test(e.message ?? '')) return 60_000;
  if (e.status === 429) return 60_000;
  return undefined;
}

/** The first line of GitHub's message in an error answer. */
function githubMessage(e: OctokitLikeError): string {
  const data = e.response?.data;
  const m = typeof data === 'object' && data !== null && typeof (data as { message?: unknown }).message === 'string'
    ? (data as { message: string }).message
    : e.message ?? String(e);
  return m.split('\n')[0].slice(0, 300);
}

/**
 * Opens a client on GitHub's REST API (@actions/github's octokit, loaded on first use: its
 * import reads the Actions environment).
 */
export async function openGitHub(opts: GitHubOptions): Promise<GitHubClient> {
  const { getOctokit } = await import('@actions/github');
  const { defaults } = await import('@actions/github/lib/utils');
  const policy = { ...DEFAULT_GITHUB_RETRY, ...definedOnly(opts) };
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  // @actions/github's fetch (it honours the runner's proxy settings) with a timeout on each request
  const proxyFetch = defaults.request!.fetch as typeof fetch;
  const timedFetch = (url: string | URL | Request, init?: RequestInit) => proxyFetch(url, { ...init, signal: AbortSignal.timeout(policy.timeoutMs) });
  const octokit = getOctokit(opts.token, { baseUrl, request: { fetch: timedFetch } });
  octokit.hook.wrap('request', async (request, options) => {
    const call = `${options.method} ${callPath(String(options.url), options as Record<string, unknown>, baseUrl)}`;
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(options);
      } catch (err) {
        const e = err as OctokitLikeError;
        const timedOut = e.name === 'TimeoutError' || /aborted|timeout/i.test(e.message ?? '');
        // octokit reports a request that got no answer (refused, reset, timed out) as a 500 without a response
        const status = e.response ? e.status ?? 0 : 0;
        const limitWait = rateLimitWaitMs(e);
        const retryable = limitWait !== undefined || retryableStatus(status) || timedOut || status === 0;
        const wait = Math.max(policy.backoffMs * 2 ** attempt, limitWait ?? 0);
        const what = status ? `${status} ${githubMessage(e)}` : timedOut ? `no answer within ${policy.timeoutMs} ms` : `no answer (${githubMessage(e)})`;
        if (!retryable || attempt >= policy.retries || wait > policy.maxWaitMs) {
          const why = retryable && attempt < policy.retries ? ` (retry in ${Math.round(wait / 1000)} s is longer than the ${Math.round(policy.maxWaitMs / 1000)} s allowed)` : attempt > 0 ? ` (after ${attempt + 1} tries)` : '';
          throw new IssuelocError(`GitHub API ${call} failed: ${what}${why}`);
        }
        opts.onWarning?.(`GitHub API ${call}: ${what}; retry ${attempt + 1} of ${policy.retries} in ${wait} ms`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  });
  const toComment = (c: { id: number; body?: string | null; html_url: string }): IssueComment => ({ id: c.id, body: c.body ?? '', url: c.html_url });
  return {
    async findComment({ owner, repo, issueNumber }, marker) {
      let pages = 0;
      for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 })) {
        const mine = page.data.find((c) => (c.body ?? '').startsWith(marker));
        if (mine) return toComment(mine);
        if (++pages >= MAX_COMMENT_PAGES) {
          opts.onWarning?.(`issue #${issueNumber} has more than ${MAX_COMMENT_PAGES * 100} comments: looked for the issueloc comment in the first ${MAX_COMMENT_PAGES * 100} only`);
          break;
        }
      }
      return undefined;
    },
    async createComment({ owner, repo, issueNumber }, body) {
      return toComment((await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body })).data);
    },
    async updateComment({ owner, repo }, id, body) {
      return toComment((await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body })).data);
    },
  };
}

/** The path of a request for messages: `/repos/acme/shop/issues/4/comments` (no API root, no query). */
function callPath(url: string, params: Record<string, unknown>, baseUrl: string): string {
  const filled = url.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? k));
  return (filled.startsWith(baseUrl) ? filled.slice(baseUrl.length) : filled).split('?')[0];
}

function definedOnly(o: GitHubOptions): Partial<typeof DEFAULT_GITHUB_RETRY> {
  const out: Record<string, number> = {};
  for (const k of ['timeoutMs', 'retries', 'backoffMs', 'maxWaitMs'] as const) if (o[k] !== undefined) out[k] = o[k]!;
  return out;
}
