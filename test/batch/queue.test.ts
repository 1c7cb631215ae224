// Batch jobs on BullMQ over a real redis-server (started here on a free port): three worker
// processes, one killed with SIGKILL mid-job; retries, parked failures, bounded connects. Runs whose
// process is not under test (enqueue, status, collect, a worker run to the end) run in-process.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { collectResults } from '../../src/batch/collect.js';
import { runLocalBatch } from '../../src/batch/local-batch.js';
import { planIndexJobs } from '../../src/batch/plan.js';
import { checkRedis, enqueueJobs } from '../../src/batch/redis-queue.js';
import { addToManifest } from '../../src/batch/results-folder.js';
import { batchStatus } from '../../src/batch/status.js';
import { runCli, startCli } from './cli-process.js';
import { runInProcess } from '../cli/in-process.js';
import { startRedis } from './redis-server.js';
import { loadBound } from '../util/load-bound.js';

const COMMITS = 6;
const repo = fixtureRepo(Array.from({ length: COMMITS }, (_, i) => ({
  id: `C${i}`, parents: i === 0 ? [] : [`C${i - 1}`], message: `change ${i}`,
  files: { [`pkg/m${i}.py`]: `def handler_${i}(request):\n    return parse_${i}(request.body)\n`, 'pkg/core.py': `def core():\n    return ${i}\n` },
})));
const dir = mkdtempSync(join(tmpdir(), 'issueloc-batch-queue-'));
after(() => {
  repo.remove();
  rmSync(dir, { recursive: true, force: true });
});
const revs = Array.from({ length: COMMITS }, (_, i) => repo.sha(`C${i}`));
const indexArgs = (results: string) => ['batch', 'enqueue', 'index', '--repo', repo.dir, '--rev', ...revs, '--results', results, '--cache-dir', join(dir, `cache-${results.split('/').pop()}`), '--no-progress'];
const jobDirs = (results: string) => readdirSync(join(results, 'jobs')).sort();
const resultOf = (results: string, id: string) => readFileSync(join(results, 'jobs', id, 'result.jsonl'), 'utf8');

