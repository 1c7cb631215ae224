/**
 * bench/graph-cost: what the code graph (src/graph/) costs on one repository commit, beside what
 * the index costs: the cold build of each (a fresh cache folder: every blob parsed, every blob's
 * graph facts scanned), the warm load of the graph from its cache file, and per query the
 * feature extraction of the learned ranker with the graph features against without them.
 *
 *   node dist/bench/graph-cost.js --repo /work/.mirror/sympy+sympy/repo [--rev HEAD]
 *       [--issues DATA/swebench-lite/swebench_lite.jsonl] [--match sympy/sympy]
 *       [--cache-dir DIR] [--rounds 3] [--keep-cache]
 *
 * Prints wall and CPU milliseconds (user + system of this process; git's own processes are not
 * counted in CPU) of: the cold index build, the cold graph build (and its share of the index's),
 * the warm graph load, and the median per-query extraction time of the top 200 candidates with
 * every feature and with every feature but the graph group's (the difference is the graph's
 * cost per warm query).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from './lib/args.js';
import { openCodeGraph } from '../src/graph/open-graph.js';
import { indexCommit } from '../src/index/index-commit.js';
import { FeatureExtractor } from '../src/ltr/features/extract.js';
import { FEATURE_REGISTRY, type FeatureName } from '../src/ltr/features/registry.js';
import { GitRepo } from '../src/repo/git.js';
import { dataFile } from './lib/data.js';
import { parseIssue } from '../src/text/parsed-issue.js';

const { values: args } = benchArgs({
  options: {
    repo: { type: 'string', default: '/work/.mirror/sympy+sympy/repo' },
    rev: { type: 'string', default: 'HEAD' },
    issues: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    match: { type: 'string', default: 'sympy/sympy' },
    'cache-dir': { type: 'string' },
    rounds: { type: 'string', default: '3' },
    'keep-cache': { type: 'boolean', default: false },
  },
});

/** Wall and CPU milliseconds of `f`. */
async function timed<T>(f: () => Promise<T> | T): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => x.toFixed(x < 10 ? 2 : 0);

const cacheDir = args['cache-dir'] ?? mkdtempSync(join(tmpdir(), 'issueloc-graph-cost-'));
const repo = await GitRepo.open(args.repo);
try {
  const commit = await repo.resolveCommit(args.rev);
  const index = await timed(() => indexCommit(repo, commit, { cacheDir, force: true }));
  const { codeIndex } = index.value;
  const cold = await timed(() => openCodeGraph(repo, codeIndex, join(cacheDir, 'cold')));
  const warm = await timed(() => openCodeGraph(repo, codeIndex, join(cacheDir, 'cold')));
  const { graph } = cold.value;
  console.log(`${args.repo} @ ${commit.slice(0, 12)}: ${codeIndex.filePaths.length} files, ${codeIndex.units.length} functions; ` +
    `graph: ${graph.calls.to.length} call edges, ${graph.imports.to.length} import edges (${cold.value.scannedBlobs} blobs scanned)`);
  console.log('| step | wall ms | CPU ms |\n|---|---|---|');
  console.log(`| cold index build | ${ms(index.wall)} | ${ms(index.cpu)} |`);
  console.log(`| cold graph build | ${ms(cold.wall)} (${(100 * cold.wall / index.wall).toFixed(1)} % of the index's) | ${ms(cold.cpu)} (${(100 * cold.cpu / index.cpu).toFixed(1)} %) |`);
  console.log(`| warm graph load | ${ms(warm.wall)} | ${ms(warm.cpu)} |`);

  const texts = readFileSync(args.issues, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { repo: string; problem_statement: string })
    .filter((r) => r.repo === args.match).map((r) => r.problem_statement);
  const withGraph = new FeatureExtractor(codeIndex, { graph });
  const others = new Set<FeatureName>(FEATURE_REGISTRY.filter((f) => f.group !== 'graph').map((f) => f.name));
  const without = new FeatureExtractor(codeIndex, { reads: others });
  const times = { with: [] as number[], without: [] as number[] };
  for (let round = 0; round <= Number(args.rounds); round++) {
    for (const text of texts) {
      const issue = parseIssue(text);
      for (const [name, x] of [['without', without], ['with', withGraph]] as const) {
        const t0 = performance.now();
        x.extract(issue);
        if (round > 0) times[name].push(performance.now() - t0);
      }
    }
  }
  if (texts.length > 0) {
    const diffs = times.with.map((t, k) => t - times.without[k]);
    console.log(`| query features, without the graph group (median of ${times.without.length}) | ${ms(median(times.without))} | |`);
    console.log(`| query features, with it | ${ms(median(times.with))} | |`);
    console.log(`| graph per warm query (median difference) | ${ms(median(diffs))} | |`);
  }
} finally {
  await repo.close();
  if (!args['cache-dir'] && !args['keep-cache']) rmSync(cacheDir, { recursive: true, force: true });
}
