/**
 * bench/mine-commits: speed of the commit miner (src/history/commit-miner.ts) on one repository.
 *
 *   node dist/bench/mine-commits.js --repo /work/.mirror/swe-bench+django__django/repo \
 *       [--rev HEAD] [--max-commits 10000] [--cache-dir DIR]
 *
 * Runs three times in a fresh cache folder (or --cache-dir): cold (history log and miner cache
 * empty), warm (the same base again: everything from the cache), and incremental (the base's
 * parent was mined first, then the base: one new commit). Prints per run the wall time, commits
 * read, kept, dropped per filter, blobs parsed, peak RSS, and the load average (the machine may
 * be shared).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from './lib/args.js';
import { GitRepo } from '../src/repo/git.js';
import { mineCommits, type MineSummary } from '../src/history/commit-miner.js';

const { values: args } = benchArgs({
  options: {
    repo: { type: 'string' },
    rev: { type: 'string', default: 'HEAD' },
    'max-commits': { type: 'string' },
    'cache-dir': { type: 'string' },
  },
});

async function run(repo: GitRepo, rev: string, cacheDir: string, maxCommits: number | undefined): Promise<MineSummary> {
  const mined = mineCommits(repo, rev, { cacheDir, maxCommits });
  for await (const issue of mined) void issue;
  return mined.summary;
}

function show(label: string, s: MineSummary): void {
  const dropped = Object.entries(s.dropped).filter(([, n]) => n > 0).map(([r, n]) => `${r} ${n}`).join(', ');
  process.stdout.write(`${label}: ${(s.millis / 1000).toFixed(1)} s · read ${s.read} (cached ${s.cached}) · kept ${s.kept} · parsed blobs ${s.parsedBlobs} · ` +
    `rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB · load ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n  dropped: ${dropped}\n`);
}

async function main() {
  if (!args.repo) throw new Error('--repo is required');
  const maxCommits = args['max-commits'] ? Number(args['max-commits']) : undefined;
  const own = args['cache-dir'] === undefined;
  const cacheDir = args['cache-dir'] ?? mkdtempSync(join(tmpdir(), 'mine-bench-'));
  const repo = await GitRepo.open(args.repo);
  try {
    const base = await repo.resolveCommit(args.rev!);
    const parent = await repo.resolveCommit(`${base}^1`);
    show('cold (parent of the base)', await run(repo, parent, cacheDir, maxCommits));
    show('incremental (the base: one new commit)', await run(repo, base, cacheDir, maxCommits));
    show('warm (the base again)', await run(repo, base, cacheDir, maxCommits));
  } finally {
    await repo.close();
    if (own) rmSync(cacheDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exitCode = 3;
});
