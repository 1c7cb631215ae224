/**
 * Batch work (issue 31: F12, F18; issue 29 item 14): `batch collect` over damaged results (a
 * truncated, garbled or forged `result.jsonl`, or one that is gone) must refuse (exit 1) or, with
 * `--partial`, leave the bad job out; a worker whose Redis dies says so, naming the URL, and gives
 * up with exit 2 after its documented wait; a refused connection is named as such; a path that is
 * not UTF-8 is named by its bytes (quoted as git quotes them).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, haveRedisServer, launchRedis } from '../../test/batch/redis-server.js';
import { cliEnv, type RunResult } from '../cli.js';
import { BIN, CLI_NODE_ARGS } from '../interface.js';
import { shopRepo, SHOP_ISSUE } from '../fixtures.js';
import { badEnd, expectExit, firstLine, wrong, type Failure, type Probe, type ProbeContext } from '../probe.js';

const BOUND_S = 60;
/** The documented wait of a worker whose Redis is gone (docs/batch.md, `--redis-wait`). */
const REDIS_WAIT_S = 60;

/** A localize batch of 4 shards run in-process once per suite run: its results folder and the collected reference. */
function localBatch(ctx: ProbeContext): Promise<{ results: string; reference: string[] }> {
  return ctx.shared.memo('batch:local', async () => {
    const repo = await shopRepo(ctx.shared);
    const dir = ctx.shared.dir('batch-local');
    const issues = join(dir, 'issues.jsonl');
    const words = ['coupon discount', 'checkout handler charges', 'round money negative', 'validate address city', 'refund handler', 'cart total price'];
    writeFileSync(issues, words.map((w, i) => `${JSON.stringify({ id: `I-${i}`, text: `${w}: ${SHOP_ISSUE}` })}\n`).join(''));
    const results = join(dir, 'results');
    const run = await ctx.cli(['batch', 'enqueue', 'localize', '--repo', repo, '--issues', issues, '--shards', '4', '--results', results, '--cache-dir', join(dir, 'cache'), '--no-progress'], BOUND_S);
    if (run.code !== 0) throw new Error(`batch enqueue localize: exit ${run.code}: ${run.stderr}`);
    const out = join(dir, 'all.jsonl');
    const c = await ctx.cli(['batch', 'collect', '--results', results, '-o', out], BOUND_S);
    if (c.code !== 0) throw new Error(`batch collect: exit ${c.code}: ${c.stderr}`);
    return { results, reference: readFileSync(out, 'utf8').split('\n').filter((l) => l !== '') };
  });
}

/** How a result file is damaged (null: removed). */
const DAMAGES: Record<string, (text: string) => string | null> = {
  truncated: (t) => t.slice(0, Math.floor(t.length / 2)),
  garbled: (t) => t.replace(/"score":([\d.]+)/, (_, s: string) => `"score":${s}7`),
  forged: (t) => t.replace(/"id":"I-\d+"/g, '"id":"FORGED"'),
  gone: () => null,
};

async function collectDamaged(ctx: ProbeContext, damage: string): Promise<void> {
  const { results: source, reference } = await localBatch(ctx);
  await ctx.attempt(damage, async () => {
    const dir = ctx.dir(damage);
    const results = join(dir, 'results');
    cpSync(source, results, { recursive: true });
    const ids = readdirSync(join(results, 'jobs')).sort();
    const victim = ids[0];
    const file = join(results, 'jobs', victim, 'result.jsonl');
    const text = readFileSync(file, 'utf8');
    const victimLines = new Set(text.split('\n').filter((l) => l !== ''));
    const damaged = DAMAGES[damage](text);
    if (damaged === null) rmSync(file);
    else writeFileSync(file, damaged);
    const out = join(dir, 'out.jsonl');
    const strict = await ctx.cli(['batch', 'collect', '--results', results, '-o', out], BOUND_S);
    const bad = expectExit(strict, [1]);
    if (bad) return bad;
    if (!strict.stderr.includes(victim)) return wrong(strict, `the damaged job ${victim} is not named: ${firstLine(strict.stderr)}`);
    const partial = await ctx.cli(['batch', 'collect', '--results', results, '-o', out, '--partial'], BOUND_S);
    const bad2 = expectExit(partial, [0]);
    if (bad2) return bad2;
    if (!/collected 3 of 4 /.test(partial.stdout)) return wrong(partial, `counts the damaged job as collected: ${firstLine(partial.stdout)}`);
    const got = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '');
    const want = reference.filter((l) => !victimLines.has(l));
    if (got.join('\n') !== want.join('\n')) return wrong(partial, `the output holds ${got.length} lines, ${want.length} expected (the others' results only)`);
    if (!readFileSync(join(dir, 'out.missing.jsonl'), 'utf8').includes(victim)) return wrong(partial, 'the damaged job is not listed in out.missing.jsonl');
    return undefined;
  });
}

