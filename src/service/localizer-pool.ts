/**
 * The warm localizer pool: {@link IssueLocalizer}s kept open between requests, one per
 * (repository, settings, base commit), so a query costs the query alone (milliseconds) and not
 * the index load (a second). Plain class, no HTTP: `issueloc serve` and an MCP server in the
 * same process (or one pool per worker thread) use it alike.
 *
 * - Only configured repositories, by name ({@link ServiceConfig.repositories}); a revision is
 *   checked (one commit, no message search: src/repo/revision.ts) and resolved to its commit by
 *   git within the request timeout (src/repo/git.ts).
 * - A commit not yet warm is indexed once: concurrent requests for it wait on the same build, each
 *   for at most its own bound (then a 503 {@link ServiceError} telling how far the build is and
 *   when to retry: build-progress.ts; {@link LocalizerPool.buildProgress} while it runs). One build at a time. When the last
 *   request waiting for a build stops waiting, the build is cancelled (queued: never started;
 *   running: abandoned at its next blob, nothing saved but the blobs parsed so far, which the next
 *   build reuses); a warm-up ({@link prepare}, {@link refreshDefault}) waits without bound, so
 *   its build always runs to the end.
 * - Warm entries live in an LRU under {@link ServiceLimits.memoryBudgetBytes}, an estimate from
 *   the sizes of their index files plus what every entry costs ({@link ENTRY_BASE_BYTES}), and
 *   at most {@link MAX_WARM_ENTRIES} of them; an idle entry evicted is closed (its
 *   `git cat-file` process ends). The entry just built stays even when it alone is over the
 *   budget (one warning).
 * - Counters: hits (warm), misses (not warm: built or loaded from the disk cache), builds, evictions.
 */
import { existsSync, statSync } from 'node:fs';
import { IssuelocError } from '../errors.js';
import { DEFAULT_INDEX_SETTINGS, indexFilePath } from '../index/code-index.js';
import { openLocalizer, type IndexInfo, type IssueLocalizer, type LocalizeResult, type LocalizerOptions } from '../pipeline/localizer.js';
import { GitRepo } from '../repo/git.js';
import { checkRevision, REMOTE_REVISIONS } from '../repo/revision.js';
import { LEVEL_CHOICES, type RankSettings, type RepositoryConfig, type ServiceConfig } from './config.js';
import { describeBuild, nextReports, remainingMs, retrySeconds, type BuildProgress, type StepReports } from './build-progress.js';
import { ServiceError } from './errors.js';

/** One localize request as the pool takes it (already parsed; the pool checks names and revisions). */
export interface PoolRequest {
  /** A configured repository name. */
  repository: string;
  /** Base commit (any git revision); default: the repository's default commit ({@link LocalizerPool.defaultCommit}). */
  rev?: string;
  /** Issue text: title on the first line, then the body. */
  text: string;
  /** Overrides of the repository's defaults. */
  settings?: Partial<RankSettings>;
}

/** What {@link LocalizerPool.localize} answers. */
export interface PoolAnswer {
  repository: RepositoryConfig;
  /** The settings used: the repository's defaults under the request's. */
  settings: RankSettings;
  result: LocalizeResult;
}

/** Counters since the pool was made. */
export interface PoolCounters {
  /** Requests whose (repository, settings, commit) was warm. */
  hits: number;
  /** Requests that had to wait for it to be opened (built now or loaded from the disk cache). */
  misses: number;
  /** Entries opened (one per miss that was not already being opened). */
  builds: number;
  /** Builds that failed. */
  buildFailures: number;
  /** Builds cancelled (queued or running) because no request waited for them any more. */
  buildsCancelled: number;
  /** Entries closed to stay under the memory budget. */
  evictions: number;
}

/** A warm (or opening) entry, as {@link LocalizerPool.warm} lists it. */
export interface WarmEntry {
  repository: string;
  model: string;
  commit: string;
  /** Estimated bytes in memory (0 while opening). */
  bytes: number;
  /** false while the index is being built or loaded. */
  ready: boolean;
}

/** Options of {@link LocalizerPool}. */
export interface PoolOptions {
  /** Where fallbacks and pool events are reported, one line each (default none). */
  onWarning?: (message: string) => void;
  /** Opens a localizer (default {@link openLocalizer}; tests count calls). */
  open?: (options: LocalizerOptions) => Promise<IssueLocalizer>;
  /** Estimated bytes of an opened entry (default {@link estimateIndexBytes}). */
  estimateBytes?: (localizer: IssueLocalizer, info: IndexInfo) => number;
}

