/**
 * bench/batch-scale: batch jobs on BullMQ over a local redis-server with 1, 2 and 4 worker
 * processes, and the queue's cost per job.
 *
 *   node dist/bench/batch-scale.js [--issues DATA/swebench-lite/swebench_lite.jsonl] [--mirrors DIR]
 *       [--workers 1,2,4] [--repos 12] [--overhead-jobs 60]
 *
 * Workload: one index job per SWE-bench Lite repository (the base commit of its first instance),
 * each into its own fresh cache folder, so every run parses every file (nothing cached between
 * runs). Per worker count: wall time from the workers' start to the last one leaving
 * (`--until-empty`), the sum of the jobs' own times (job.json), speed-up against one worker.
 * Queue overhead: `--overhead-jobs` index jobs of a tiny fixture repository (a few milliseconds
 * each) through one worker: (span from the first job's start to the last job's end − the jobs'
 * own times) / (jobs − 1). Needs redis-server (Debian package) and the mirrors.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from './lib/args.js';
import { planIndexJobs } from '../src/batch/plan.js';
import { checkRedis, enqueueJobs } from '../src/batch/redis-queue.js';
import { addToManifest } from '../src/batch/results-folder.js';
import type { BatchJob } from '../src/batch/job-spec.js';
import { mirrorPath } from '../src/repo/mirrors.js';
import { fixtureRepo } from '../test/repo/fixture-repo.js';
import { startCli } from '../test/batch/cli-process.js';
import { launchRedis } from '../test/batch/redis-server.js';
import { dataFile, MIRRORS_DIR } from './lib/data.js';

const { values: args } = benchArgs({
  options: {
    issues: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    workers: { type: 'string', default: '1,2,4' },
    repos: { type: 'string', default: '12' },
    'overhead-jobs': { type: 'string', default: '60' },
  },
});

interface JobRecord { startedAt: number; millis: number }

function jobRecords(results: string): JobRecord[] {
  return readdirSync(join(results, 'jobs')).map((id) => JSON.parse(readFileSync(join(results, 'jobs', id, 'job.json'), 'utf8')) as JobRecord);
}

/** Enqueues `jobs` on database `db`, runs `workers` worker processes until the queue is empty; wall ms. */
async function runWorkers(url: string, jobs: BatchJob[], workers: number): Promise<number> {
  addToManifest(jobs[0].results, jobs);
  await enqueueJobs(await checkRedis(url), jobs);
  const t0 = performance.now();
  const procs = Array.from({ length: workers }, () => startCli(['batch', 'worker', '--queue', url, '--until-empty'], {}, 3_600_000));
  const codes = await Promise.all(procs.map((p) => p.done));
  const wall = performance.now() - t0;
  if (codes.some((c) => c !== 0)) throw new Error(`a worker failed: ${procs.map((p) => p.err()).join('\n')}`);
  return wall;
}

async function main() {
  const counts = args.workers!.split(',').map(Number);
  const rows = readFileSync(args.issues!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { repo: string; base_commit: string });
  const firstOf = new Map<string, string>();
  for (const r of rows) if (!firstOf.has(r.repo)) firstOf.set(r.repo, r.base_commit);
  const commits = [...firstOf].slice(0, Number(args.repos)).map(([repo, rev]) => {
    const path = mirrorPath(args.mirrors!, repo);
    if (!path) throw new Error(`no mirror of ${repo} in ${args.mirrors}`);
    return { name: repo, repo: path, rev };
  });
  const redis = await launchRedis();
  const tmp = mkdtempSync(join(tmpdir(), 'issueloc-batch-scale-'));
  try {
    process.stdout.write(`machine: ${availableParallelism()} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
    process.stdout.write(`workload: ${commits.length} index jobs, one base commit per repository (${commits.map((c) => c.name.split('/')[1]).join(', ')})\n\n`);
    process.stdout.write('| workers | wall s | sum of job times s | speed-up | load average at end |\n|---|---|---|---|---|\n');
    let base = 0;
    for (const [k, w] of counts.entries()) {
      const results = join(tmp, `scale-${w}`);
      const jobs: BatchJob[] = [];
      for (const [i, c] of commits.entries()) jobs.push(...await planIndexJobs([c], results, { cacheDir: join(tmp, `cache-${w}-${i}`) }));
      const wall = await runWorkers(redis.url.replace(/\/0$/, `/${k + 1}`), jobs, w);
      const sum = jobRecords(results).reduce((s, r) => s + r.millis, 0);
      if (w === counts[0]) base = wall * counts[0];
      process.stdout.write(`| ${w} | ${(wall / 1000).toFixed(1)} | ${(sum / 1000).toFixed(1)} | ${(base / wall).toFixed(2)}× | ${loadavg()[0].toFixed(1)} |\n`);
    }
    const n = Number(args['overhead-jobs']);
    const fixture = fixtureRepo(Array.from({ length: n }, (_, i) => ({
      id: `C${i}`, parents: i === 0 ? [] : [`C${i - 1}`], message: `c${i}`, files: { [`m${i % 5}.py`]: `def f${i}():\n    return ${i}\n` },
    })));
    try {
      const results = join(tmp, 'overhead');
      const jobs = await planIndexJobs(Array.from({ length: n }, (_, i) => ({ repo: fixture.dir, rev: fixture.sha(`C${i}`) })), results, { cacheDir: join(tmp, 'cache-overhead') });
      await runWorkers(redis.url.replace(/\/0$/, '/9'), jobs, 1);
      const recs = jobRecords(results).sort((a, b) => a.startedAt - b.startedAt);
      const span = recs[recs.length - 1].startedAt + recs[recs.length - 1].millis - recs[0].startedAt;
      const own = recs.reduce((s, r) => s + r.millis, 0);
      process.stdout.write(`\nqueue overhead: ${n} tiny index jobs through 1 worker: span ${(span / 1000).toFixed(2)} s, jobs' own time ${(own / 1000).toFixed(2)} s, ` +
        `overhead ${((span - own) / (n - 1)).toFixed(1)} ms per job (mean job ${(own / n).toFixed(1)} ms)\n`);
    } finally {
      fixture.remove();
    }
  } finally {
    await redis.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