/** A running `issueloc` process whose output is watched. */
function startWorker(ctx: ProbeContext, args: string[], boundS: number) {
  const child = spawn(process.execPath, [...CLI_NODE_ARGS, BIN, ...args], { env: cliEnv(ctx.home), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const t0 = performance.now();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, boundS * 1000);
  const done = new Promise<RunResult>((resolve) => child.once('close', (code, signal) => {
    clearTimeout(timer);
    resolve({ args, code, signal, stdout, stderr, ms: performance.now() - t0, timedOut, overMemory: false, killedOnPurpose: false, peakRssMb: 0, boundMs: boundS * 1000 });
  }));
  return { child, err: () => stderr, done };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function workerLosesRedis(ctx: ProbeContext): Promise<void> {
  if (!haveRedisServer()) {
    ctx.note('redis-server is not installed: probe skipped');
    ctx.record('skipped', undefined);
    return;
  }
  const redis = await launchRedis();
  let stopped: Promise<void> | undefined;
  const stopRedis = () => (stopped ??= redis.stop());
  try {
    await ctx.attempt('redis killed under a running worker', async () => {
      const w = startWorker(ctx, ['batch', 'worker', '--queue', redis.url, '--stalled-ms', '1000'], REDIS_WAIT_S + BOUND_S);
      await sleep(8000); // long enough for many idle polls (each used to add an abort listener)
      const killedAt = performance.now();
      await stopRedis();
      let told = -1;
      while (w.child.exitCode === null && w.child.signalCode === null && performance.now() - killedAt < 20_000) {
        if (w.err().includes(redis.url)) { told = performance.now() - killedAt; break; }
        await sleep(200);
      }
      if (told < 0 && w.child.exitCode === null) {
        const r = await (w.child.kill('SIGKILL'), w.done);
        return wrong(r, `nothing on stderr naming ${redis.url} 20 s after Redis died: ${JSON.stringify(r.stderr.slice(0, 300))}`);
      }
      const r = await w.done;
      const bad: Failure | undefined = badEnd(r);
      if (bad) return bad;
      if (r.code !== 2) return wrong(r, `exit ${r.code} (expected 2 after giving up): ${firstLine(r.stderr)}`);
      if (/Warning/.test(r.stderr)) return wrong(r, `a Node warning on stderr: ${r.stderr.split('\n').find((l) => /Warning/.test(l))}`);
      return undefined;
    });
  } finally {
    await stopRedis();
  }
}

/** `sh -c` runs issueloc with arguments made by printf (bytes that are not UTF-8). */
async function withRawArgs(ctx: ProbeContext, script: string, values: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script, 'sh', process.execPath, BIN, ...values], { env: cliEnv(ctx.home), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const t0 = performance.now();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, BOUND_S * 1000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ args: ['(sh)', script], code, signal, stdout, stderr, ms: performance.now() - t0, timedOut, overMemory: false, killedOnPurpose: false, peakRssMb: 0, boundMs: BOUND_S * 1000 });
    });
  });
}