interface Entry {
  key: string;
  repository: string;
  model: string;
  commit: string;
  /** Resolves when the localizer is open and its commit indexed. */
  opening: Promise<IssueLocalizer>;
  localizer?: IssueLocalizer;
  bytes: number;
  /** Requests using it now (an entry in use is never evicted). */
  busy: number;
  /** Requests waiting for it to open; when the last one stops waiting, the build is cancelled. */
  waiters: number;
  /** Aborts its build. */
  cancel: AbortController;
  /** Its opening has ended (opened or failed). */
  settled: boolean;
  /** When it was asked for, and when its build started (ms, Date.now()). */
  askedAt: number;
  startedAt?: number;
  /** What its build reported so far. */
  reports?: StepReports;
}

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * What one warm entry costs besides its index, however small the index: measured on `issueloc
 * serve`, each distinct revision warmed added about 1.45 MB of resident memory to
 * the server, plus its own `git cat-file --batch` process (about 1 MB more, 3 file descriptors).
 */
export const ENTRY_BASE_BYTES = Math.round(2.5 * 2 ** 20);

/** Warm entries a pool keeps at most, whatever their size (each holds a git process). */
export const MAX_WARM_ENTRIES = 64;

/**
 * Bytes a warm index holds, estimated from its files on disk (the function- and file-level
 * inverted indexes, which load as typed arrays, plus what reading them keeps: 1.5 × their size)
 * and about 500 bytes per function (its id, path, line range as JS strings), plus
 * {@link ENTRY_BASE_BYTES} for what every entry holds. Measured on sympy (22.9 k functions,
 * index files of 12 MiB): 30 MiB estimated; heap and buffers grew by 31 MiB loading it and
 * answering a first query.
 */
export function estimateIndexBytes(localizer: IssueLocalizer, info: IndexInfo): number {
  const size = (level: 'function' | 'file') => {
    try {
      return statSync(indexFilePath(localizer.cacheDir, info.commit, DEFAULT_INDEX_SETTINGS, level)).size;
    } catch {
      return 0;
    }
  };
  return ENTRY_BASE_BYTES + Math.round(1.5 * (size('function') + size('file')) + 500 * info.documents);
}

/** Warm localizers under a memory budget; see the file comment. {@link close} it when done. */
export class LocalizerPool {
  readonly counters: PoolCounters = { hits: 0, misses: 0, builds: 0, buildFailures: 0, buildsCancelled: 0, evictions: 0 };
  /** Entries, least recently used first (a Map keeps insertion order; a use re-inserts). */
  private readonly entries = new Map<string, Entry>();
  /** One git per repository, for resolving revisions. */
  private readonly gits = new Map<string, Promise<GitRepo>>();
  /** The default commit of each repository: its `rev` resolved once, then moved by {@link refreshDefault}. */
  private readonly defaults = new Map<string, string>();
  /** Builds run one after the other. */
  private buildQueue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private warnedOverBudget = false;
  private readonly warn: (message: string) => void;
  private readonly open: (options: LocalizerOptions) => Promise<IssueLocalizer>;
  private readonly estimate: (localizer: IssueLocalizer, info: IndexInfo) => number;

  constructor(readonly config: ServiceConfig, options: PoolOptions = {}) {
    this.warn = options.onWarning ?? (() => {});
    this.open = options.open ?? openLocalizer;
    this.estimate = options.estimateBytes ?? estimateIndexBytes;
  }

  /**
   * The configured repository of that name.
   * @throws ServiceError 404 for any other name (a path, `../x`, a name not configured).
   */
  repository(name: string): RepositoryConfig {
    const r = typeof name === 'string' ? this.config.repositories.get(name) : undefined;
    if (!r) throw new ServiceError(`unknown repository '${String(name).slice(0, 100)}' (configured: ${[...this.config.repositories.keys()].join(', ')})`, 404);
    return r;
  }

