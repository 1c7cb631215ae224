/**
 * The change history of a repository as history signals need it: per commit its parents, time,
 * whether it is a fix ({@link isFixCommit}), the files it changed (against its first parent) and
 * the words of its message. Read with one streaming `git log --no-renames --name-status` (trees
 * only: no blob is read, so fetched snapshots with missing blobs work), cached on disk per
 * repository and extended incrementally: a later revision reads only the commits not yet known
 * (`git log <rev> --not <known heads>`).
 *
 * The cache file is named by the repository (a digest of its absolute path), so repositories
 * sharing a cache folder never see each other's commits. A cached row is right for any
 * repository holding its commit (a commit id fixes its parents, message and changed files), so
 * a cached head is used while it is a commit of the repository, whether or not it is an
 * ancestor of the revisions asked for; when one is not (the repository at that path was
 * replaced, or rewritten and garbage-collected) the log is read again from scratch. Statistics
 * over the log are computed over one base commit's ancestors ({@link HistoryLog.ancestorsOf}),
 * so commits of other branches or later revisions in the log never weigh in.
 */
import { join, resolve } from 'node:path';
import { IssuelocError } from '../errors.js';
import { gitText } from '../repo/git-process.js';
import { streamLog } from '../repo/log-walk.js';
import { tokenize } from '../text/tokenize.js';
import { firstWords } from '../text/first-words.js';
import { isIntArray, isRecord, isStringArray, readCheckedJson, writeCheckedJson } from '../util/checked-file.js';
import { isFixCommit } from './fix-commits.js';
import { sha1Hex } from '../util/sha1.js';
import { warnCacheNotSaved } from '../util/file-errors.js';

/** Words of a commit message kept for message similarity (subject first). */
export const MESSAGE_WORDS = 64;

/** The on-disk form (version 2: message tokens with whole snake_case parts) of a {@link HistoryLog}. */
interface HistoryLogFile {
  format: 2;
  /** Revisions (full SHAs) whose whole ancestry is in the log. */
  heads: string[];
  shas: string[];
  /** Parent indices per commit (parents outside the log are left out). */
  parents: number[][];
  /** Committer times, seconds since the epoch. */
  times: number[];
  /** 1 when the commit is a fix. */
  fix: number[];
  /** Indices into `paths` of the files each commit changed (empty for merges). */
  files: number[][];
  paths: string[];
  /** The message's tokens (lower-cased, split identifiers, no stop words), space-joined. */
  words: string[];
}

/** Options of {@link HistoryLog.load}. */
export interface HistoryLogOptions {
  /** Folder of the on-disk cache (see {@link historyLogFile}); none = read git every time. */
  cacheDir?: string;
  /** Progress of reading commits from git (done, total), about every thousand commits; not called when the cache holds them all. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * The cache file of the history of `repoPath` under `cacheDir`:
 * `<cacheDir>/history/<digest of the absolute repository path>.json`.
 */
export function historyLogFile(cacheDir: string, repoPath: string): string {
  return join(cacheDir, 'history', `${repoDigest(repoPath)}.json`);
}

/** The name of a repository in history cache files: a digest of its absolute path. */
export function repoDigest(repoPath: string): string {
  return sha1Hex(resolve(repoPath)).slice(0, 16);
}

/**
 * Commits of one repository, indexed 0 … size−1 (children before parents within each read).
 * Construct with {@link HistoryLog.load}.
 */
export class HistoryLog {
  private readonly indexOfSha = new Map<string, number>();
  private canonical: Int32Array | undefined;
  /**
   * Whether the log is the one of the on-disk cache (read from it whole, or saved to it): a
   * complete history, so what is derived from it may be cached too. False without a cache
   * folder, for a shallow clone, or when the cache cannot be written.
   */
  cached = false;
  private constructor(private data: HistoryLogFile) {
    data.shas.forEach((s, i) => this.indexOfSha.set(s, i));
  }

  /** Number of commits. */
  get size(): number { return this.data.shas.length; }
  /** Paths of the files, indexed by the numbers in {@link filesOf}. */
  get paths(): readonly string[] { return this.data.paths; }
  /** The commit's index, or undefined when it is not in the log. */
  indexOf(sha: string): number | undefined { return this.indexOfSha.get(sha); }
  /** Full SHA of commit `i`. */
  shaOf(i: number): string { return this.data.shas[i]; }
  /** Log indices of commit `i`'s parents, first parent first (parents outside the log, as at a shallow clone's cut, are left out). */
  parentsOf(i: number): readonly number[] { return this.data.parents[i]; }
  /** Committer time of commit `i` (seconds since the epoch). */
  timeOf(i: number): number { return this.data.times[i]; }
  /** Whether commit `i` is a fix. */
  isFix(i: number): boolean { return this.data.fix[i] === 1; }
  /** Path indices of the files commit `i` changed against its first parent. */
  filesOf(i: number): readonly number[] { return this.data.files[i]; }
  /** Tokens of commit `i`'s message (at most {@link MESSAGE_WORDS} words' worth). */
  wordsOf(i: number): string[] { return this.data.words[i] === '' ? [] : this.data.words[i].split(' '); }

