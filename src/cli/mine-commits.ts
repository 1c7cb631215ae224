/**
 * `issueloc dataset mine-commits`: the commits before a base commit as pseudo-issues, written in
 * the dataset format (argument parsing, progress and output only; the mining is
 * src/history/commit-miner.ts).
 */
import { basename, dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { IssuelocError } from '../errors.js';
import { GitRepo } from '../repo/git.js';
import { cacheDirFor } from '../index/cache-dir.js';
import { writeDatasetFiles } from '../dataset/output.js';
import type { DatasetRecord } from '../dataset/record.js';
import { mineCommits, pseudoIssueRecord, type ConsistencyCheck, type MineSummary } from '../history/commit-miner.js';
import { openLocalizer, type IssueLocalizer } from '../pipeline/localizer.js';
import { progressBar } from '../util/progress-bar.js';
import { wholeOption } from './options.js';

/** `--since`: an ISO 8601 date or time → seconds since the epoch. */
function parseSince(v: string): number {
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) throw new IssuelocError(`--since takes a date (ISO 8601, e.g. 2020-01-31), got '${v}'`);
  return Math.floor(ms / 1000);
}

/** `owner/name` of a fetched mirror (`OWNER+NAME/repo`, `swe-bench+OWNER__NAME/repo`), else `local/<folder name>`. */
export function repoNameOf(gitDir: string, workTree: string | null): string {
  const top = workTree ?? (basename(gitDir) === '.git' ? dirname(gitDir) : gitDir);
  const parent = basename(dirname(top));
  const bench = /^swe-bench\+([^_]+)__(.+)$/.exec(parent);
  if (basename(top) === 'repo' && bench) return `${bench[1]}/${bench[2]}`;
  const mirror = /^([^+]+)\+(.+)$/.exec(parent);
  if (basename(top) === 'repo' && mirror) return `${mirror[1]}/${mirror[2]}`;
  return `local/${basename(top).replace(/\.git$/, '') || 'repo'}`;
}

/** The lexical pipeline at each pseudo-issue's parent, as the miner's consistency check. */
function lexicalCheck(localizer: IssueLocalizer, topK: number, negatives: number): ConsistencyCheck {
  const depth = Math.max(topK, negatives + topK);
  return {
    topK, negatives,
    async rank(text, commit) {
      try {
        const r = await localizer.localize(text, { rev: commit, top: depth, matchedTermsPerItem: 0 });
        return { functions: r.functions.map((f) => f.id), files: r.files.map((f) => f.id) };
      } catch (e) {
        if (e instanceof IssuelocError && e.exitCode === 2) return { functions: [], files: [] }; // no searchable word
        throw e;
      }
    },
  };
}

/** The summary lines of a run. */
function summaryLines(s: MineSummary, out: string, records: number): string[] {
  const dropped = Object.entries(s.dropped).filter(([, n]) => n > 0).map(([r, n]) => `${r} ${n}`).join(', ') || 'none';
  return [
    `base ${s.base.slice(0, 12)} · ancestors ${s.ancestors} · commits read ${s.read} (${s.cached} from the cache) · pseudo-issues ${s.kept}`,
    `dropped: ${dropped}`,
    `wrote ${records} records to ${out} in ${(s.millis / 1000).toFixed(1)} s`,
  ];
}

/** Registers `dataset mine-commits` on the `dataset` command. */
export function registerMineCommits(dataset: Command): void {
  dataset
    .command('mine-commits')
    .description("the commits before a base commit as pseudo-issues (message → changed files and functions), in the dataset format")
    .requiredOption('--repo <path>', 'git repository (work tree or bare)')
    .requiredOption('-o, --out <file>', 'dataset file to write (JSONL); <name>.meta.json (counts) and <name>.dropped.jsonl go beside it')
    .option('--rev <rev>', 'base commit: only its ancestors are mined', 'HEAD')
    .option('--max-commits <n>', 'read only the most recent N commits before the base', wholeOption('--max-commits', 1))
    .option('--since <date>', 'read only commits committed at or after this date (ISO 8601)', parseSince)
    .option('--max-files <k>', 'most changed non-test source files a commit may have', wholeOption('--max-files', 1), 5)
    .option('--min-words <n>', 'fewest words a message must hold', wholeOption('--min-words', 1), 3)
    .option('--require-functions', 'leave out commits that edit no existing function')
    .option('--consistency-top <k>', 'keep a commit only when the lexical pipeline ranks a positive within the top K for its message (builds an index per parent commit: slow)', wholeOption('--consistency-top', 1))
    .option('--negatives <n>', 'with --consistency-top: hard negatives kept per pseudo-issue', wholeOption('--negatives', 0), 10)
    .option('--repo-name <owner/name>', 'the repository name records carry (default: from a mirror path, else local/<folder>)')
    .option('--cache-dir <dir>', 'cache folder (default: ISSUELOC_CACHE_DIR, else ~/.cache/issueloc/<name>-<hash>)')
    .option('--json', 'print the summary as one JSON object')
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (o) => {
      const repo = await GitRepo.open(o.repo);
      let localizer: IssueLocalizer | undefined;
      const bar = progressBar('mining commits', o.progress);
      try {
        if (repo.isShallow) process.stderr.write(`issueloc: warning: ${o.repo} is a shallow clone: only the commits after its cut are mined (git fetch --unshallow for the whole history)\n`);
        const cacheDir = cacheDirFor(repo, o.cacheDir);
        if (o.consistencyTop !== undefined) localizer = await openLocalizer({ repo: o.repo, cacheDir, model: 'none' }); // the lexical pipeline's own ranking
        const mined = mineCommits(repo, o.rev, {
          cacheDir, maxCommits: o.maxCommits, since: o.since, maxFiles: o.maxFiles, minWords: o.minWords,
          requireFunctions: o.requireFunctions === true,
          consistency: localizer ? lexicalCheck(localizer, o.consistencyTop, o.negatives) : undefined,
          onProgress: bar.update,
        });
        const source = { repo: o.repoName ?? repoNameOf(repo.gitDir, repo.workTree), repoPath: resolve(repo.gitDir), base: '' };
        const records: DatasetRecord[] = [];
        for await (const p of mined) {
          source.base = mined.summary.base;
          records.push(pseudoIssueRecord(p, source));
        }
        bar.stop();
        const s = mined.summary;
        const settings = { maxCommits: o.maxCommits ?? null, since: o.since ?? null, maxFiles: o.maxFiles, minWords: o.minWords, requireFunctions: o.requireFunctions === true, consistencyTop: o.consistencyTop ?? null };
        writeDatasetFiles(o.out, records, [], { tool: 'mine-commits', repo: source.repo, repoPath: source.repoPath, settings, summary: s });
        if (o.json) process.stdout.write(`${JSON.stringify({ out: o.out, repo: source.repo, ...s })}\n`);
        else process.stdout.write(`${summaryLines(s, o.out, records.length).join('\n')}\n`);
        if (records.length === 0) process.exitCode = 1;
      } finally {
        bar.stop();
        await localizer?.close();
        await repo.close();
      }
    });
}