  /**
   * The commit a revision of a repository names (full SHA); `rev` undefined: the default commit.
   * Revisions are checked as a remote caller's (no ranges, no commit-message searches) and git is
   * given the request timeout; a full SHA, even a warm one, is answered only while the object
   * store has it (GitRepo.hasCommit: no git process for a commit in plain files).
   * @throws ServiceError 404 for an unknown repository; IssuelocError (400) for a revision that
   *   names no commit (an option such as `--output=x` included: git never sees it as one), and
   *   for a repository whose folder is gone.
   */
  async resolveCommit(name: string, rev?: string): Promise<string> {
    const repo = this.repository(name);
    const git = await this.git(repo);
    if (rev === undefined) {
      git.checkPresent();
      return this.defaultCommit(name);
    }
    checkRevision(rev, REMOTE_REVISIONS, repo.path);
    const timeoutMs = this.config.limits.timeoutMs;
    const lower = rev.toLowerCase();
    if (FULL_SHA.test(lower) && this.isKnown(name, lower)) {
      // warm, but the object store is asked whether it still has it (a history rewrite and gc
      // drop commits): its files read afresh, git only when they cannot tell
      if (await git.hasCommit(lower, timeoutMs)) return lower;
    }
    return git.resolveCommit(rev, { rules: REMOTE_REVISIONS, timeoutMs });
  }

  private isKnown(name: string, commit: string): boolean {
    return this.defaults.get(name) === commit || [...this.entries.values()].some((e) => e.commit === commit && e.repository === name);
  }

  /** The commit requests without a revision use: the repository's `rev`, resolved on first use. */
  async defaultCommit(name: string): Promise<string> {
    const repo = this.repository(name);
    const known = this.defaults.get(name);
    if (known) return known;
    const commit = await (await this.git(repo)).resolveCommit(repo.rev);
    this.defaults.set(name, commit);
    return commit;
  }

  /** The default commit when already resolved (no git call), else undefined. */
  knownDefault(name: string): string | undefined {
    return this.defaults.get(name);
  }

  /**
   * Resolves the repository's `rev` again; when it moved, warms the new commit with the
   * repository's default settings, then makes it the default (requests in between keep the old one).
   * @returns the new commit when it moved, else undefined.
   */
  async refreshDefault(name: string): Promise<string | undefined> {
    const repo = this.repository(name);
    const commit = await (await this.git(repo)).resolveCommit(repo.rev);
    const before = this.defaults.get(name);
    if (before === commit) return undefined;
    if (before !== undefined) await this.release(await this.acquire(repo, repo.defaults.model, commit, Number.POSITIVE_INFINITY));
    this.defaults.set(name, commit);
    return before !== undefined ? commit : undefined;
  }

  /**
   * Ranks an issue at a base commit of a configured repository.
   * @param waitMs how long to wait for the index when it is not warm (default the configured timeout).
   * @throws ServiceError 404 (unknown repository), 503 (index still being built after `waitMs`);
   *   IssuelocError (400) for a bad revision, setting or issue text.
   */
  async localize(request: PoolRequest, waitMs = this.config.limits.timeoutMs): Promise<PoolAnswer> {
    const repository = this.repository(request.repository);
    const settings = this.settingsOf(repository, request.settings);
    try {
      const commit = await this.resolveCommit(repository.name, request.rev);
      const entry = await this.acquire(repository, settings.model, commit, waitMs);
      try {
        const result = await entry.localizer!.localize(request.text, { rev: commit, top: settings.top });
        return { repository, settings, result };
      } finally {
        await this.release(entry);
      }
    } catch (e) {
      throw withoutPath(e, repository);
    }
  }

  /**
   * Warms a base commit (default: the default commit) with a model (default: the repository's).
   * @returns what the index is and how it was had.
   */
  async prepare(name: string, rev?: string, model?: string): Promise<IndexInfo> {
    const repository = this.repository(name);
    const settings = this.settingsOf(repository, model !== undefined ? { model } : undefined);
    const commit = await this.resolveCommit(name, rev);
    const entry = await this.acquire(repository, settings.model, commit, Number.POSITIVE_INFINITY);
    try {
      return await entry.localizer!.prepare(commit);
    } finally {
      await this.release(entry);
    }
  }

  /** The builds under way or queued (of one repository when named), oldest first. */
  buildProgress(name?: string): BuildProgress[] {
    return [...this.entries.values()]
      .filter((e) => !e.localizer && !e.settled && !e.cancel.signal.aborted && (name === undefined || e.repository === name))
      .sort((a, b) => a.askedAt - b.askedAt)
      .map((e) => this.progressOf(e));
  }

