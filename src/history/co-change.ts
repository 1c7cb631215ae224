/**
 * How often a repository's recent commits change each file that is not source code alongside
 * source code: the prior by which non-source files (CHANGELOG.md, Cargo.toml, readme.md …) join
 * a file ranking (src/retrieve/non-source.ts).
 */
import type { GitRepo } from '../repo/git.js';
import { languageOf } from '../corpus/languages.js';
import { IssuelocError } from '../errors.js';

/** Options of {@link coChangeRates}. */
export interface CoChangeOptions {
  /** Commits counted: the latest ones before (and at) the base commit that change source code (default 100). */
  commits?: number;
  /** Commits changing more files than this (bulk edits, releases, vendoring) are passed over (default 100). */
  maxFiles?: number;
}

/** Defaults of {@link CoChangeOptions}. */
export const DEFAULT_CO_CHANGE = { commits: 100, maxFiles: 100 } as const;

/** Co-change rates of non-source files at one base commit (see {@link coChangeRates}). */
export interface CoChangeRates {
  /** Path → the fraction (0 … 1) of the counted commits that changed it; files never changed are absent. */
  rates: Map<string, number>;
  /** How many commits were counted (at most `commits`; 0 when the history has none). */
  commits: number;
}

/**
 * For each file that is not source code (no code extension, `languageOf`), the fraction of the
 * base commit's latest `commits` ancestors (itself included; merges left out; git's order from
 * the base commit, newest first) changing 1 … `maxFiles` files, at least one of them source code,
 * that changed it too. A function of the base commit alone: nothing after it is read. At most
 * 6 × `commits` commits are scanned (one `git log`).
 * @throws IssuelocError when git cannot read the history of `commit`.
 */
export async function coChangeRates(repo: GitRepo, commit: string, opts: CoChangeOptions = {}): Promise<CoChangeRates> {
  const commits = opts.commits ?? DEFAULT_CO_CHANGE.commits;
  const maxFiles = opts.maxFiles ?? DEFAULT_CO_CHANGE.maxFiles;
  const res = await repo.exec(['-c', 'core.quotePath=false', 'log', '--no-merges', '--no-renames', '--format=%x01', '--name-only', '-n', String(6 * commits), commit, '--']);
  if (res.code !== 0) throw new IssuelocError(`cannot read the history of ${commit.slice(0, 12)} in ${repo.path}: ${res.stderr.trim().split('\n')[0] ?? ''}`);
  const counts = new Map<string, number>();
  let counted = 0;
  for (const block of res.stdout.toString('utf8').split('\x01')) {
    if (counted >= commits) break;
    const files = [...new Set(block.split('\n').filter((l) => l !== ''))];
    if (files.length === 0 || files.length > maxFiles || !files.some((f) => languageOf(f) !== undefined)) continue;
    counted++;
    for (const f of files) if (languageOf(f) === undefined) counts.set(f, (counts.get(f) ?? 0) + 1);
  }
  const rates = new Map<string, number>();
  for (const [f, c] of counts) rates.set(f, c / counted);
  return { rates, commits: counted };
}
