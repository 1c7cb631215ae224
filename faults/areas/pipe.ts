/**
 * Output through a slow pipe (issue 1): the reader sleeps 2 s before reading, as
 * `issueloc … | (sleep 2; cat)` or a benchmark driver does. What the reader gets must be what a
 * fast reader gets, byte for byte (timings aside), for outputs larger than a pipe's 64 KiB buffer.
 */
import { join } from 'node:path';
import { bigRepo, BIG_ISSUE } from '../fixtures.js';
import { badEnd, wrong, type Probe, type ProbeContext } from '../probe.js';
import { parseRanking, rankingDiff } from '../ranking.js';

const PIPE_BOUND_S = 30;

/** Milliseconds fields differ from run to run. */
const withoutTimings = (s: string) => s.replace(/"(millis|queryMillis|seconds)":[\d.]+/g, '"$1":0');

async function throughSlowPipe(ctx: ProbeContext, label: string, args: (cache: string) => string[], json: boolean) {
  const repo = await bigRepo(ctx.shared);
  const cache = await ctx.shared.memo('pipe:cache', async () => {
    const c = join(ctx.shared.dir('pipe-cache'), 'c');
    await ctx.cli(['index', '--repo', repo, '--cache-dir', c, '--no-progress'], 120);
    return c;
  });
  const argv = args(cache).map((a) => (a === '@repo' ? repo : a));
  await ctx.attempt(label, async () => {
    const fast = await ctx.cli(argv, PIPE_BOUND_S);
    const bad = badEnd(fast);
    if (bad) return bad;
    if (fast.code !== 0) return wrong(fast, `exit ${fast.code} on a fast reader`);
    if (Buffer.byteLength(fast.stdout) <= 65_536) return { kind: 'probe', detail: `output of ${Buffer.byteLength(fast.stdout)} bytes fits a pipe buffer: the probe proves nothing` };
    const slow = await ctx.slowPipe(argv, PIPE_BOUND_S);
    const bad2 = badEnd(slow);
    if (bad2) return bad2;
    const got = Buffer.byteLength(slow.stdout);
    const want = Buffer.byteLength(fast.stdout);
    if (json) {
      const r = parseRanking(slow.stdout);
      if (typeof r === 'string') return wrong(slow, `the slow reader got ${got} of ${want} bytes: ${r}`);
      const ref = parseRanking(fast.stdout);
      const diff = typeof ref === 'string' ? ref : rankingDiff(r, ref, { scores: true });
      if (diff) return wrong(slow, `slow reader's ranking differs: ${diff}`);
    }
    if (withoutTimings(slow.stdout) !== withoutTimings(fast.stdout)) return wrong(slow, `the slow reader got ${got} bytes, a fast reader ${want}`);
    return undefined;
  });
}

export const pipeProbes: Probe[] = [
  {
    area: 'pipe', name: 'localize-json-all-top100', quick: true,
    expect: '`localize --json --level all --top 100` (> 64 KiB) through `(sleep 2; cat)`: the whole JSON',
    run: (ctx) => throughSlowPipe(ctx, 'json', (c) => ['localize', '--repo', '@repo', '--issue', BIG_ISSUE, '--json', '--level', 'all', '--top', '100', '--no-progress', '--cache-dir', c], true),
  },
  {
    area: 'pipe', name: 'localize-text-explain', quick: false,
    expect: '`localize --explain --level all --top 100` (tables, > 64 KiB) through a slow pipe: every byte',
    run: (ctx) => throughSlowPipe(ctx, 'text --explain', (c) => ['localize', '--repo', '@repo', '--issue', BIG_ISSUE, '--explain', '--level', 'all', '--top', '100', '--no-progress', '--cache-dir', c], false),
  },
  {
    area: 'pipe', name: 'localize-model-json', quick: false,
    expect: '`localize --model default --json --level all --top 100` through a slow pipe: the whole JSON',
    run: (ctx) => throughSlowPipe(ctx, 'model json', (c) => ['localize', '--repo', '@repo', '--issue', BIG_ISSUE, '--model', 'default', '--json', '--level', 'all', '--top', '100', '--no-progress', '--cache-dir', c], true),
  },
];
