/**
 * Which files a repository's recent commits change together, at a base commit: the co-change
 * rates by which non-source files (CHANGELOG.md, Cargo.toml, readme.md …) join a file ranking
 * (src/retrieve/non-source.ts), and the source files changed together with a given one, by
 * which a ranking's first file brings its habitual partner along (src/retrieve/co-changed.ts).
 */
import { join } from 'node:path';
import type { GitRepo } from '../repo/git.js';
import { isTestPath, languageOf } from '../corpus/languages.js';
import { IssuelocError } from '../errors.js';
import { isInt, isRecord, isStringArray, readCheckedJson, writeCheckedJson } from '../util/checked-file.js';
import { repoDigest } from './history-log.js';

/** Options of {@link readCoChange}. */
export interface CoChangeOptions {
  /** Commits the non-source rates count: the latest ones before (and at) the base commit that change source code (default 100). */
  commits?: number;
  /** Commits the partners of a source file are counted over, likewise (default 1000). */
  partnerCommits?: number;
  /** Commits changing more files than this (bulk edits, releases, vendoring) are passed over (default 100). */
  maxFiles?: number;
  /**
   * Cache folder: what was read at a commit is kept in `history/` ({@link coChangeFile}) and
   * read from there, with no git process (not for a shallow clone, whose history is cut).
   */
  cacheDir?: string;
}

/** Defaults of {@link CoChangeOptions}. */
export const DEFAULT_CO_CHANGE = { commits: 100, partnerCommits: 1000, maxFiles: 100 } as const;

/** A source file changed together with another one (see {@link CoChange.partnersOf}). */
export interface CoChangePartner {
  path: string;
  /** Commits that changed both. */
  together: number;
  /** Commits that changed the other file. */
  support: number;
  /** `together` / the commits that changed the other file: the association rule's confidence (0 … 1). */
  confidence: number;
}

/** What the recent history at one base commit says of files changed together (see {@link readCoChange}). */
export interface CoChange {
  /** Non-source path → the fraction (0 … 1) of the `commits` latest source commits that changed it; files never changed are absent. */
  rates: Map<string, number>;
  /** How many commits the rates count (at most `commits`; 0 when the history has none). */
  commits: number;
  /**
   * The non-test source files changed together with source file `path` in the `partnerCommits`
   * latest source commits, with at least `minTogether` such commits (default 1) and a confidence
   * of at least `minConfidence` (default 0); none when fewer than `minSupport` commits (default 3)
   * changed `path`. Best first: highest confidence, then the one changed with it most recently.
   */
  partnersOf(path: string, opts?: { minSupport?: number; minConfidence?: number; minTogether?: number }): readonly Readonly<CoChangePartner>[];
}

/**
 * Reads the base commit's latest ancestors (itself included; merges left out; git's order from
 * the base commit, newest first) that change 1 … `maxFiles` files, at least one of them source
 * code (`languageOf`): the first `commits` of them give each non-source file's co-change rate,
 * the first `partnerCommits` the partners of source files. A function of the base commit alone:
 * nothing after it is read. At most 6 × max(`commits`, `partnerCommits`) commits are scanned
 * (one `git log`, names only: no blob is read, so snapshots without large blobs work).
 * @throws IssuelocError when git cannot read the history of `commit`.
 */
export async function readCoChange(repo: GitRepo, commit: string, opts: CoChangeOptions = {}): Promise<CoChange> {
  const commits = opts.commits ?? DEFAULT_CO_CHANGE.commits;
  const partnerCommits = opts.partnerCommits ?? DEFAULT_CO_CHANGE.partnerCommits;
  const maxFiles = opts.maxFiles ?? DEFAULT_CO_CHANGE.maxFiles;
  const file = opts.cacheDir && !repo.isShallow ? coChangeFile(opts.cacheDir, repo.gitDir, commit, { commits, partnerCommits, maxFiles }) : undefined;
  let read = file ? readCheckedJson(file, CO_CHANGE_TAG, isCoChangeRead) : undefined;
  if (!read) {
    read = await readFromGit(repo, commit, commits, partnerCommits, maxFiles);
    if (file) {
      try {
        writeCheckedJson(file, CO_CHANGE_TAG, read, { fsync: false });
      } catch { /* a read-only cache: read from git again next time */ }
    }
  }
  const { sourceSets, counted } = read;
  const rates = new Map<string, number>();
  for (const [f, c] of read.counts) rates.set(f, c / counted);
  const sets = new SourceSets(sourceSets);
  return { rates, commits: counted, partnersOf: (path, o = {}) => partnersIn(sets, path, o) };
}

/** What {@link readCoChange} reads from git, as cached: non-source path counts in their order, the commits counted, the source sets newest first. */
interface CoChangeRead {
  counts: [string, number][];
  counted: number;
  sourceSets: string[][];
}

/** Tag of a cached co-change read (src/util/checked-file.ts). */
export const CO_CHANGE_TAG = 'cochg.v1';

/**
 * The cache file of the co-change read of `commit` in `repoPath` with the given counts:
 * `<cacheDir>/history/<digest of the repository path>-<commit>.cochange-<commits>-<partnerCommits>-<maxFiles>.json`.
 */
export function coChangeFile(cacheDir: string, repoPath: string, commit: string, o: Required<Omit<CoChangeOptions, 'cacheDir'>>): string {
  return join(cacheDir, 'history', `${repoDigest(repoPath)}-${commit}.cochange-${o.commits}-${o.partnerCommits}-${o.maxFiles}.json`);
}