  private progressOf(e: Entry, now = Date.now()): BuildProgress {
    const r = e.reports;
    return {
      repository: e.repository, commit: e.commit, model: e.model, queued: e.startedAt === undefined, elapsedMs: now - e.askedAt,
      ...(r ? { step: r.step, done: r.last.done, total: r.last.total, ...withDefined('remainingMs', remainingMs(r, now)) } : {}),
    };
  }

  /** The entries, least recently used first. */
  warm(): WarmEntry[] {
    return [...this.entries.values()].map((e) => ({ repository: e.repository, model: e.model, commit: e.commit, bytes: e.bytes, ready: e.localizer !== undefined }));
  }

  /** Estimated bytes of the warm entries. */
  warmBytes(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.bytes;
    return n;
  }

  /** Closes every localizer and git; later calls are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.buildQueue;
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map(async (e) => (await e.opening.catch(() => undefined))?.close()));
    const gits = [...this.gits.values()];
    this.gits.clear();
    await Promise.all(gits.map(async (g) => (await g.catch(() => undefined))?.close()));
  }

  /**
   * The repository's defaults under a request's settings.
   * @throws IssuelocError (400) for an unknown model name or level, or a `top` out of bounds.
   */
  settingsOf(repository: RepositoryConfig, over: Partial<RankSettings> = {}): RankSettings {
    const s = { ...repository.defaults, ...Object.fromEntries(Object.entries(over).filter(([, v]) => v !== undefined)) } as RankSettings;
    if (!(s.model === 'none' || s.model === 'default' || this.config.models.has(s.model))) {
      throw new IssuelocError(`unknown model '${String(s.model).slice(0, 100)}' (known: none, default${[...this.config.models.keys()].map((m) => `, ${m}`).join('')})`);
    }
    if (!LEVEL_CHOICES.includes(s.level)) throw new IssuelocError(`level must be one of ${LEVEL_CHOICES.join(', ')}`);
    if (!Number.isInteger(s.top) || s.top < 1 || s.top > this.config.limits.maxTop) throw new IssuelocError(`top must be a whole number from 1 to ${this.config.limits.maxTop}`);
    return s;
  }

  private git(repo: RepositoryConfig): Promise<GitRepo> {
    if (this.closed) return Promise.reject(new ServiceError('the service is shutting down', 503, 1));
    let g = this.gits.get(repo.name);
    if (!g) {
      g = GitRepo.open(repo.path).catch((e: unknown) => {
        // a configured repository is there at start (serve checks): missing now, it was removed
        throw existsSync(repo.path) ? e : new IssuelocError(`${repo.path} is gone: the repository's folder was removed or moved`);
      });
      g.catch(() => this.gits.delete(repo.name));
      this.gits.set(repo.name, g);
    }
    return g;
  }

