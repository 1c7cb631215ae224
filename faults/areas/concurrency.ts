/**
 * Concurrent runs on one cache folder: N processes started at once must all succeed with the
 * same output, equal to a clean run's (locks waited for within the bound, no torn cache file,
 * no run reading another's half-written entry).
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpoints, localizeArgs, reference, embedderOptions, shopReference } from '../common.js';
import { historyRepo, SHOP_ISSUE } from '../fixtures.js';
import { expectExit, wrong, type Probe, type ProbeContext } from '../probe.js';
import { expectRanking, type Ranking } from '../ranking.js';

const BOUND_S = 90;

function processes(ctx: ProbeContext): number {
  return ctx.quick ? 3 : 6;
}

/** N copies of `args(cache)` at once on one fresh cache; each must give `want`. */
async function together(ctx: ProbeContext, label: string, args: (cache: string) => string[], want: Ranking, cache = join(ctx.dir(), 'c')): Promise<void> {
  const n = processes(ctx);
  const runs = await Promise.all(Array.from({ length: n }, () => ctx.cli(args(cache), BOUND_S)));
  runs.forEach((r, i) => ctx.record(`${label} (${i + 1} of ${n})`, expectRanking(r, want), r.ms));
}

export const concurrencyProbes: Probe[] = [
  {
    area: 'concurrency', name: 'localize-empty-cache', quick: true,
    expect: 'N `localize` at once on one empty cache: all exit 0 with the clean ranking',
    async run(ctx) {
      const { repo, ranking } = await shopReference(ctx);
      await together(ctx, 'localize', (c) => localizeArgs(repo, c), ranking);
    },
  },
  {
    area: 'concurrency', name: 'model-default-empty-cache', quick: true,
    expect: 'N `localize --model default` at once on one empty cache (index and history log written together): the clean ranking',
    async run(ctx) {
      const h = await historyRepo(ctx.shared);
      const args = (c: string) => localizeArgs(h.dir, c, SHOP_ISSUE, ['--model', 'default']);
      const { ranking } = await reference(ctx, 'history-model', args);
      await together(ctx, 'localize --model default', args, ranking);
    },
  },
  {
    area: 'concurrency', name: 'embedder-empty-cache', quick: false,
    expect: 'N `localize --embedder` at once on one empty cache (vector entries written together): the clean fused ranking',
    async run(ctx) {
      const server = await endpoints(ctx.shared);
      const { repo } = await shopReference(ctx);
      const args = (c: string) => localizeArgs(repo, c, SHOP_ISSUE, embedderOptions(server.url));
      const { ranking } = await reference(ctx, 'shop-embedder', args);
      await together(ctx, 'localize --embedder', args, ranking);
    },
  },
  {
    area: 'concurrency', name: 'index-force-while-localize', quick: false,
    expect: '`index --force` runs and `localize` runs at once on a filled cache: every localize gives the clean ranking, every index exits 0',
    async run(ctx) {
      const { repo, ranking, cacheDir } = await shopReference(ctx);
      const cache = join(ctx.dir(), 'c');
      cpSync(cacheDir, cache, { recursive: true });
      const n = processes(ctx);
      const runs = await Promise.all(Array.from({ length: n }, (_, i) => ctx.cli(i % 2 === 0
        ? ['index', '--repo', repo, '--cache-dir', cache, '--force', '--no-progress']
        : localizeArgs(repo, cache), BOUND_S)));
      runs.forEach((r, i) => ctx.record(`${r.args[0]} (${i + 1} of ${n})`, r.args[0] === 'index' ? expectExit(r, [0]) : expectRanking(r, ranking), r.ms));
    },
  },
  {
    area: 'concurrency', name: 'dataset-build-same-output', quick: false,
    expect: 'N `dataset build` at once writing the same output: all exit 0, the file is one whole clean dataset',
    async run(ctx) {
      const h = await historyRepo(ctx.shared);
      const args = (out: string) => ['dataset', 'build', '--repo', h.dir, '--issues', h.issuesFile, '--key', 'SHOP', '--functions', '-o', out, '--no-progress'];
      const want = await ctx.shared.memo('concurrency:dataset', async () => {
        const out = join(ctx.shared.dir('concurrency-dataset'), 'ds.jsonl');
        const r = await ctx.cli(args(out), BOUND_S);
        if (r.code !== 0) throw new Error(`clean dataset build: ${r.stderr}`);
        return readFileSync(out, 'utf8');
      });
      const out = join(ctx.dir(), 'ds.jsonl');
      const n = processes(ctx);
      const runs = await Promise.all(Array.from({ length: n }, () => ctx.cli(args(out), BOUND_S)));
      runs.forEach((r, i) => ctx.record(`dataset build (${i + 1} of ${n})`, expectExit(r, [0]), r.ms));
      await ctx.attempt('the output afterwards', async () => (readFileSync(out, 'utf8') === want ? undefined : wrong(undefined, `${out} differs from a clean build`)));
    },
  },
];
