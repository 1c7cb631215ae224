/**
 * The commit miner: a repository's own history as labelled localisation samples. Each commit
 * before a base commit whose message can stand for an issue becomes a pseudo-issue — its message
 * (subject and body) as the issue text, the non-test source files it changes and the existing
 * functions it edits as the positives — the pairs SweLoc mined from pull requests, offline and at
 * any base commit. docs/dataset.md ("Pseudo-issues from commits") lists the filters.
 *
 * Leakage guard: only ancestors of the base commit are ever read (the history log's ancestry of
 * the base); commits after it or on other branches never make a pseudo-issue.
 *
 * Cost: the history log (one streaming `git log --name-status`, cached and incremental, trees
 * only) decides the merge, file-count and test filters without reading a blob; the commits left
 * have their commit objects and blobs read through the repository's `git cat-file --batch`, their
 * −U0 diffs from one `git diff-tree --stdin` per batch of {@link BATCH} commits, and their blobs'
 * function spans parsed once per blob, each file's version re-parsed from the one mined before it
 * (tree-sitter's incremental parsing). What mining each commit gave is cached per repository and
 * settings (`mining/mined-cache.ts`), so a later run mines only the new commits. Memory: the
 * history log and the cache entries; two batches of commits are in flight at a time.
 */
import { BLOB_FORMAT_VERSION } from '../index/code-index.js';
import { unitVersionsKey } from '../corpus/extract-specs.js';
import { isTestPath } from '../corpus/languages.js';
import { isSourceFile } from '../corpus/select.js';
import type { DatasetRecord } from '../dataset/record.js';
import { IssuelocError } from '../errors.js';
import type { GitRepo } from '../repo/git.js';
import { MESSAGE_RULES, messageVerdict, splitMessage, type MessageReason } from './commit-filters.js';
import { isFixCommit } from './fix-commits.js';
import { HistoryLog } from './history-log.js';
import { commitDiffs } from './mining/commit-diffs.js';
import { editedFunctions, SpanCache } from './mining/edited-functions.js';
import { SpanPool } from './mining/span-pool.js';
import { MinedCache, type MinedEntry } from './mining/mined-cache.js';

/** Commits processed together (one `git diff-tree` process, one round of blob reads). */
export const BATCH = 256;

/** Why a commit made no pseudo-issue, in the order the filters apply. */
export type DropReason =
  | 'merge' | 'root' | 'no-source-files' | 'too-many-files' | MessageReason
  | 'only-new-files' | 'unreadable' | 'no-functions' | 'inconsistent';

/** Every {@link DropReason}, in filter order. */
export const DROP_REASONS: readonly DropReason[] = [
  'merge', 'root', 'no-source-files', 'too-many-files', 'bot', 'revert', 'version-bump', 'formatting', 'typo', 'short-message',
  'only-new-files', 'unreadable', 'no-functions', 'inconsistent',
];

/** A ranking of the lexical pipeline, for the consistency filter and hard negatives. */
export interface Ranking {
  /** Function ids `path:Qualified.name`, best first. */
  functions: string[];
  /** File paths, best first. */
  files: string[];
}

/** The consistency filter: the issue's text must rank a positive high (SweLoc's filter). */
export interface ConsistencyCheck {
  /**
   * Ranks the repository at `commit` (the pseudo-issue's parent) for `text`. Called once per
   * pseudo-issue that passed every other filter, in output order.
   */
  rank(text: string, commit: string): Promise<Ranking>;
  /** A positive function (a positive file when the commit edits no function) must be within the first `topK`. */
  topK: number;
  /** Hard negatives kept per pseudo-issue: the best-ranked functions (files) that are not positives (default 10). */
  negatives?: number;
}

