/**
 * bench/serve-load: `issueloc serve` under load on 127.0.0.1 (undici clients, bounded loops).
 *
 *   node dist/bench/serve-load.js [--mirror sympy+sympy] [--workers 0,2] [--clients 1,4,16]
 *       [--requests 2000] [--overload-clients 64] [--overload-concurrency 8]
 *       [--rss-mirrors pallets+flask,psf+requests,pytest-dev+pytest,mwaskom+seaborn] [--cache-dir DIR]
 *
 * For each --workers value it starts the server as a child process on the mirror's default
 * branch, waits for its index to be warm, sends 200 requests to warm the JIT, then for each
 * client count sends --requests requests (SWE-bench Lite problem statements of that repository,
 * in turn) from that many concurrent clients, and prints p50 / p99 latency in ms, requests per
 * second, errors (non-200 answers and failed requests) and the server's RSS. Then overload:
 * --overload-clients clients against a server admitting --overload-concurrency at once: how many
 * 429s, p99 of the admitted requests. Last, RSS with the mirror and the --rss-mirrors warm.
 * Data and mirrors folders: ISSUELOC_DATA, ISSUELOC_MIRRORS (bench/lib/data.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { dataFile, mirrorRepo } from './lib/data.js';

const { values: args } = parseArgs({
  options: {
    mirror: { type: 'string', default: 'sympy+sympy' },
    workers: { type: 'string', default: '0,2' },
    clients: { type: 'string', default: '1,4,16' },
    requests: { type: 'string', default: '2000' },
    'overload-clients': { type: 'string', default: '64' },
    'overload-concurrency': { type: 'string', default: '8' },
    'rss-mirrors': { type: 'string', default: 'pallets+flask,psf+requests,pytest-dev+pytest,mwaskom+seaborn' },
    'cache-dir': { type: 'string' },
  },
});

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/src/cli/bin.js');
const MAX_REQUESTS = 100_000;
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const rssMiB = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
};

/** A started server: its URL, process and a stop that waits for exit 0. */
async function startServer(repos: string[], extra: string[]): Promise<{ url: string; child: ChildProcess; stop: () => Promise<number | null> }> {
  const argv = [bin, 'serve', '--port', '0', ...repos.flatMap((r) => ['--repo', `${r.replace(/\W+/g, '-')}=${mirrorRepo(r)}`]), ...extra];
  if (args['cache-dir']) argv.push('--cache-dir', args['cache-dir']);
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { err += d; });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const t0 = Date.now();
  // the address, then the warm indexes (a first build of a large repository takes minutes)
  while (!/default revisions indexed/.test(err)) {
    if (child.exitCode !== null || Date.now() - t0 > 30 * 60_000) throw new Error(`server did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = /http:\/\/\S+/.exec(out)![0];
  return { url, child, stop: async () => { child.kill('SIGTERM'); return exited; } };
}

interface Load { p50: number; p99: number; rps: number; errors: number; statuses: Record<string, number>; okP99: number }

/** `requests` requests from `clients` concurrent clients (one keep-alive connection each). */
async function load(url: string, repository: string, texts: string[], clients: number, requests: number): Promise<Load> {
  const pool = new Pool(url, { connections: clients, pipelining: 1 });
  const times: number[] = [];
  const okTimes: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < requests) {
      const k = next++;
      const body = JSON.stringify({ repository, issue: texts[k % texts.length] });
      const q0 = performance.now();
      try {
        const res = await pool.request({ path: '/v1/localize', method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.body.text();
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (res.statusCode === 200) okTimes.push(performance.now() - q0);
        else errors++;
      } catch {
        statuses.failed = (statuses.failed ?? 0) + 1;
        errors++;
      }
      times.push(performance.now() - q0);
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), rps: requests / seconds, errors, statuses, okP99: quantile(okTimes, 0.99) };
}

async function main() {
  const requests = Math.min(MAX_REQUESTS, Number(args.requests));
  const repoName = args.mirror!.replace(/\+/g, '/');
  const texts = readFileSync(dataFile('swebench-lite/swebench_lite.jsonl'), 'utf8').split('\n').filter(Boolean)
    .map((l) => JSON.parse(l) as { repo: string; problem_statement: string })
    .filter((i) => i.repo === repoName).map((i) => i.problem_statement);
  if (texts.length === 0) throw new Error(`no SWE-bench Lite issue of ${repoName}`);
  const repository = args.mirror!.replace(/\W+/g, '-');
  process.stdout.write(`${repoName}: ${texts.length} SWE-bench Lite problem statements, ${requests} requests per row\n\n`);
  process.stdout.write('| workers | clients | p50 ms | p99 ms | req/s | errors | RSS MiB |\n|---|---|---|---|---|---|---|\n');
  for (const workers of args.workers!.split(',').map(Number)) {
    const server = await startServer([args.mirror!], ['--workers', String(workers)]);
    try {
      await load(server.url, repository, texts, 4, 200);
      for (const clients of args.clients!.split(',').map(Number)) {
        const r = await load(server.url, repository, texts, clients, requests);
        process.stdout.write(`| ${workers} | ${clients} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.rps.toFixed(0)} | ${r.errors} | ${rssMiB(server.child.pid!).rss} |\n`);
      }
    } finally {
      const code = await server.stop();
      if (code !== 0) process.stdout.write(`server exited ${code}\n`);
    }
  }

  const oc = Number(args['overload-clients']);
  const bound = args['overload-concurrency']!;
  const workers = args.workers!.split(',').map(Number).at(-1)!;
  const server = await startServer([args.mirror!], ['--workers', String(workers), '--concurrency', bound]);
  try {
    const r = await load(server.url, repository, texts, oc, requests);
    process.stdout.write(`\noverload: ${oc} clients, --concurrency ${bound}, --workers ${workers}: ${JSON.stringify(r.statuses)}; ` +
      `p99 of admitted ${r.okP99.toFixed(1)} ms, of all ${r.p99.toFixed(1)} ms; ${r.rps.toFixed(0)} answers/s; server ${server.child.exitCode === null ? 'alive' : 'dead'}\n`);
  } finally {
    await server.stop();
  }

  const all = [args.mirror!, ...args['rss-mirrors']!.split(',').filter(Boolean)];
  for (const w of [0, workers]) {
    const s = await startServer(all, ['--workers', String(w)]);
    try {
      for (const m of all) await load(s.url, m.replace(/\W+/g, '-'), ['a query to warm the chain\nparse error'], 1, 20);
      const { rss, peak } = rssMiB(s.child.pid!);
      process.stdout.write(`RSS with ${all.length} repositories warm (--workers ${w}): ${rss} MiB (peak ${peak} MiB)\n`);
    } finally {
      await s.stop();
    }
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exitCode = 1;
});
