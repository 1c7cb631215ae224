/**
 * Huge inputs (issues 10, 14): an endless issue file, 700 KB of dotted names, an absurd --top,
 * 10 MB on stdin, a file over the issue cap. Each must end within its bound with a result or a
 * one-line error (exit 2) naming the input.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorLines, type RunResult } from '../cli.js';
import { localizeArgs } from '../common.js';
import { shopRepo } from '../fixtures.js';
import { INPUT_BOUND_S, MAX_ISSUE_BYTES } from '../interface.js';
import { badEnd, firstLine, wrong, type Failure, type Probe } from '../probe.js';
import { parseRanking } from '../ranking.js';

/** Exit 2 with one error line that names `source`. */
function oneLineError(r: RunResult, source: string): Failure | undefined {
  const bad = badEnd(r);
  if (bad) return bad;
  if (r.code !== 2) return wrong(r, `exit ${r.code} instead of 2 (a one-line error naming ${source}): ${firstLine(r.stderr)}`);
  const lines = errorLines(r.stderr);
  if (lines.length !== 1) return wrong(r, `${lines.length} error lines instead of one: ${lines.slice(0, 3).join(' | ')}`);
  if (!lines[0].startsWith('issueloc: ') || !lines[0].includes(source)) return wrong(r, `the error does not name ${source}: ${lines[0]}`);
  return undefined;
}

/** Exit 0 with a JSON ranking, or 1 (nothing matched), or a one-line exit-2 error. */
function resultOrOneLineError(r: RunResult): Failure | undefined {
  const bad = badEnd(r);
  if (bad) return bad;
  if (r.code === 2) {
    const lines = errorLines(r.stderr);
    return lines.length === 1 ? undefined : wrong(r, `exit 2 with ${lines.length} error lines`);
  }
  if (r.code === 1) return /nothing matched|no word of the issue/.test(r.stderr) ? undefined : wrong(r, `exit 1 without "nothing matched": ${firstLine(r.stderr)}`);
  const got = parseRanking(r.stdout);
  return typeof got === 'string' ? wrong(r, got) : undefined;
}

export const inputProbes: Probe[] = [
  {
    area: 'inputs', name: 'issue-file-dev-zero', quick: true,
    expect: '`--issue-file /dev/zero` stops at the issue cap: exit 2, one line naming /dev/zero, bounded time and memory',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const args = ['localize', '--repo', repo, '--issue-file', '/dev/zero', '--json', '--no-progress', '--cache-dir', join(ctx.dir(), 'c')];
      await ctx.attempt('/dev/zero', async () => oneLineError(await ctx.cli(args, INPUT_BOUND_S), '/dev/zero'));
    },
  },
  {
    area: 'inputs', name: 'issue-over-cap', quick: false,
    expect: `an issue file of 2 MiB (over the ${MAX_ISSUE_BYTES >> 20} MiB cap): exit 2, one line naming the file`,
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const file = join(ctx.dir(), 'big-issue.md');
      writeFileSync(file, 'the cart total price is wrong '.repeat(Math.ceil((2 * MAX_ISSUE_BYTES) / 30)));
      const args = ['localize', '--repo', repo, '--issue-file', file, '--json', '--no-progress', '--cache-dir', join(ctx.dir(), 'c')];
      await ctx.attempt('2 MiB file', async () => oneLineError(await ctx.cli(args, INPUT_BOUND_S), file));
    },
  },
  {
    area: 'inputs', name: 'stdin-10mb', quick: true,
    expect: '10 MB of issue text on stdin (over the cap): exit 2, one line naming stdin, bounded',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const input = 'coupon discount total price cart checkout\n'.repeat(Math.ceil(10e6 / 42));
      const args = ['localize', '--repo', repo, '--json', '--no-progress', '--cache-dir', join(ctx.dir(), 'c')];
      await ctx.attempt('10 MB stdin', async () => oneLineError(await ctx.cli(args, INPUT_BOUND_S, { input }), 'stdin'));
    },
  },
  {
    area: 'inputs', name: 'dotted-names-700k', quick: true,
    expect: 'an issue of 700 KB of `main.main.main…` (under the cap): a result (or nothing matched) within the bound, not quadratic time',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const file = join(ctx.dir(), 'dotted.md');
      writeFileSync(file, `main crashes\n${'main.'.repeat(140_000)}main\n`);
      const cache = join(ctx.dir(), 'c');
      // index first, so the bound measures the issue's cost only
      await ctx.cli(['index', '--repo', repo, '--cache-dir', cache, '--no-progress'], 60);
      const args = ['localize', '--repo', repo, '--issue-file', file, '--json', '--no-progress', '--cache-dir', cache];
      await ctx.attempt('700 KB dotted', async () => resultOrOneLineError(await ctx.cli(args, INPUT_BOUND_S)));
    },
  },
  {
    area: 'inputs', name: 'issue-near-cap', quick: false,
    expect: 'an issue of 1 MiB − 4 KiB of ordinary words: a result within the bound',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const file = join(ctx.dir(), 'near-cap.md');
      const words = 'coupon discount applied twice total price cart checkout handler charges card wrong amount round money negative value ';
      writeFileSync(file, words.repeat(Math.floor((MAX_ISSUE_BYTES - 4096) / words.length)));
      const cache = join(ctx.dir(), 'c');
      await ctx.cli(['index', '--repo', repo, '--cache-dir', cache, '--no-progress'], 60);
      const args = ['localize', '--repo', repo, '--issue-file', file, '--json', '--no-progress', '--cache-dir', cache];
      await ctx.attempt('1 MiB words', async () => {
        const r = await ctx.cli(args, INPUT_BOUND_S);
        return badEnd(r) ?? (r.code === 0 ? resultOrOneLineError(r) : wrong(r, `exit ${r.code} instead of a result: ${firstLine(r.stderr)}`));
      });
    },
  },
  {
    area: 'inputs', name: 'top-100000000', quick: true,
    expect: '`--top 100000000`: every item (exit 0, whole JSON) or a one-line exit-2 error, bounded',
    async run(ctx) {
      const repo = await shopRepo(ctx.shared);
      const args = localizeArgs(repo, join(ctx.dir(), 'c'), undefined, ['--top', '100000000']);
      await ctx.attempt('--top 1e8', async () => resultOrOneLineError(await ctx.cli(args, INPUT_BOUND_S)));
    },
  },
];