/** Options of {@link mineCommits}. */
export interface MineOptions {
  /** Cache folder (the history log and the mined commits go to `<cacheDir>/history/`); none = nothing cached. */
  cacheDir?: string;
  /** Read only the most recent N ancestors of the base commit (by committer time; default all). */
  maxCommits?: number;
  /** Read only commits committed at or after this time (seconds since the epoch). */
  since?: number;
  /** K: most changed non-test source files a commit may have (default 5; at least 1). */
  maxFiles?: number;
  /** Fewest words (two or more Latin letters) of a message (default 3). */
  minWords?: number;
  /** Leave out commits that edit no existing function (default false: they stay file-level samples). */
  requireFunctions?: boolean;
  /** Consistency filter and hard negatives (default none). Never cached. */
  consistency?: ConsistencyCheck;
  /** Worker threads parsing blobs (default: none for a few commits to mine, else the cores, at most 4). */
  threads?: number;
  /** Called after each batch: (commits done, commits to read). */
  onProgress?: (done: number, total: number) => void;
}

/** One pseudo-issue: a commit's message and what it changed. */
export interface PseudoIssue {
  sha: string;
  /** First parent: the a-priori state the pseudo-issue is localised at. */
  parent: string;
  /** Committer time, seconds since the epoch. */
  time: number;
  /** `Name <email>` of the author. */
  author: string;
  /** First line of the message. */
  subject: string;
  /** The rest of the message, without trailers (Signed-off-by, git-svn-id, …). */
  body: string;
  /** Whether the message names a fix (`isFixCommit`). */
  fix: boolean;
  /** Positive files: the changed non-test source files the parent has. */
  files: string[];
  /** Positive functions `path:Qualified.name` (existing functions the commit edits). */
  functions: string[];
  /** Positive modules `path:TopLevelName`. */
  modules: string[];
  /** Non-test source files the commit adds (not positives: the parent lacks them). */
  added: string[];
  /** Whether the commit also changes test files. */
  changesTests: boolean;
  /** Positive files whose diff or blobs are missing (they give no functions). */
  unreadable: string[];
  /** With a consistency check: best-ranked non-positive functions (files when there are no positive functions). */
  hardNegatives?: string[];
  /** With a consistency check: the best rank (1-based) of a positive. */
  positiveRank?: number;
}

/** Counts of one mining run. */
export interface MineSummary {
  /** The base commit (full SHA). */
  base: string;
  /** Ancestors of the base commit in the history (itself included). */
  ancestors: number;
  /** Commits read (after `maxCommits` and `since`). */
  read: number;
  /** Of those, answered by the cache. */
  cached: number;
  /** Pseudo-issues emitted. */
  kept: number;
  /** Commits dropped, per reason. */
  dropped: Record<DropReason, number>;
  /** Blobs parsed for function spans. */
  parsedBlobs: number;
  /** The repository is a shallow clone: the history before its cut is not there (and not cached). */
  shallow: boolean;
  /** Wall time, milliseconds (set when the iteration ends). */
  millis: number;
}

/** The pseudo-issues of a base commit, streamed; `summary` is complete once the iteration ends. */
export interface MinedCommits extends AsyncIterable<PseudoIssue> {
  readonly summary: MineSummary;
}

/** Version of what a cache entry holds and of the file rules; with the extractor's and the message rules, part of the cache key. */
const MINER_FORMAT = 'm2';

/** A commit object's first parent, author and message (`git cat-file` text). */
function parseCommitObject(data: Buffer): { parents: string[]; author: string; message: string } {
  const text = data.toString('utf8');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const parents: string[] = [];
  let author = '';
  for (const line of head.split('\n')) {
    if (line.startsWith('parent ')) parents.push(line.slice(7).trim());
    else if (line.startsWith('author ')) author = line.slice(7).replace(/\s+\d+\s+[+-]\d{4}\s*$/, '');
  }
  return { parents, author, message: end < 0 ? '' : text.slice(end + 2) };
}

/**
 * Mines the commits before `baseCommit` as pseudo-issues (see the module comment), most recent
 * first (committer time, then SHA, descending).
 *
 * Filters, in order (counted in `summary.dropped`): merges (their branch's commits are mined on
 * their own) and root commits (also the cut of a shallow clone); no changed non-test source file,
 * or more than `maxFiles`; the message rules of `messageVerdict` (bot, revert, version bump,
 * formatting, typo, fewer than `minWords` words); only added files; every positive file
 * unreadable (missing blobs); with `requireFunctions`, no edited function; with `consistency`, no
 * positive ranked within its `topK`.
 *
 * @param repo the repository (work tree or bare; no checkout is read).
 * @param baseCommit any revision; only its ancestors are read.
 * @throws IssuelocError (when iterated) for an unknown base commit or a history git cannot read;
 *   bad option values at once.
 */