function isCoChangeRead(x: unknown): x is CoChangeRead {
  return isRecord(x) && isInt(x.counted) && Array.isArray(x.sourceSets) && x.sourceSets.every(isStringArray) &&
    Array.isArray(x.counts) && x.counts.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && isInt(e[1], 1));
}

/** One `git log` of the latest commits before `commit`: see {@link readCoChange}. */
async function readFromGit(repo: GitRepo, commit: string, commits: number, partnerCommits: number, maxFiles: number): Promise<CoChangeRead> {
  const scan = 6 * Math.max(commits, partnerCommits);
  const res = await repo.exec(['-c', 'core.quotePath=false', 'log', '--no-merges', '--no-renames', '--format=%x01', '--name-only', '-n', String(scan), commit, '--']);
  if (res.code !== 0) throw new IssuelocError(`cannot read the history of ${commit.slice(0, 12)} in ${repo.path}: ${res.stderr.trim().split('\n')[0] ?? ''}`);
  const counts = new Map<string, number>();
  let counted = 0;
  // the source files of each counted commit, newest first
  const sourceSets: string[][] = [];
  for (const block of res.stdout.toString('utf8').split('\x01')) {
    if (counted >= commits && sourceSets.length >= partnerCommits) break;
    const files = [...new Set(block.split('\n').filter((l) => l !== ''))];
    if (files.length === 0 || files.length > maxFiles) continue;
    const sources = files.filter((f) => languageOf(f) !== undefined);
    if (sources.length === 0) continue;
    if (sourceSets.length < partnerCommits) sourceSets.push(sources);
    if (counted >= commits) continue;
    counted++;
    for (const f of files) if (languageOf(f) === undefined) counts.set(f, (counts.get(f) ?? 0) + 1);
  }
  return { counts: [...counts], counted, sourceSets };
}

/**
 * The source files of each counted commit (newest first), with, made on first use, the commits
 * of each file and whether a file is a test: a base commit's partners asked per query read a
 * few commits, not all.
 */
class SourceSets {
  private commitsOf: Map<string, number[]> | undefined;
  private readonly tests = new Map<string, boolean>();
  /** The partners asked so far, by path and thresholds (a ranking's first file recurs across queries). */
  readonly partners = new Map<string, readonly Readonly<CoChangePartner>[]>();

  constructor(readonly sets: readonly string[][]) {}

  /** The commits (indexes into {@link sets}, ascending) whose source files hold `path`. */
  holding(path: string): readonly number[] {
    if (!this.commitsOf) {
      const commitsOf = new Map<string, number[]>();
      this.sets.forEach((files, k) => {
        for (const f of files) {
          const ks = commitsOf.get(f);
          if (!ks) commitsOf.set(f, [k]);
          else if (ks[ks.length - 1] !== k) ks.push(k);
        }
      });
      this.commitsOf = commitsOf;
    }
    return this.commitsOf.get(path) ?? [];
  }

  /** `isTestPath`, kept per path. */
  isTest(path: string): boolean {
    let t = this.tests.get(path);
    if (t === undefined) this.tests.set(path, (t = isTestPath(path)));
    return t;
  }
}

/** Partner lists {@link partnersIn} keeps per {@link SourceSets} at most (then it starts again). */
const MAX_PARTNER_LISTS = 4096;

/** {@link CoChange.partnersOf} over the source files of each counted commit, kept per path and thresholds (frozen: shared by the calls). */
function partnersIn(sourceSets: SourceSets, path: string, opts: { minSupport?: number; minConfidence?: number; minTogether?: number }): readonly Readonly<CoChangePartner>[] {
  const minSupport = opts.minSupport ?? 3;
  const minConfidence = opts.minConfidence ?? 0;
  const minTogether = opts.minTogether ?? 1;
  const key = `${minSupport}\0${minConfidence}\0${minTogether}\0${path}`;
  let kept = sourceSets.partners.get(key);
  if (!kept) {
    if (sourceSets.partners.size >= MAX_PARTNER_LISTS) sourceSets.partners.clear();
    kept = Object.freeze(partnersFound(sourceSets, path, minSupport, minConfidence, minTogether).map((p) => Object.freeze(p)));
    sourceSets.partners.set(key, kept);
  }
  return kept;
}

/** The partners of `path` with these thresholds ({@link CoChange.partnersOf}). */
function partnersFound(sourceSets: SourceSets, path: string, minSupport: number, minConfidence: number, minTogether: number): CoChangePartner[] {
  let support = 0;
  const together = new Map<string, number>(); // in order of the newest commit that changed both
  for (const k of sourceSets.holding(path)) {
    support++;
    for (const f of sourceSets.sets[k]) if (f !== path && !sourceSets.isTest(f)) together.set(f, (together.get(f) ?? 0) + 1);
  }
  const newest = new Map([...together.keys()].map((f, i) => [f, i]));
  if (support < minSupport) return [];
  const out: CoChangePartner[] = [];
  for (const [f, n] of together) {
    const confidence = n / support;
    if (n >= minTogether && confidence >= minConfidence) out.push({ path: f, together: n, support, confidence });
  }
  return out.sort((a, b) => b.confidence - a.confidence || newest.get(a.path)! - newest.get(b.path)!);
}