  /**
   * Every commit index once, ordered by committer time, then SHA: an order that depends on the
   * commits alone, not on the order in which reads filled the log. Sums over commits taken in
   * this order are the same however the cache was filled. Computed on first use.
   */
  canonicalOrder(): Int32Array {
    if (!this.canonical) {
      const { times, shas } = this.data;
      const order = Array.from({ length: this.size }, (_, i) => i);
      order.sort((a, b) => times[a] - times[b] || (shas[a] < shas[b] ? -1 : shas[a] > shas[b] ? 1 : 0));
      this.canonical = Int32Array.from(order);
    }
    return this.canonical;
  }

  /**
   * Marks the ancestors of commit `sha` (itself included): mark[i] = 1 for each.
   * Cost: linear in the number of ancestors.
   * @throws IssuelocError when `sha` is not in the log.
   */
  ancestorsOf(sha: string): Uint8Array {
    const start = this.indexOfSha.get(sha);
    if (start === undefined) throw new IssuelocError(`commit ${sha} is not in the history log`);
    const mark = new Uint8Array(this.size);
    mark[start] = 1;
    return this.markAncestors([start], mark);
  }

  /** Sets mark[i] = 1 for every ancestor of the commits `from` (not for `from` themselves); returns `mark`. */
  private markAncestors(from: readonly number[], mark: Uint8Array): Uint8Array {
    const stack: number[] = [];
    const visit = (i: number) => {
      for (const p of this.data.parents[i]) if (mark[p] === 0) { mark[p] = 1; stack.push(p); }
    };
    for (const i of from) visit(i);
    while (stack.length > 0) visit(stack.pop()!);
    return mark;
  }

  /**
   * The history of `repoPath` containing every ancestor of each of `revs`: loaded from the cache
   * ({@link historyLogFile}) when it already holds them, else extended by reading only the
   * missing commits from git, then saved (atomically). A malformed cache file, or one whose heads
   * are not all commits of the repository, is read again from scratch; a shallow clone's
   * history is used but not saved, and so is one the cache folder cannot take (read-only: one
   * warning line).
   *
   * @param repoPath a git repository (work tree or bare).
   * @param revs full commit SHAs (resolve revisions first).
   * @throws IssuelocError when git fails (unknown commit, not a repository), with git's message.
   */
  static async load(repoPath: string, revs: readonly string[], opts: HistoryLogOptions = {}): Promise<HistoryLog> {
    const file = opts.cacheDir ? historyLogFile(opts.cacheDir, repoPath) : undefined;
    // a missing, corrupt (checked file: src/util/checked-file.ts) or malformed cache is rebuilt
    const data = (file && readCheckedJson(file, HISTORY_TAG, isHistoryLogFile)) || emptyLog();
    const log = new HistoryLog(data);
    const missing = [...new Set(revs)].filter((r) => !log.indexOfSha.has(r));
    log.cached = file !== undefined && missing.length === 0;
    if (missing.length === 0) return log;
    const complete = await log.extend(repoPath, missing, opts.onProgress);
    // a history cut short (shallow clone) is not kept: once deepened it is read whole
    if (file && complete && !(await isShallow(repoPath))) {
      try {
        writeCheckedJson(file, HISTORY_TAG, log.data, { fsync: false });
        log.cached = true;
      } catch (e) {
        // a read-only cache folder still serves: the history is used, read from git again next time
        warnCacheNotSaved(`cannot save the history cache ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); it is read from git again next time`, e);
      }
    }
    return log;
  }

  /**
   * Reads the commits of `revs` not yet in the log and appends them; starts over from an empty
   * log when a known head is no commit of the repository, or when commits read on top of the
   * log miss a parent (the log did not hold the whole ancestry it claimed).
   * @returns false when a parent of a commit read is in no read (a history cut short) or the
   *   log is inconsistent with the repository even after a fresh read.
   */
  private async extend(repoPath: string, revs: string[], onProgress?: (done: number, total: number) => void): Promise<boolean> {
    let known = this.data.heads.filter((h) => this.indexOfSha.has(h));
    if (known.length > 0 && (await commitsAmong(repoPath, known)) < known.length) {
      this.reset();
      known = [];
    }
    if (await this.read(repoPath, revs, known, onProgress)) return true;
    if (known.length === 0) return false;
    this.reset();
    return this.read(repoPath, revs, [], onProgress);
  }

  /** Empties the log, keeping nothing read before. */
  private reset(): void {
    this.data = emptyLog();
    this.indexOfSha.clear();
    this.canonical = undefined;
  }