export function mineCommits(repo: GitRepo, baseCommit: string, options: MineOptions = {}): MinedCommits {
  const maxFiles = options.maxFiles ?? 5;
  const minWords = options.minWords ?? 3;
  if (!Number.isInteger(maxFiles) || maxFiles < 1) throw new IssuelocError(`maxFiles must be a whole number ≥ 1, got ${maxFiles}`);
  if (!Number.isInteger(minWords) || minWords < 1) throw new IssuelocError(`minWords must be a whole number ≥ 1, got ${minWords}`);
  if (options.maxCommits !== undefined && (!Number.isInteger(options.maxCommits) || options.maxCommits < 1)) {
    throw new IssuelocError(`maxCommits must be a whole number ≥ 1, got ${options.maxCommits}`);
  }
  const summary: MineSummary = {
    base: '', ancestors: 0, read: 0, cached: 0, kept: 0, parsedBlobs: 0, shallow: repo.isShallow, millis: 0,
    dropped: Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>,
  };
  return {
    summary,
    [Symbol.asyncIterator]: () => mine(repo, baseCommit, { ...options, maxFiles, minWords }, summary),
  };
}

type Settled = Required<Pick<MineOptions, 'maxFiles' | 'minWords'>> & MineOptions;

async function* mine(repo: GitRepo, baseCommit: string, o: Settled, summary: MineSummary): AsyncGenerator<PseudoIssue> {
  const started = Date.now();
  const base = await repo.resolveCommit(baseCommit);
  summary.base = base;
  const log = await HistoryLog.load(repo.gitDir, [base], { cacheDir: o.cacheDir });
  const ancestors = log.ancestorsOf(base);
  // most recent first, by an order fixed by the commits themselves
  const order = log.canonicalOrder();
  const selected: number[] = [];
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k];
    if (ancestors[i] === 0) continue;
    summary.ancestors++;
    if (o.since !== undefined && log.timeOf(i) < o.since) continue;
    if (o.maxCommits === undefined || selected.length < o.maxCommits) selected.push(i);
  }
  summary.read = selected.length;
  const settings = `${MINER_FORMAT}|${BLOB_FORMAT_VERSION}|${unitVersionsKey()}|K=${o.maxFiles}|words=${o.minWords}|${MESSAGE_RULES}`;
  const cache = MinedCache.load(repo.isShallow ? undefined : o.cacheDir, repo.gitDir, settings);
  const uncached = selected.reduce((n, i) => n + (cache.entries.has(log.shaOf(i)) ? 0 : 1), 0);
  const pool = new SpanPool(o.threads ?? SpanPool.threadsFor(uncached));
  const spans = new SpanCache(pool);
  const sourceRule = { includeTests: false, includeVendored: false };
  /** Mines the uncached commits of the batch at `at` into the cache. */
  const mineFrom = async (at: number): Promise<void> => {
    const todo: number[] = [];
    for (const i of selected.slice(at, at + BATCH)) {
      const sha = log.shaOf(i);
      if (cache.entries.has(sha)) summary.cached++;
      else {
        const reason = prefilter(log, i, o.maxFiles, sourceRule);
        if (reason) cache.entries.set(sha, reason);
        else todo.push(i);
      }
    }
    await mineBatch(repo, log, todo, o, spans, cache);
  };
  const start = (at: number): Promise<void> | undefined => {
    if (at >= selected.length) return undefined;
    const mining = mineFrom(at);
    mining.catch(() => undefined); // awaited below; a failure is never unhandled meanwhile
    return mining;
  };
  let ahead = start(0);
  try {
    for (let at = 0; at < selected.length; at += BATCH) {
      const batch = selected.slice(at, at + BATCH);
      const current = ahead;
      // two batches in flight: the next one's reads and parses keep the threads busy while
      // this one's last parses finish
      ahead = start(at + BATCH);
      await current;
      summary.parsedBlobs = spans.parsed;
      for (const i of batch) {
        const sha = log.shaOf(i);
        const value = cache.entries.get(sha)!;
        if (typeof value === 'string') {
          summary.dropped[value as DropReason]++;
          continue;
        }
        if (o.requireFunctions && value.functions.length === 0) {
          summary.dropped['no-functions']++;
          continue;
        }
        const issue = pseudoIssueOf(sha, value);
        if (o.consistency && !(await consistent(issue, o.consistency))) {
          summary.dropped.inconsistent++;
          continue;
        }
        summary.kept++;
        yield issue;
      }
      o.onProgress?.(Math.min(at + BATCH, selected.length), selected.length);
    }
  } finally {
    await ahead?.catch(() => undefined);
    await pool.close();
    cache.save((sha) => log.indexOf(sha) !== undefined);
    summary.millis = Date.now() - started;
  }
}