test('three workers, one killed mid-job: every job done exactly once, equal to the in-process result', async (t) => {
  const redis = await startRedis(t);
  if (!redis) return;
  try {
    const local = join(dir, 'local');
    const localJobs = await planIndexJobs(revs.map((rev) => ({ repo: repo.dir, rev })), local, { cacheDir: join(dir, 'cache-local') });
    addToManifest(local, localJobs);
    assert.equal((await runLocalBatch(localJobs, { concurrency: 2 })).done, COMMITS);

    const shared = join(dir, 'shared');
    const queue = ['--queue', redis.url];
    const q = await runInProcess([...indexArgs(shared), ...queue]);
    assert.equal(q.code, 0, q.err);
    assert.match(q.out, new RegExp(`^enqueued ${COMMITS} jobs \\(${COMMITS} new`));
    // enqueueing again is harmless: the same ids, one queue entry each
    const again = await planIndexJobs(revs.map((rev) => ({ repo: repo.dir, rev })), shared, { cacheDir: join(dir, 'cache-x') });
    assert.equal(addToManifest(shared, again), 0);
    const connection = await checkRedis(redis.url);
    await enqueueJobs(connection, again);
    assert.deepEqual((await batchStatus(shared, connection)).counts, { done: 0, running: 0, waiting: COMMITS, failed: 0, missing: 0 });

    const env = { ISSUELOC_BATCH_JOB_DELAY_MS: '800' };
    const workerArgs = ['batch', 'worker', ...queue, '--until-empty', '--lock-ms', '1000', '--stalled-ms', '300'];
    // killed after 180 s (startCli): three workers share two cores with the rest of a loaded machine
    const workers = [0, 1, 2].map(() => startCli(workerArgs, env, 180_000));
    // kill the worker whose attempt is under way in tmp/ (jobs/<id>.<pid>.<random>)
    const pids = new Set(workers.map((w) => w.child.pid));
    let victim: number | undefined;
    // up to the workers' own 180 s: a loaded machine starts them late
    for (const end = Date.now() + 180_000; victim === undefined && Date.now() < end;) {
      const tmp = join(shared, 'tmp');
      const names = existsSync(tmp) ? readdirSync(tmp) : [];
      victim = names.map((n) => Number(n.split('.')[1])).find((pid) => pids.has(pid));
      if (victim === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(victim, 'no worker started a job');
    const killed = workers.find((w) => w.child.pid === victim)!;
    killed.child.kill('SIGKILL');
    const codes = await Promise.all(workers.map((w) => w.done));
    assert.deepEqual(codes.filter((_, i) => workers[i] !== killed), [0, 0], workers.map((w) => w.err()).join('\n'));

    // exactly once: one result folder per job, no attempt left over, one `done` line per job
    assert.deepEqual(jobDirs(shared), jobDirs(local));
    assert.deepEqual(readdirSync(join(shared, 'tmp')), []);
    const doneLines = workers.flatMap((w) => w.out().split('\n').filter((l) => l.startsWith('done ')));
    assert.equal(doneLines.length, COMMITS, doneLines.join('\n'));
    for (const l of doneLines) assert.match(l, /^done index \S+@[0-9a-f]{12} \([0-9a-f]{32}\)$/, 'a done line says which job, then its id');
    for (const id of jobDirs(local)) {
      assert.equal(resultOf(shared, id), resultOf(local, id));
      assert.notEqual(JSON.parse(readFileSync(join(shared, 'jobs', id, 'job.json'), 'utf8')).pid, victim);
    }
    const status = await runInProcess(['batch', 'status', '--results', shared, ...queue]);
    assert.equal(status.code, 0);
    assert.match(status.out, new RegExp(`^done ${COMMITS} · running 0 · waiting 0 · failed 0 · missing 0`));
    collectResults(local, join(dir, 'local.jsonl'));
    const b = await runInProcess(['batch', 'collect', '--results', shared, '-o', join(dir, 'shared.jsonl')]);
    assert.equal(b.code, 0, b.err);
    assert.equal(readFileSync(join(dir, 'shared.jsonl'), 'utf8'), readFileSync(join(dir, 'local.jsonl'), 'utf8'));
    assert.equal(readFileSync(join(dir, 'shared.jsonl'), 'utf8').trim().split('\n').length, COMMITS);
  } finally {
    await redis.stop();
  }
});

test('a failing job is retried with back-off, then parked as failed with its error; collect refuses, --partial collects', async (t) => {
  const redis = await startRedis(t);
  if (!redis) return;
  try {
    const results = join(dir, 'failing');
    const queue = ['--queue', redis.url];
    const jobs = await planIndexJobs(revs.map((rev) => ({ repo: repo.dir, rev })), results);
    addToManifest(results, jobs);
    await enqueueJobs(await checkRedis(redis.url), jobs, { attempts: 2, backoffMs: 50 });
    writeFileSync(join(results, 'tmp'), 'not a folder'); // every attempt fails (EEXIST/ENOTDIR)
    const w = await runInProcess(['batch', 'worker', ...queue, '--until-empty', '--concurrency', '2']);
    assert.equal(w.code, 0, w.err);
    assert.equal(w.out.split('\n').filter((l) => l.startsWith('failed ')).length, 2 * COMMITS);
    const status = await runInProcess(['batch', 'status', '--results', results, ...queue]);
    assert.equal(status.code, 1);
    assert.match(status.out, new RegExp(`^done 0 · running 0 · waiting 0 · failed ${COMMITS} · missing 0`));
    assert.match(status.out, /\nfailed index .*2 attempts\): .*(EEXIST|ENOTDIR)/);
    const refused = await runInProcess(['batch', 'collect', '--results', results, '-o', join(dir, 'failing.jsonl')]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, new RegExp(`^issueloc: ${COMMITS} of ${COMMITS} index jobs have no usable result: .*--partial`));
    assert.equal(existsSync(join(dir, 'failing.jsonl')), false);
    collectResults(results, join(dir, 'failing.jsonl'), { partial: true });
    assert.equal(readFileSync(join(dir, 'failing.jsonl'), 'utf8'), '');
    assert.equal(readFileSync(join(dir, 'failing.missing.jsonl'), 'utf8').trim().split('\n').length, COMMITS);
  } finally {
    await redis.stop();
  }
});

test('a queue that does not answer: one line naming the URL, exit 2, within the connect timeout', async () => {
  const silent = createServer(() => {}); // accepts, never answers
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const port = (silent.address() as { port: number }).port;
  try {
    // start-up of the same command on this machine now (it exits at the URL check, before connecting)
    const s0 = Date.now();
    assert.equal((await runCli(['batch', 'worker', '--queue', 'http://x'])).code, 2);
    const startupMs = Date.now() - s0;
    const timeoutMs = 1000;
    const t0 = Date.now();
    const r = await runCli(['batch', 'worker', '--queue', `redis://127.0.0.1:${port}/3`, '--connect-timeout', String(timeoutMs / 1000)]);
    const ms = Date.now() - t0;
    assert.equal(r.code, 2);
    assert.equal(r.err, `issueloc: cannot reach redis at redis://127.0.0.1:${port}/3: no answer in ${timeoutMs} ms\n`);
    // the timeout fired: never before it, and not a wait without end (runCli kills at 60 s); the
    // bound is the timeout + 3 × the start-up just measured + 10 s (loadBound)
    assert.ok(ms >= timeoutMs, `${ms} ms`);
    assert.ok(ms < loadBound(timeoutMs, startupMs), `${ms} ms (start-up ${startupMs} ms)`);
    await assert.rejects(checkRedis('http://x'), /--queue http:\/\/x: not a redis:\/\/ URL/);
  } finally {
    silent.close();
  }
});

test('a refused connection: one line naming the URL and saying so', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as { port: number }).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const r = await runCli(['batch', 'status', '--queue', `redis://127.0.0.1:${port}/0`, '--results', dir]); // a process: the refused client must end with it
  assert.equal(r.code, 2);
  assert.equal(r.err, `issueloc: cannot reach redis at redis://127.0.0.1:${port}/0: connection refused\n`);
});

