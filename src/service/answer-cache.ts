/**
 * Answers of localize requests kept for the same request asked again (an agent retrying, a page
 * asking twice): a {@link ServiceBackend} around another that answers a request it has answered
 * before with the same bytes, without a query, a worker-thread hop or the index at all.
 *
 * - Only requests at the repository's default revision (no `rev`): their commit moves only through
 *   {@link ServiceBackend.refreshDefault}, which drops the repository's answers. A named revision
 *   (a branch moves, a commit may be gone) always runs.
 * - The key: the repository's name and a SHA-256 of the request's other fields (issue text, level, top, model, explain).
 * - Only answers of an index already reported (`"index": {"built": false, "millis": 0, …}`): the
 *   first answer of an index opened for it tells the opening, which a repeat must not.
 * - An answer started before its repository's default moved is not kept (it may be of the old commit).
 * - A hit whose repository's folder is gone goes to the backend (which tells it gone).
 * - LRU under a byte budget (`limits.answerCache`; 0: no cache); errors are never kept.
 *
 * A repeated answer is byte-identical to the first, its `queryMillis` included (the time of the query that made it).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { BackendStats, LocalizeRequest, RepoListing, ServiceBackend } from './backend.js';
import type { BuildProgress } from './build-progress.js';
import type { ServiceConfig } from './config.js';

/** Bytes an entry costs besides its answer (key, map slot). */
const ENTRY_OVERHEAD_BYTES = 200;

/** An answer of an index already reported: what {@link AnswerCache} keeps (fields in localizeJson's order). */
const REPORTED_INDEX = /"index":\{"built":false,"millis":0,/;

/** A backend with an answer cache in front; see the file comment. */
export class AnswerCache implements ServiceBackend {
  /** Answers by key, least recently used first (a Map keeps insertion order; a hit re-inserts). */
  private readonly answers = new Map<string, string>();
  private bytes = 0;
  /** Per repository, bumped when its default commit moves. */
  private readonly generations = new Map<string, number>();
  private hits = 0;

  /**
   * @param maxBytes bytes of answers kept at most (UTF-16 length × 2 plus overhead).
   * @param present whether a repository's folder is still there (checked at each hit: a removed
   *   repository is answered by `inner`, as gone); default: always.
   */
  constructor(private readonly inner: ServiceBackend, private readonly maxBytes: number, private readonly present: (repository: string) => boolean = () => true) {
    if (inner.builds) this.builds = (name?: string) => inner.builds!(name);
  }

  async localize(request: LocalizeRequest, waitMs: number): Promise<string> {
    if (request.rev !== undefined) return this.inner.localize(request, waitMs);
    const key = keyOf(request);
    const hit = this.answers.get(key);
    if (hit !== undefined && this.present(request.repository)) {
      this.answers.delete(key);
      this.answers.set(key, hit);
      this.hits++;
      return hit;
    }
    const generation = this.generations.get(request.repository) ?? 0;
    const answer = await this.inner.localize(request, waitMs);
    if ((this.generations.get(request.repository) ?? 0) === generation && REPORTED_INDEX.test(answer.slice(0, 1000))) this.keep(key, answer);
    return answer;
  }

  private keep(key: string, answer: string): void {
    const size = sizeOf(answer);
    if (size > this.maxBytes / 4 || this.answers.has(key)) return;
    this.answers.set(key, answer);
    this.bytes += size;
    for (const [k, a] of this.answers) {
      if (this.bytes <= this.maxBytes) break;
      this.answers.delete(k);
      this.bytes -= sizeOf(a);
    }
  }

  /** Drops the answers of a repository, and those still being made. */
  private forget(name: string): void {
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
    const prefix = `${name}\0`;
    for (const [k, a] of this.answers) {
      if (!k.startsWith(prefix)) continue;
      this.answers.delete(k);
      this.bytes -= sizeOf(a);
    }
  }

  repos(): Promise<RepoListing[]> {
    return this.inner.repos();
  }

  async stats(): Promise<BackendStats> {
    return { ...(await this.inner.stats()), answerHits: this.hits };
  }

  async refreshDefault(name: string): Promise<string | undefined> {
    let moved: string | undefined;
    try {
      moved = await this.inner.refreshDefault(name);
    } catch (e) {
      this.forget(name); // a refresh that failed half-way may have moved some workers' default
      throw e;
    }
    if (moved !== undefined) this.forget(name);
    return moved;
  }

  warmDefaults(): Promise<void> {
    return this.inner.warmDefaults();
  }

  builds?: (name?: string) => Promise<BuildProgress[]>;

  close(): Promise<void> {
    this.answers.clear();
    this.bytes = 0;
    return this.inner.close();
  }
}

/** `backend` with an {@link AnswerCache} of the configured size in front (none when 0), checking the repositories' folders at each hit. */
export function withAnswerCache(backend: ServiceBackend, config: ServiceConfig): ServiceBackend {
  const present = (name: string) => {
    const path = config.repositories.get(name)?.path;
    return path !== undefined && existsSync(path);
  };
  return config.limits.answerCacheBytes > 0 ? new AnswerCache(backend, config.limits.answerCacheBytes, present) : backend;
}

const sizeOf = (answer: string) => 2 * answer.length + ENTRY_OVERHEAD_BYTES;

/**
 * The repository's name, then a digest of the request's fields: the settings as a JSON array (its
 * end is where its brackets close), then the issue text as it is (not copied into a JSON string).
 */
function keyOf(r: LocalizeRequest): string {
  const digest = createHash('sha256').update(JSON.stringify([r.level ?? null, r.top ?? null, r.model ?? null, r.explain === true])).update(r.issue).digest('base64');
  return `${r.repository}\0${digest}`;
}