/** The drop reason the history log alone decides (parents, changed files), or undefined. */
function prefilter(log: HistoryLog, i: number, maxFiles: number, rule: { includeTests: boolean; includeVendored: boolean }): DropReason | undefined {
  const parents = log.parentsOf(i).length;
  if (parents > 1) return 'merge';
  if (parents === 0) return 'root';
  let n = 0;
  for (const f of log.filesOf(i)) if (isSourceFile(log.paths[f], rule)) n++;
  if (n === 0) return 'no-source-files';
  if (n > maxFiles) return 'too-many-files';
  return undefined;
}

/** Mines the commits `todo` (log indices that passed the prefilter) into `cache.entries`. */
async function mineBatch(repo: GitRepo, log: HistoryLog, todo: readonly number[], o: Settled, spans: SpanCache, cache: MinedCache): Promise<void> {
  const sourceRule = { includeTests: false, includeVendored: false };
  const objects = await Promise.all(todo.map((i) => repo.readObject(log.shaOf(i))));
  const wanted: { i: number; sha: string; parent: string; author: string; message: string; paths: string[]; tests: boolean }[] = [];
  todo.forEach((i, k) => {
    const sha = log.shaOf(i);
    const obj = objects[k];
    if (!obj || obj.type !== 'commit') {
      cache.entries.set(sha, 'unreadable');
      return;
    }
    const c = parseCommitObject(obj.data);
    const reason = messageVerdict(c.message, c.author, o.minWords);
    if (reason) {
      cache.entries.set(sha, reason);
      return;
    }
    const changed = log.filesOf(i).map((f) => log.paths[f]);
    wanted.push({
      i, sha, parent: c.parents[0], author: c.author, message: c.message,
      paths: changed.filter((p) => isSourceFile(p, sourceRule)), tests: changed.some(isTestPath),
    });
  });
  const diffs = await commitDiffs(repo, wanted.map((w) => ({ sha: w.sha, paths: w.paths })));
  // every commit's blobs at once, so the span pool's threads all have work
  await Promise.all(wanted.map(async (w) => {
    const diff = diffs.get(w.sha)!;
    const existing = diff.files.filter((f) => f.oldPath !== null);
    const listed = new Set(diff.files.map((f) => f.path));
    // binary, empty or mode-only changes have no text patch: positives when the parent has them, no functions
    const noText = w.paths.filter((p) => !listed.has(p) && !diff.unreadable.includes(p));
    const inParent = await pathsIn(repo, w.parent, noText);
    const untexted = noText.filter((p) => inParent.has(p));
    const added = [...diff.files.filter((f) => f.oldPath === null).map((f) => f.path), ...noText.filter((p) => !inParent.has(p))];
    const files = [...existing.map((f) => f.path), ...untexted, ...diff.unreadable];
    if (files.length === 0) {
      cache.entries.set(w.sha, 'only-new-files');
      return;
    }
    const edited = await editedFunctions(repo, w.sha, w.parent, existing, spans);
    const unreadable = [...diff.unreadable, ...edited.unreadable];
    if (unreadable.length === files.length) {
      cache.entries.set(w.sha, 'unreadable');
      return;
    }
    const entry: MinedEntry = {
      parent: w.parent, time: log.timeOf(w.i), author: w.author, message: w.message,
      files, added, functions: [...new Set(edited.functions)], modules: [...new Set(edited.modules)], changesTests: w.tests, unreadable,
    };
    cache.entries.set(w.sha, entry);
  }));
}