  /** The entry of (repository, model, commit), opened when not warm; waits at most `waitMs` for it. */
  private async acquire(repository: RepositoryConfig, model: string, commit: string, waitMs: number): Promise<Entry> {
    if (this.closed) throw new ServiceError('the service is shutting down', 503, 1);
    const key = `${repository.name}\0${model}\0${commit}`;
    let entry = this.entries.get(key);
    if (entry?.localizer) this.counters.hits++;
    else this.counters.misses++;
    if (!entry) {
      entry = { key, repository: repository.name, model, commit, bytes: 0, busy: 0, waiters: 0, cancel: new AbortController(), settled: false, askedAt: Date.now(), opening: undefined as unknown as Promise<IssueLocalizer> };
      entry.opening = this.build(repository, model, commit, entry);
      this.entries.set(key, entry);
    } else {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    entry.busy++;
    if (entry.localizer) return entry;
    entry.waiters++;
    try {
      await withinMs(entry.opening, waitMs, () => {
        const progress = this.progressOf(entry!);
        return new ServiceError(`the index of ${repository.name} at ${commit.slice(0, 12)} is still being built: ${describeBuild(progress)}`, 503,
          retrySeconds(progress, Math.max(1, Math.ceil(waitMs / 1000))));
      });
    } catch (e) {
      entry.busy--;
      throw e;
    } finally {
      entry.waiters--;
      if (entry.waiters === 0 && !entry.settled) this.cancel(entry);
    }
    return entry;
  }

  /** Cancels the build of an entry no request waits for any more (a failed build: nothing to do). */
  private cancel(entry: Entry): void {
    if (entry.cancel.signal.aborted) return;
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    this.counters.buildsCancelled++;
    entry.cancel.abort(new ServiceError(`the build of the index of ${entry.repository} at ${entry.commit.slice(0, 12)} was cancelled: no request waits for it`, 503, 1));
  }

  private async release(entry: Entry): Promise<void> {
    entry.busy--;
    await this.evict();
  }

  /** Opens the localizer of an entry after the builds before it; a failed build leaves no entry. */
  private build(repository: RepositoryConfig, model: string, commit: string, entry: Entry): Promise<IssueLocalizer> {
    const { signal } = entry.cancel;
    const run = this.buildQueue.then(async () => {
      if (this.closed) throw new ServiceError('the service is shutting down', 503, 1);
      signal.throwIfAborted();
      this.counters.builds++;
      entry.startedAt = Date.now();
      const localizer = await this.open({
        repo: repository.path, rev: commit, cacheDir: this.config.cacheDir, maxIssueBytes: this.config.limits.maxIssueBytes,
        model: model === 'none' || model === 'default' ? model : this.config.models.get(model)!,
        onWarning: (m) => this.warn(`${repository.name}: ${m}`),
        onProgress: (step, done, total) => { entry.reports = nextReports(entry.reports, step, done, total, Date.now()); },
      });
      try {
        // the index and what the first query would open (history signals): the entry's first query pays only itself
        const info = await localizer.prepare(commit, { signal, stages: true });
        signal.throwIfAborted(); // cancelled as it ended: the entry is gone from the pool
        entry.bytes = this.estimate(localizer, info);
      } catch (e) {
        await localizer.close();
        throw e;
      }
      entry.localizer = localizer;
      return localizer;
    });
    // before any waiter's handlers: a waiter that sees the opening end never cancels it
    run.then(() => { entry.settled = true; }, () => { entry.settled = true; });
    this.buildQueue = run.catch(() => undefined);
    run.catch(() => {
      if (signal.aborted) return; // counted as cancelled
      this.counters.buildFailures++;
      if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    });
    return run;
  }

  /**
   * Closes idle entries, least recently used first, until the warm bytes fit the budget and
   * there are at most {@link MAX_WARM_ENTRIES}.
   */
  private async evict(): Promise<void> {
    const budget = this.config.limits.memoryBudgetBytes;
    let total = this.warmBytes();
    let count = this.entries.size;
    const over = () => total > budget || count > MAX_WARM_ENTRIES;
    if (!over()) return;
    const closing: Promise<void>[] = [];
    for (const e of [...this.entries.values()]) {
      if (!over()) break;
      if (e.busy > 0 || !e.localizer) continue;
      this.entries.delete(e.key);
      total -= e.bytes;
      count--;
      this.counters.evictions++;
      closing.push(e.localizer.close());
    }
    if (total > budget && !this.warnedOverBudget) {
      this.warnedOverBudget = true;
      this.warn(`the indexes in use (about ${mib(total)} MiB) are over the memory budget (${mib(budget)} MiB): raise limits.memoryBudget`);
    }
    await Promise.all(closing);
  }
}

/**
 * A bad-input error with the repository's path (git names it) put as its name: answers tell a
 * client nothing of the server's folders.
 */
function withoutPath(e: unknown, repository: RepositoryConfig): unknown {
  if (!(e instanceof IssuelocError) || e instanceof ServiceError || !e.message.includes(repository.path)) return e;
  return new IssuelocError(e.message.split(repository.path).join(`repository ${repository.name}`), e.exitCode);
}

const mib = (n: number) => Math.round(n / 2 ** 20);
const withDefined = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : { [key]: value } as Record<K, V>);

/**
 * `p`, or after `ms` (p goes on) a 503 {@link ServiceError}: with `message` and a retry after `ms`,
 * or the error `late` makes then.
 */
export function withinMs<T>(p: Promise<T>, ms: number, late: string | (() => ServiceError)): Promise<T> {
  if (!Number.isFinite(ms)) return p;
  let timer: NodeJS.Timeout | undefined;
  const tooLate = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(typeof late === 'string' ? new ServiceError(late, 503, Math.max(1, Math.ceil(ms / 1000))) : late()), ms);
  });
  return Promise.race([p, tooLate]).finally(() => clearTimeout(timer));
}