/** The failure of a run that should name `quoted` (git's quoting of a non-UTF-8 path). */
function namesBytes(r: RunResult, quoted: string): Failure | undefined {
  const bad = expectExit(r, [2]);
  if (bad) return bad;
  if (r.stderr.includes('\uFFFD')) return wrong(r, `U+FFFD instead of the path's bytes: ${firstLine(r.stderr)}`);
  if (/no such file|does not exist|not found/i.test(r.stderr)) return wrong(r, `an existing path reported as missing: ${firstLine(r.stderr)}`);
  if (!r.stderr.includes(quoted)) return wrong(r, `the path is not named as ${quoted}: ${firstLine(r.stderr)}`);
  return undefined;
}

async function nonUtf8Paths(ctx: ProbeContext): Promise<void> {
  const repo = await shopRepo(ctx.shared);
  await ctx.attempt('--issues argument', async () => {
    const dir = ctx.dir('argv');
    const path = Buffer.concat([Buffer.from(`${dir}/is`), Buffer.from([0xff, 0xfe]), Buffer.from('.jsonl')]);
    writeFileSync(path, `${JSON.stringify({ id: 1, text: SHOP_ISSUE })}\n`);
    const r = await withRawArgs(ctx, 'exec "$1" "$2" batch enqueue localize --repo "$3" --issues "$(printf "$4")" --results "$5" --no-progress',
      [repo, `${dir}/is\\377\\376.jsonl`, join(dir, 'results')]);
    return namesBytes(r, `"${dir}/is\\377\\376.jsonl"`);
  });
  await ctx.attempt('repository in a --commits file', async () => {
    const dir = ctx.dir('list');
    const copy = join(dir, 'repo');
    cpSync(repo, copy, { recursive: true });
    const raw = Buffer.concat([Buffer.from(`${dir}/r`), Buffer.from([0xe9]), Buffer.from('po')]);
    renameSync(copy, raw);
    const list = join(dir, 'commits.txt');
    writeFileSync(list, Buffer.concat([raw, Buffer.from(' HEAD\n')]));
    mkdirSync(join(dir, 'results'));
    const r = await ctx.cli(['batch', 'enqueue', 'index', '--commits', list, '--results', join(dir, 'results'), '--no-progress'], BOUND_S);
    return namesBytes(r, `"${dir}/r\\351po"`);
  });
}

export const batchProbes: Probe[] = [
  ...Object.keys(DAMAGES).map((damage): Probe => ({
    area: 'batch', name: `collect-${damage}-result`, quick: true,
    expect: `a ${damage === 'gone' ? 'removed' : damage} result.jsonl: \`batch collect\` exits 1 naming the job; \`--partial\` collects 3 of 4, the others' lines only, the job in OUT.missing.jsonl`,
    run: (ctx) => collectDamaged(ctx, damage),
  })),
  {
    area: 'batch', name: 'redis-refused', quick: true,
    expect: '`batch status --queue` of a port nothing listens on: exit 2, one line naming the URL and saying the connection was refused',
    run: async (ctx) => {
      const port = await freePort();
      const url = `redis://127.0.0.1:${port}/0`;
      const dir = ctx.dir('refused');
      await ctx.attempt('refused', async () => {
        const r = await ctx.cli(['batch', 'status', '--queue', url, '--results', dir], BOUND_S);
        const bad = expectExit(r, [2]);
        if (bad) return bad;
        if (!r.stderr.includes(url) || !/refused/i.test(r.stderr)) return wrong(r, `not "URL … refused": ${firstLine(r.stderr)}`);
        return undefined;
      });
    },
  },
  {
    area: 'batch', name: 'worker-redis-dies', quick: false,
    expect: `Redis killed under a running \`batch worker\`: a line naming the URL on stderr at once, exit 2 after the documented wait (${REDIS_WAIT_S} s), no Node warning`,
    run: workerLosesRedis,
  },
  {
    area: 'batch', name: 'non-utf8-path', quick: true,
    expect: 'a path that is not UTF-8 (an argument, a line of a list file): exit 2 naming its bytes as git quotes them, never U+FFFD or "no such file"',
    run: nonUtf8Paths,
  },
];