test('Redis dies under a running worker: a line naming the URL, exit 2 after --redis-wait; no Node warning while it ran', async (t) => {
  const redis = await startRedis(t);
  if (!redis) return;
  let stopped: Promise<void> | undefined;
  t.after(() => (stopped ??= redis.stop()));
  const w = startCli(['batch', 'worker', '--queue', redis.url, '--redis-wait', '2'], {}, 120_000);
  const admin = new Redis(redis.url);
  t.after(() => admin.disconnect());
  const others = async () => String(await admin.client('LIST')).trim().split('\n').length - 1;
  while (await others() === 0) {
    assert.equal(w.child.exitCode, null, w.err());
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 7000)); // ≥ 11 idle polls of 500 ms: each once left an abort listener behind
  assert.equal(w.err(), '', 'nothing on stderr while Redis is up');
  await (stopped ??= redis.stop());
  const code = await w.done;
  assert.equal(code, 2);
  const lines = w.err().trim().split('\n');
  assert.match(lines[0], new RegExp(`^issueloc: lost redis at ${redis.url}: connection refused; reconnecting .*giving up after 2 s$`));
  assert.match(lines.at(-1)!, new RegExp(`^issueloc: redis at ${redis.url} gone for \\d+ s \\(connection refused\\): giving up$`));
  assert.ok(!/Warning/.test(w.err()), w.err());
});
