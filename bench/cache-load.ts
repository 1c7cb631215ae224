/**
 * bench/cache-load: what reading the cache of one commit costs: loading its saved index
 * (function-level and file-level files: their heads read and verified; the blocks of terms and
 * postings are read when a query needs them, not here) and reading every blob entry of the
 * commit (as a rebuild from the blob cache does).
 *
 *   node dist/bench/cache-load.js --repo /path/to/sympy.git [--rev HEAD] [--cache-dir DIR] [--rounds 7]
 *
 * Builds the index first when the cache has none. Prints the index files' size, the median
 * CPU time (user + system, steadier than wall time on a shared machine) and wall time of a load
 * over --rounds (the first is not counted: it warms the page cache and the JIT), the same of a
 * load in a fresh process (--rounds processes, one load each: what one CLI call pays), the same of
 * loading the commit's stored history signals (when `issueloc index` stored them), and of
 * reading all blob entries of the commit.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { statSync } from 'node:fs';
import { benchArgs } from './lib/args.js';
import { GitRepo } from '../src/repo/git.js';
import { indexCommit } from '../src/index/index-commit.js';
import { cacheDirFor } from '../src/index/cache-dir.js';
import { blobCacheDir, DEFAULT_INDEX_SETTINGS, indexFilePath, loadCodeIndex } from '../src/index/code-index.js';
import { BlobTermsCache } from '../src/index/blob-terms.js';
import { languageOf } from '../src/corpus/languages.js';
import { selectSources } from '../src/corpus/select.js';
import { CommitHistory, commitHistoryFile } from '../src/history/commit-history.js';

const { values: args } = benchArgs({
  options: {
    repo: { type: 'string' },
    rev: { type: 'string', default: 'HEAD' },
    'cache-dir': { type: 'string' },
    rounds: { type: 'string', default: '7' },
  },
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** CPU milliseconds (user + system) of `f`: steadier than wall time on a shared machine. */
const cpuMs = (f: () => void) => timed(f).cpu;
/** CPU (user + system) and wall milliseconds of `f`. */
const timed = (f: () => void) => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000, wall };
};
/** Median CPU and wall milliseconds of `f` over `rounds`, after one round not counted. */
const medianOf = (rounds: number, f: () => void) => {
  const runs = Array.from({ length: rounds + 1 }, () => timed(f)).slice(1);
  return `${median(runs.map((r) => r.cpu)).toFixed(1)} ms CPU (wall ${median(runs.map((r) => r.wall)).toFixed(1)} ms)`;
};

/** Median CPU and wall milliseconds of one index load in each of `rounds` fresh Node processes. */
function freshLoads(rounds: number, cacheDir: string, commit: string): string {
  const moduleUrl = new URL('../src/index/code-index.js', import.meta.url).href;
  const script = `const m = await import(${JSON.stringify(moduleUrl)});
const c0 = process.cpuUsage(), t0 = performance.now();
if (!m.loadCodeIndex(${JSON.stringify(cacheDir)}, ${JSON.stringify(commit)}, m.DEFAULT_INDEX_SETTINGS)) throw new Error('index did not load');
const wall = performance.now() - t0, c = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ cpu: (c.user + c.system) / 1000, wall }));`;
  const runs = Array.from({ length: rounds }, () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { cpu: number; wall: number });
  return `${median(runs.map((r) => r.cpu)).toFixed(1)} ms CPU (wall ${median(runs.map((r) => r.wall)).toFixed(1)} ms)`;
}

async function main() {
  if (!args.repo) throw new Error('--repo is required');
  const repo = await GitRepo.open(args.repo);
  try {
    const commit = await repo.resolveCommit(args.rev!);
    const cacheDir = cacheDirFor(repo, args['cache-dir']);
    const settings = DEFAULT_INDEX_SETTINGS;
    await indexCommit(repo, commit, { cacheDir, settings });
    const bytes = statSync(indexFilePath(cacheDir, commit, settings)).size + statSync(indexFilePath(cacheDir, commit, settings, 'file')).size;
    const rounds = Number(args.rounds);
    const load = medianOf(rounds, () => {
      if (!loadCodeIndex(cacheDir, commit, settings)) throw new Error('index did not load');
    });
    const fresh = freshLoads(rounds, cacheDir, commit);
    const historyFile = commitHistoryFile(cacheDir, repo.gitDir, commit);
    const history = existsSync(historyFile)
      ? `, history signals ${(statSync(historyFile).size / 1e6).toFixed(1)} MB, load ${medianOf(rounds, () => {
        if (!CommitHistory.load(historyFile)) throw new Error('history did not load');
      })}`
      : '';
    const { entries } = await repo.listTree(commit);
    const keys = selectSources(entries, settings).sources.map((s) => `${s.entry.blob}${languageOf(s.entry.path)}`);
    const blobReads: number[] = [];
    for (let r = 0; r <= rounds; r++) {
      const cache = new BlobTermsCache(blobCacheDir(cacheDir, settings));
      const ms = cpuMs(() => { for (const k of keys) cache.get(k); });
      if (r > 0) blobReads.push(ms);
    }
    process.stdout.write(
      `${commit.slice(0, 12)}: index files ${(bytes / 1e6).toFixed(2)} MB, load ${load}, in a fresh process ${fresh}${history}; ` +
      `${keys.length} blob entries read in ${median(blobReads).toFixed(1)} ms CPU (medians of ${rounds})\n`,
    );
  } finally {
    await repo.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exitCode = 1;
});
