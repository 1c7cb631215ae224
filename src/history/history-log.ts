/**
 * The change history of a repository as history signals need it: per commit its parents, time,
 * whether it is a fix ({@link isFixCommit}), the files it changed (against its first parent) and
 * the words of its message. Read with one streaming `git log --no-renames --name-status` (trees
 * only: no blob is read, so fetched snapshots with missing blobs work), cached on disk per
 * repository and extended incrementally: a later revision reads only the commits not yet known
 * (`git log <rev> --not <known heads>`).
 */
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import { streamGit } from '../repo/history-git.js';
import { LOG_FORMAT, LogParser } from '../repo/history-parse.js';
import { tokenize } from '../text/tokenize.js';
import { firstWords } from '../index/code-index.js';
import { isIntArray, isRecord, isStringArray, readCheckedJson, writeCheckedJson } from '../util/checked-file.js';
import { isFixCommit } from './fix-commits.js';

/** Words of a commit message kept for message similarity (subject first). */
export const MESSAGE_WORDS = 64;

/** The on-disk form (version 1) of a {@link HistoryLog}. */
interface HistoryLogFile {
  format: 1;
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
  /** Folder of the on-disk cache (`<cacheDir>/history/log.json`); none = read git every time. */
  cacheDir?: string;
}

/**
 * Commits of one repository, indexed 0 … size−1 (children before parents within each read).
 * Construct with {@link HistoryLog.load}.
 */
export class HistoryLog {
  private readonly indexOfSha = new Map<string, number>();
  private constructor(private readonly data: HistoryLogFile) {
    data.shas.forEach((s, i) => this.indexOfSha.set(s, i));
  }

  /** Number of commits. */
  get size(): number { return this.data.shas.length; }
  /** Paths of the files, indexed by the numbers in {@link filesOf}. */
  get paths(): readonly string[] { return this.data.paths; }
  /** The commit's index, or undefined when it is not in the log. */
  indexOf(sha: string): number | undefined { return this.indexOfSha.get(sha); }
  /** Committer time of commit `i` (seconds since the epoch). */
  timeOf(i: number): number { return this.data.times[i]; }
  /** Whether commit `i` is a fix. */
  isFix(i: number): boolean { return this.data.fix[i] === 1; }
  /** Path indices of the files commit `i` changed against its first parent. */
  filesOf(i: number): readonly number[] { return this.data.files[i]; }
  /** Tokens of commit `i`'s message (at most {@link MESSAGE_WORDS} words' worth). */
  wordsOf(i: number): string[] { return this.data.words[i] === '' ? [] : this.data.words[i].split(' '); }

  /**
   * Marks the ancestors of commit `sha` (itself included): mark[i] = 1 for each.
   * Cost: linear in the number of ancestors.
   * @throws IssuelocError when `sha` is not in the log.
   */
  ancestorsOf(sha: string): Uint8Array {
    const start = this.indexOfSha.get(sha);
    if (start === undefined) throw new IssuelocError(`commit ${sha} is not in the history log`);
    const mark = new Uint8Array(this.size);
    const stack = [start];
    mark[start] = 1;
    while (stack.length > 0) {
      const i = stack.pop()!;
      for (const p of this.data.parents[i]) {
        if (mark[p] === 0) { mark[p] = 1; stack.push(p); }
      }
    }
    return mark;
  }

  /**
   * The history of `repoPath` containing every ancestor of each of `revs`: loaded from the cache
   * when it already holds them, else extended by reading only the missing commits from git, then
   * saved (atomically).
   *
   * @param repoPath a git repository (work tree or bare).
   * @param revs full commit SHAs (resolve revisions first).
   * @throws IssuelocError when git fails (unknown commit, not a repository), with git's message.
   */
  static async load(repoPath: string, revs: readonly string[], opts: HistoryLogOptions = {}): Promise<HistoryLog> {
    const file = opts.cacheDir ? join(opts.cacheDir, 'history', 'log.json') : undefined;
    // a missing or corrupt cache (checked file: src/util/checked-file.ts) is rebuilt
    const data = (file && readCheckedJson(file, HISTORY_TAG, isHistoryLogFile)) || emptyLog();
    const log = new HistoryLog(data);
    const missing = [...new Set(revs)].filter((r) => !log.indexOfSha.has(r));
    if (missing.length === 0) return log;
    await log.extend(repoPath, missing);
    if (file) writeCheckedJson(file, HISTORY_TAG, log.data, { fsync: false });
    return log;
  }

  /** Reads the commits of `revs` not yet in the log and appends them. */
  private async extend(repoPath: string, revs: string[]): Promise<void> {
    const d = this.data;
    const pathIds = new Map<string, number>();
    d.paths.forEach((p, i) => pathIds.set(p, i));
    const pendingParents: string[][] = [];
    const first = d.shas.length;
    const parser = new LogParser((c) => {
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
    const known = d.heads.filter((h) => this.indexOfSha.has(h));
    const args = [
      '-c', 'log.showSignature=false', 'log', '--no-renames', '--topo-order', '--no-color', '--no-ext-diff',
      '--no-textconv', '-z', '--name-status', `--format=${LOG_FORMAT}`, ...revs,
      ...(known.length > 0 ? ['--not', ...known] : []), '--',
    ];
    try {
      await streamGit(repoPath, args, (chunk) => parser.push(chunk));
      parser.end();
    } catch (e) {
      if (e instanceof IssuelocError) throw e;
      throw new IssuelocError(`cannot read the history of ${repoPath}: ${(e as Error).message}`);
    }
    for (let k = 0; k < pendingParents.length; k++) {
      d.parents[first + k] = pendingParents[k].map((p) => this.indexOfSha.get(p)).filter((p): p is number => p !== undefined);
    }
    d.heads = [...known, ...revs];
  }
}

const HISTORY_TAG = 'hist.v1';

/** Whether `x` is a whole {@link HistoryLogFile}: one entry per commit in each array, indices in range. */
function isHistoryLogFile(x: unknown): x is HistoryLogFile {
  if (!isRecord(x) || x.format !== 1 || !isStringArray(x.heads) || !isStringArray(x.shas) || !isStringArray(x.paths) || !isStringArray(x.words)) return false;
  const n = x.shas.length;
  const perCommit = [x.parents, x.times, x.fix, x.files, x.words];
  return perCommit.every((a) => Array.isArray(a) && a.length === n) && (x.times as unknown[]).every(Number.isInteger) && isIntArray(x.fix, 2) &&
    (x.parents as unknown[]).every((p) => isIntArray(p, n)) && (x.files as unknown[]).every((f) => isIntArray(f, (x.paths as string[]).length));
}

function emptyLog(): HistoryLogFile {
  return { format: 1, heads: [], shas: [], parents: [], times: [], fix: [], files: [], paths: [], words: [] };
}