  /**
   * Appends the commits of `git log <revs> --not <known>`.
   * @returns whether the read fits the log: every parent of the commits read is in the log and
   *   no commit read was in it already.
   */
  private async read(repoPath: string, revs: string[], known: string[], onProgress?: (done: number, total: number) => void): Promise<boolean> {
    const d = this.data;
    const range = [...revs, ...(known.length > 0 ? ['--not', ...known] : [])];
    const total = onProgress ? await countCommits(repoPath, range) : 0;
    let done = 0;
    onProgress?.(0, total);
    const pathIds = new Map<string, number>();
    d.paths.forEach((p, i) => pathIds.set(p, i));
    const pendingParents: string[][] = [];
    const first = d.shas.length;
    let complete = true;
    await streamLog(repoPath, range, (c) => {
      if (onProgress && (++done & 1023) === 0) onProgress(done, total);
      // a commit already known is never printed by a consistent log: note it, keep one row
      if (this.indexOfSha.has(c.sha)) { complete = false; return; }
      this.indexOfSha.set(c.sha, d.shas.length);
      d.shas.push(c.sha);
      pendingParents.push(c.parents);
      d.times.push(c.time);
      d.fix.push(isFixCommit(c.message) ? 1 : 0);
      d.files.push(c.changes.map((ch) => {
        let id = pathIds.get(ch.path);
        if (id === undefined) { id = d.paths.length; d.paths.push(ch.path); pathIds.set(ch.path, id); }
        return id;
      }));
      d.words.push(tokenize(firstWords(c.message, MESSAGE_WORDS)).join(' '));
    });
    onProgress?.(done, Math.max(done, total));
    for (let k = 0; k < pendingParents.length; k++) {
      const ids = pendingParents[k].map((p) => this.indexOfSha.get(p));
      if (ids.includes(undefined)) complete = false;
      d.parents[first + k] = ids.filter((p): p is number => p !== undefined);
    }
    // a revision git printed nothing for was reachable from a known head yet not in the log
    if (!revs.every((r) => this.indexOfSha.has(r))) complete = false;
    d.heads = this.tipsOf([...known, ...revs].filter((h) => this.indexOfSha.has(h)));
    this.canonical = undefined;
    return complete;
  }

  /** The commits of `heads` that are no ancestor of another of them (the others add nothing to `--not`). */
  private tipsOf(heads: readonly string[]): string[] {
    const ids = [...new Set(heads)].map((h) => this.indexOfSha.get(h)!);
    const below = this.markAncestors(ids, new Uint8Array(this.size));
    return ids.filter((i) => below[i] === 0).map((i) => this.data.shas[i]);
  }
}

/** How many commits `git log <range>` prints, for progress only (0 when git cannot say). */
async function countCommits(repoPath: string, range: readonly string[]): Promise<number> {
  try {
    return Number((await gitText(['-C', repoPath, 'rev-list', '--count', ...range, '--'])).trim()) || 0;
  } catch {
    return 0;
  }
}

/** Whether `repoPath` is a shallow clone (its history cut at some commits, shown as roots). */
async function isShallow(repoPath: string): Promise<boolean> {
  return (await gitText(['-C', repoPath, 'rev-parse', '--is-shallow-repository'])).trim() === 'true';
}

/** How many of `shas` are commits of the repository (one `git rev-list --no-walk`). */
async function commitsAmong(repoPath: string, shas: readonly string[]): Promise<number> {
  try {
    const out = await gitText(['-C', repoPath, 'rev-list', '--no-walk', '--ignore-missing', ...shas, '--']);
    return out.split('\n').filter((l) => l !== '').length;
  } catch {
    return 0;
  }
}

/** Tag of the history log's cache file (src/util/checked-file.ts). */
export const HISTORY_TAG = 'hist.v2';

/** Whether `x` is a whole {@link HistoryLogFile}: one entry per commit in each array, indices in range. */
function isHistoryLogFile(x: unknown): x is HistoryLogFile {
  if (!isRecord(x) || x.format !== 2 || !isStringArray(x.heads) || !isStringArray(x.shas) || !isStringArray(x.paths) || !isStringArray(x.words)) return false;
  const n = x.shas.length;
  const perCommit = [x.parents, x.times, x.fix, x.files, x.words];
  return perCommit.every((a) => Array.isArray(a) && a.length === n) && (x.times as unknown[]).every(Number.isInteger) && isIntArray(x.fix, 2) &&
    (x.parents as unknown[]).every((p) => isIntArray(p, n)) && (x.files as unknown[]).every((f) => isIntArray(f, (x.paths as string[]).length));
}

function emptyLog(): HistoryLogFile {
  return { format: 2, heads: [], shas: [], parents: [], times: [], fix: [], files: [], paths: [], words: [] };
}
