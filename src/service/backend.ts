/**
 * Where localize requests run: {@link InProcessBackend} answers them on the calling thread from
 * one {@link LocalizerPool}; the worker-thread backend (worker-backend.ts) spreads them over
 * threads, each with a pool of its own. The HTTP server sees only {@link ServiceBackend}.
 */
import { localizeJson } from '../pipeline/result-json.js';
import type { LevelChoice } from '../pipeline/result-json.js';
import { readForge, type Forge } from '../repo/forge.js';
import type { BuildProgress } from './build-progress.js';
import type { RankSettings } from './config.js';
import { serverErrorText, ServiceError } from './errors.js';
import type { LocalizerPool, PoolCounters } from './localizer-pool.js';

/** The body of `POST /v1/localize`, checked against its JSON schema (openapi.ts). */
export interface LocalizeRequest {
  /** A configured repository name. */
  repository: string;
  /** Base commit (any git revision; default: the repository's default branch as last seen). */
  rev?: string;
  /** The issue text: title on the first line, then the body. */
  issue: string;
  level?: LevelChoice;
  top?: number;
  /** `none`, `default` or a configured model name. */
  model?: string;
  /** Also answer `signals`: what the issue text was read as (stack frames, paths, names). */
  explain?: boolean;
}

/** One repository as `GET /v1/repos` lists it (no filesystem path). */
export interface RepoListing {
  name: string;
  /** The configured default revision and the commit it names now (once resolved). */
  rev: string;
  commit?: string;
  defaults: RankSettings;
  /** Warm indexes: commit, model, estimated bytes. */
  warm: { commit: string; model: string; bytes: number }[];
  /** The repository's home on GitHub or GitLab, from its git remote (no credentials), when it has one there. */
  forge?: Forge;
}

/** Pool counters with the warm entries' count and estimated bytes (summed over workers). */
export interface BackendStats extends PoolCounters {
  warmEntries: number;
  warmBytes: number;
  /** Requests answered from the answer cache (answer-cache.ts), when there is one. */
  answerHits?: number;
}

/** Runs localize requests; see the file comment. */
export interface ServiceBackend {
  /**
   * The JSON text of `localize --json` for a request (plus `signals` with `explain`).
   * @param waitMs how long the request may wait for an index not yet warm.
   * @throws ServiceError (404, 503), IssuelocError (400) as {@link LocalizerPool.localize}.
   */
  localize(request: LocalizeRequest, waitMs: number): Promise<string>;
  repos(): Promise<RepoListing[]>;
  stats(): Promise<BackendStats>;
  /** Re-resolves a repository's default revision; the new commit, warmed, when it moved. */
  refreshDefault(name: string): Promise<string | undefined>;
  /** Warms each repository's default commit with its default settings. */
  warmDefaults(): Promise<void>;
  /** The index builds under way or queued (of one repository when named); absent where not known (worker threads). */
  builds?(name?: string): Promise<BuildProgress[]>;
  close(): Promise<void>;
}

/** The JSON answer of a request from a pool (the one builder of the CLI's `--json`). */
export async function answerLocalize(pool: LocalizerPool, request: LocalizeRequest, waitMs: number): Promise<string> {
  const { repository, settings, result } = await pool.localize({
    repository: request.repository, rev: request.rev, text: request.issue,
    settings: { level: request.level, top: request.top, model: request.model },
  }, waitMs);
  return JSON.stringify(localizeJson(result, repository.name, settings.level, undefined, Boolean(request.explain)));
}

/** The listing of a pool's repositories. */
export async function listRepos(pool: LocalizerPool): Promise<RepoListing[]> {
  const warm = pool.warm().filter((e) => e.ready);
  return Promise.all([...pool.config.repositories.values()].map(async (r) => ({
    name: r.name, rev: r.rev, ...(pool.knownDefault(r.name) ? { commit: pool.knownDefault(r.name) } : {}), defaults: r.defaults,
    warm: warm.filter((e) => e.repository === r.name).map((e) => ({ commit: e.commit, model: e.model, bytes: e.bytes })),
    ...withForge(await forgeOf(r.path)),
  })));
}

/** The forge of each repository path, read once per process. */
const forges = new Map<string, Promise<Forge | undefined>>();
const forgeOf = (path: string) => forges.get(path) ?? forges.set(path, readForge(path).catch(() => undefined)).get(path)!;
const withForge = (forge: Forge | undefined) => (forge ? { forge } : {});

/** A pool's counters and warm entries. */
export function poolStats(pool: LocalizerPool): BackendStats {
  return { ...pool.counters, warmEntries: pool.warm().filter((e) => e.ready).length, warmBytes: pool.warmBytes() };
}

/** Every request on this thread, from one pool. */
export class InProcessBackend implements ServiceBackend {
  constructor(readonly pool: LocalizerPool) {}

  localize(request: LocalizeRequest, waitMs: number): Promise<string> {
    return answerLocalize(this.pool, request, waitMs);
  }

  async repos(): Promise<RepoListing[]> {
    return listRepos(this.pool);
  }

  async stats(): Promise<BackendStats> {
    return poolStats(this.pool);
  }

  refreshDefault(name: string): Promise<string | undefined> {
    return this.pool.refreshDefault(name);
  }

  async warmDefaults(): Promise<void> {
    for (const name of this.pool.config.repositories.keys()) await this.pool.prepare(name);
  }

  async builds(name?: string): Promise<BuildProgress[]> {
    return this.pool.buildProgress(name);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** An error as it crosses a thread: message, HTTP status, Retry-After. */
export interface WireError {
  message: string;
  status: number;
  retryAfterSeconds?: number;
}

/** The {@link WireError} of an error (status by {@link statusOf}). */
export function toWire(e: unknown, status: number): WireError {
  // the path of a failed file-system call crosses too, for the server's log line (src/service/errors.ts)
  const message = e instanceof Error ? (status === 500 ? serverErrorText(e).log : e.message) : String(e);
  return { message, status, ...(e instanceof ServiceError && e.retryAfterSeconds ? { retryAfterSeconds: e.retryAfterSeconds } : {}) };
}

/** The error a {@link WireError} stands for. */
export function fromWire(w: WireError): ServiceError {
  return new ServiceError(w.message, w.status, w.retryAfterSeconds);
}
