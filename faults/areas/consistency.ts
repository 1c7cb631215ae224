/**
 * Rankings identical however the cache was filled (issues 2, 3): a ranking is a function of
 * (repository, base commit, issue, settings) only. Issues run in another order on a shared
 * cache, at other base commits first, two repositories sharing one `--cache-dir`, the default
 * cache against an explicit one: every ranking must equal the one a fresh cache gives.
 */
import { join } from 'node:path';
import { embedderOptions, endpoints, localizeArgs, reference, shopReference, type Reference } from '../common.js';
import { cloneRepo, historyRepo, shopRepo, SHOP_ISSUE } from '../fixtures.js';
import type { Probe, ProbeContext } from '../probe.js';
import { expectRanking } from '../ranking.js';

const BOUND_S = 60;

/** Three issues on the shop: the shop issue and two others. */
const ISSUES = [
  SHOP_ISSUE,
  'Shipping cost is wrong for heavy parcels\n\nshipping_cost adds the weight rate twice; estimate_delivery is fine.',
  'Refund fails after a card charge\n\nrefund_payment posts to the gateway with the wrong payment id; charge_card works.',
];

/**
 * Each (label, args) on one shared cache in the given order; each result must equal its
 * fresh-cache reference.
 */
async function inOrder(ctx: ProbeContext, key: string, runs: { label: string; args: (cache: string) => string[] }[]): Promise<void> {
  const refs: Reference[] = [];
  for (const run of runs) refs.push(await reference(ctx, `${key}:${run.label}`, run.args, BOUND_S));
  const cache = join(ctx.dir(), 'c');
  for (let i = 0; i < runs.length; i++) {
    await ctx.attempt(`${runs[i].label} after ${runs.slice(0, i).map((r) => r.label).join(', ') || 'nothing'}`, async () => expectRanking(await ctx.cli(runs[i].args(cache), BOUND_S), refs[i].ranking));
  }
}

export const consistencyProbes: Probe[] = [
  {
    area: 'consistency', name: 'lexical-issue-order', quick: false,
    expect: 'three issues on one cache in reverse order: each ranking equals its fresh-cache ranking',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      await inOrder(ctx, 'lexical', ISSUES.map((issue, i) => ({ label: `issue ${i + 1}`, args: (c: string) => localizeArgs(repo, c, issue) })).reverse());
    },
  },
  {
    area: 'consistency', name: 'model-default-later-commits-first', quick: true,
    expect: '`--model default` at an old base commit after runs at later commits filled the history cache: the fresh-cache ranking (nothing after the base commit weighs in)',
    async run(ctx) {
      const h = await historyRepo(ctx.shared);
      const at = (rev: string, issue: string) => (c: string) => localizeArgs(h.dir, c, issue, ['--model', 'default', '--rev', h.sha(rev)]);
      await inOrder(ctx, 'history-revs', [
        { label: 'issue 2 at c39', args: at('c39', ISSUES[1]) },
        ...(ctx.quick ? [] : [{ label: 'issue 3 at c25', args: at('c25', ISSUES[2]) }]),
        { label: 'issue 1 at c10', args: at('c10', ISSUES[0]) },
      ]);
    },
  },
  {
    area: 'consistency', name: 'model-default-issue-order', quick: false,
    expect: '`--model default`: three issues at one base commit on one cache in two orders: the fresh-cache rankings',
    async run(ctx) {
      const h = await historyRepo(ctx.shared);
      const runs = ISSUES.map((issue, i) => ({ label: `issue ${i + 1}`, args: (c: string) => localizeArgs(h.dir, c, issue, ['--model', 'default', '--rev', h.sha('c30')]) }));
      await inOrder(ctx, 'history-order', runs);
      await inOrder(ctx, 'history-order', [...runs].reverse());
    },
  },
  {
    area: 'consistency', name: 'model-default-two-repos-one-cache', quick: true,
    expect: '`--model default` on two repositories sharing one `--cache-dir`: each gives its fresh-cache ranking',
    async run(ctx) {
      const a = await historyRepo(ctx.shared, 0);
      const b = await historyRepo(ctx.shared, 1, 30);
      const args = (dir: string) => (c: string) => localizeArgs(dir, c, SHOP_ISSUE, ['--model', 'default']);
      await inOrder(ctx, 'two-repos', [
        { label: 'repository A', args: args(a.dir) },
        { label: 'repository B', args: args(b.dir) },
        ...(ctx.quick ? [] : [{ label: 'repository A again', args: args(a.dir) }]),
      ]);
    },
  },
  {
    area: 'consistency', name: 'lexical-other-commit-first', quick: false,
    expect: 'lexical ranking at an old commit after the newest was indexed on the same cache (shared blob entries): the fresh-cache ranking',
    async run(ctx) {
      const h = await historyRepo(ctx.shared);
      const at = (rev: string) => (c: string) => localizeArgs(h.dir, c, SHOP_ISSUE, ['--rev', h.sha(rev)]);
      await inOrder(ctx, 'lexical-revs', [{ label: 'c39', args: at('c39') }, { label: 'c5', args: at('c5') }]);
    },
  },
  {
    area: 'consistency', name: 'embedder-other-commit-first', quick: false,
    expect: 'fused ranking at an old commit after vectors of the newest were cached: the fresh-cache ranking',
    async run(ctx) {
      const server = await endpoints(ctx.shared);
      const h = await historyRepo(ctx.shared);
      const at = (rev: string) => (c: string) => localizeArgs(h.dir, c, SHOP_ISSUE, ['--rev', h.sha(rev), ...embedderOptions(server.url)]);
      await inOrder(ctx, 'embedder-revs', [{ label: 'c39', args: at('c39') }, { label: 'c5', args: at('c5') }]);
    },
  },
  {
    area: 'consistency', name: 'default-cache-vs-explicit', quick: false,
    expect: 'the default cache (no --cache-dir) gives the ranking of a fresh explicit cache, twice',
    async run(ctx) {
      const { repo, ranking } = await shopReference(ctx);
      const clone = cloneRepo(repo, join(ctx.dir('clone'), 'repo'));
      for (const round of ['first', 'second']) {
        await ctx.attempt(`default cache, ${round} run`, async () => expectRanking(await ctx.cli(localizeArgs(clone, undefined), BOUND_S), ranking));
      }
    },
  },
];
