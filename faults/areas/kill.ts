/**
 * kill -9 at random moments of `index` (first build, and `--force` over a whole index) and of
 * `dataset build`: afterwards the cache or the dataset is absent or whole, nothing half-written
 * is left under the output's name, and the next run gives what a clean run gives, within
 * {@link AFTER_KILL_BOUND_S} (a lock left by the dead process must not cost a silent wait).
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localizeArgs, reference } from '../common.js';
import { filesUnder } from '../corrupt.js';
import { bigRepo, BIG_ISSUE, historyRepo } from '../fixtures.js';
import { AFTER_KILL_BOUND_S } from '../interface.js';
import { badEnd, expectExit, wrong, type Probe, type ProbeContext } from '../probe.js';
import { expectRanking } from '../ranking.js';

/** How long a clean run of `args` takes (ms), measured once per suite. */
function cleanDuration(ctx: ProbeContext, key: string, args: () => Promise<string[]>): Promise<number> {
  return ctx.shared.memo(`duration:${key}`, async () => {
    const r = await ctx.cli(await args(), 120);
    const bad = badEnd(r);
    if (bad || r.code !== 0) throw new Error(`clean run failed: ${bad?.detail ?? r.stderr}`);
    return r.ms;
  });
}

function tries(ctx: ProbeContext): number {
  return ctx.quick ? 1 : 4 * ctx.opts.repeat;
}

/** When to kill, as a share of a clean run's duration: anywhere in 10–110 %. */
function killShare(ctx: ProbeContext): number {
  return 0.1 + ctx.rng.next();
}

/** Files named like a temporary file of an atomic write (`x.tmp-<pid>-<random>`), left by a killed run. */
const leftovers = (dir: string) => filesUnder(dir).filter((f) => /\.tmp-\d+-/.test(f));

async function killIndex(ctx: ProbeContext, force: boolean): Promise<void> {
  const repo = await bigRepo(ctx.shared);
  // the clean run: its ranking is the reference, its cache the whole index `--force` rebuilds
  const { ranking: want, cacheDir: base, ms: duration } = await reference(ctx, 'big', (c) => localizeArgs(repo, c, BIG_ISSUE), 120);
  for (let i = 0; i < tries(ctx); i++) {
    // every other try (and the quick one) is killed inside the build: a moment after the
    // index folder (made just before the build takes its lock) appears; the others at any moment
    const inBuild = ctx.quick || i % 2 === 0;
    const delay = inBuild ? ctx.rng.int(20, 400) : Math.round(duration * killShare(ctx));
    await ctx.attempt(inBuild ? `kill -9 ${delay} ms into the build` : `kill -9 after ${delay} ms`, async () => {
      const cache = join(ctx.dir(`try${i}`), 'c');
      if (force) cpSync(base, cache, { recursive: true });
      const when = inBuild && !force ? { killWhen: { path: join(cache, 'index'), afterMs: delay } } : { killAfterMs: inBuild ? Math.round(duration * 0.3) + delay : delay };
      const killed = await ctx.cli(['index', '--repo', repo, '--cache-dir', cache, '--no-progress', ...(force ? ['--force'] : [])], 120, when);
      if (!killed.killedOnPurpose) {
        const bad = expectExit(killed, [0]);
        if (bad) return bad;
      }
      const next = await ctx.cli(localizeArgs(repo, cache, BIG_ISSUE), AFTER_KILL_BOUND_S);
      return expectRanking(next, want);
    });
  }
}

async function killDatasetBuild(ctx: ProbeContext, overExisting: boolean): Promise<void> {
  // --quick: a shorter history (a build of a few seconds, not ten)
  const h = await historyRepo(ctx.shared, 0, ctx.quick ? 16 : 40);
  const args = (out: string) => ['dataset', 'build', '--repo', h.dir, '--issues', h.issuesFile, '--key', 'SHOP', '--functions', '-o', out, '--no-progress'];
  const refOut = await ctx.shared.memo(`kill-dataset-ref:${h.commits}`, () => join(ctx.shared.dir('kill-dataset-ref'), 'ds.jsonl'));
  const duration = await cleanDuration(ctx, `dataset-build:${h.commits}`, async () => args(refOut));
  const want = readFileSync(refOut, 'utf8');
  // an earlier, different dataset of the same name: the history up to c10
  const older = await ctx.shared.memo(`kill-dataset-older:${h.commits}`, async () => {
    const out = join(ctx.shared.dir('kill-dataset-older'), 'ds.jsonl');
    const r = await ctx.cli(['dataset', 'build', '--repo', h.dir, '--rev', h.sha('c10'), '--issues', h.issuesFile, '--key', 'SHOP', '-o', out, '--no-progress'], 120);
    if (r.code !== 0) throw new Error(`older dataset: ${r.stderr}`);
    return { dir: join(out, '..'), text: readFileSync(out, 'utf8') };
  });
  for (let i = 0; i < tries(ctx); i++) {
    const delay = Math.round(duration * killShare(ctx));
    await ctx.attempt(`kill -9 after ${delay} ms`, async () => {
      const dir = ctx.dir(`try${i}`);
      if (overExisting) cpSync(older.dir, dir, { recursive: true });
      const out = join(dir, 'ds.jsonl');
      const killed = await ctx.cli(args(out), 120, { killAfterMs: delay });
      if (!killed.killedOnPurpose) {
        const bad = expectExit(killed, [0]);
        if (bad) return bad;
      }
      const allowed = killed.killedOnPurpose ? [want, ...(overExisting ? [older.text] : [])] : [want];
      if (existsSync(out) && !allowed.includes(readFileSync(out, 'utf8'))) {
        return wrong(killed, `after the kill ${out} is neither the old nor the new dataset (${readFileSync(out, 'utf8').length} bytes): half-written`);
      }
      if (!existsSync(out) && (overExisting || !killed.killedOnPurpose)) return wrong(killed, 'the earlier dataset is gone after the kill');
      const next = await ctx.cli(args(out), AFTER_KILL_BOUND_S + duration / 1000);
      const bad = expectExit(next, [0]);
      if (bad) return bad;
      if (readFileSync(out, 'utf8') !== want) return wrong(next, 'the dataset built after the kill differs from a clean build');
      const left = leftovers(dir);
      // a temporary file under another name is not the output; it is reported, not failed
      if (left.length > 0) ctx.note(`temporary files left by the kill: ${left.join(', ')}`);
      return undefined;
    });
  }
}

export const killProbes: Probe[] = [
  {
    area: 'kill', name: 'kill-index', quick: true,
    expect: 'kill -9 during a first `index`: the next `localize` gives the clean ranking within the after-kill bound',
    run: (ctx) => killIndex(ctx, false),
  },
  {
    area: 'kill', name: 'kill-index-force', quick: false,
    expect: 'kill -9 during `index --force` over a whole index: the next `localize` gives the clean ranking within the bound',
    run: (ctx) => killIndex(ctx, true),
  },
  {
    area: 'kill', name: 'kill-dataset-build', quick: true,
    expect: 'kill -9 during `dataset build --functions`: the output is absent or whole; the next build equals a clean one',
    run: (ctx) => killDatasetBuild(ctx, false),
  },
  {
    area: 'kill', name: 'kill-dataset-build-over-old', quick: false,
    expect: 'kill -9 during a `dataset build` over an earlier dataset: the old or the new dataset, whole; the next build equals a clean one',
    run: (ctx) => killDatasetBuild(ctx, true),
  },
];