/** Which of `paths` the tree of `commit` holds (one `git ls-tree`; none asked, none read). */
async function pathsIn(repo: GitRepo, commit: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const res = await repo.exec(['--literal-pathspecs', 'ls-tree', '-z', '--name-only', '--full-tree', commit, '--', ...paths]);
  if (res.code !== 0) throw new IssuelocError(`git ls-tree ${commit} failed: ${res.stderr.trim().split('\n')[0]}`, 3);
  return new Set(res.stdout.toString('utf8').split('\0').filter((p) => p !== ''));
}

function pseudoIssueOf(sha: string, e: MinedEntry): PseudoIssue {
  const { subject, body } = splitMessage(e.message);
  return {
    sha, parent: e.parent, time: e.time, author: e.author, subject, body, fix: isFixCommit(e.message),
    files: e.files, functions: e.functions, modules: e.modules, added: e.added,
    changesTests: e.changesTests, unreadable: e.unreadable,
  };
}

/** Applies the consistency check to `issue`, filling its hard negatives and positive rank. */
async function consistent(issue: PseudoIssue, check: ConsistencyCheck): Promise<boolean> {
  const ranking = await check.rank(issue.body ? `${issue.subject}\n${issue.body}` : issue.subject, issue.parent);
  const byFunction = issue.functions.length > 0;
  const ranked = byFunction ? ranking.functions : ranking.files;
  const positives = new Set(byFunction ? issue.functions : issue.files);
  const rank = ranked.findIndex((id) => positives.has(id));
  if (rank < 0 || rank >= check.topK) return false;
  issue.positiveRank = rank + 1;
  issue.hardNegatives = ranked.filter((id) => !positives.has(id)).slice(0, check.negatives ?? 10);
  return true;
}

/** Where a mined dataset record says it came from. */
export interface PseudoIssueSource {
  /** GitHub `owner/name` (or any name: train groups issues and names cache folders by it). */
  repo: string;
  /** Absolute path of the repository (train and eval open it from here). */
  repoPath: string;
  /** The base commit the history was mined before. */
  base: string;
}

/**
 * A pseudo-issue as a dataset record (docs/dataset.md), so `train`, `eval` and
 * `export-training` take mined commits as they take mined issues: id = the commit's SHA, title
 * = subject, body = the rest of the message, a-priori state = the first parent, variant
 * `commit-message`; hard negatives and the positive's rank (with a consistency check) go to
 * `provenance`.
 */
export function pseudoIssueRecord(p: PseudoIssue, source: PseudoIssueSource): DatasetRecord {
  const date = new Date(p.time * 1000).toISOString();
  return {
    issue: {
      id: p.sha, title: p.subject, body: p.body, bodyRaw: p.body, type: p.fix ? 'Bug' : '', category: p.fix ? 'Bug' : 'Other',
      created: date, resolved: date, labels: [],
    },
    repo: source.repo,
    commits: [p.sha],
    aprioriCommit: p.parent,
    positives: p.files,
    positiveFunctions: p.functions,
    positiveModules: p.modules,
    candidates: 0,
    variant: 'commit-message',
    provenance: {
      source: 'mine-commits', repoPath: source.repoPath, base: source.base, author: p.author,
      ...(p.added.length > 0 ? { addedFiles: p.added } : {}),
      ...(p.unreadable.length > 0 ? { unreadableFiles: p.unreadable } : {}),
      ...(p.hardNegatives ? { hardNegatives: p.hardNegatives, positiveRank: p.positiveRank } : {}),
    },
    changesTests: p.changesTests,
  };
}
