/**
 * bench/serve-load: `issueloc serve` under load on 127.0.0.1 (undici clients, bounded loops).
 *
 *   node dist/bench/serve-load.js [--mirror sympy+sympy] [--workers 0,2] [--clients 1,4,16]
 *       [--requests 2000] [--overload-clients 64] [--overload-concurrency 8]
 *       [--rss-mirrors pallets+flask,psf+requests,pytest-dev+pytest,mwaskom+seaborn] [--cache-dir DIR]
 *       [--texts repeated,unique,rev,branch] [--bins A/dist/src/cli/bin.js,B/dist/src/cli/bin.js] [--rounds N]
 *       [--warm-requests 200] [--load-only] [--cpu-prof DIR]
 *
 * For each --workers value it starts the server as a child process on the mirror's default
 * branch, waits for its index to be warm, sends --warm-requests distinct requests to warm the JIT
 * (V8 still optimizes the HTTP thread's code for a thousand requests or so: 2000 measures a
 * server warm long since), then for each
 * client count sends --requests requests (SWE-bench Lite problem statements of that repository,
 * in turn, each asked once before the row; with --texts unique each made distinct, so no answer is asked for twice; with
 * --texts rev distinct too and naming the base commit by its SHA, as an agent does; --texts branch
 * the same by the name of the mirror's default branch, as a person does) from that many
 * concurrent clients, and prints p50 / p99 latency in ms, requests per
 * second, errors (non-200 answers and failed requests), the server's CPU time per request (all
 * its threads; on a machine shared with other work the one figure that load does not inflate
 * much), split by thread (/proc/PID/task: the HTTP thread, the N busiest others as the worker
 * threads, the rest: V8's GC and compiler threads, libuv's pool) and its RSS. With --bins, each build's server in turn (--rounds times): a before/after
 * comparison in one run. --cpu-prof DIR writes a CPU profile of each server. Then (unless --load-only) overload:
 * --overload-clients clients against a server admitting --overload-concurrency at once: how many
 * 429s, p99 of the admitted requests. Then hostile requests: a 100 MB body, a rev like
 * `--output=/tmp/x`, a repository `../NAME`, a client gone mid-request. Last, RSS with the mirror
 * and the --rss-mirrors warm.
 * Data and mirrors folders: ISSUELOC_DATA, ISSUELOC_MIRRORS (bench/lib/data.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { benchArgs } from './lib/args.js';
import { Pool } from 'undici';
import { dataFile, mirrorRepo } from './lib/data.js';

const { values: args } = benchArgs({
  options: {
    mirror: { type: 'string', default: 'sympy+sympy' },
    workers: { type: 'string', default: '0,2' },
    clients: { type: 'string', default: '1,4,16' },
    requests: { type: 'string', default: '2000' },
    'overload-clients': { type: 'string', default: '64' },
    'overload-concurrency': { type: 'string', default: '8' },
    'rss-mirrors': { type: 'string', default: 'pallets+flask,psf+requests,pytest-dev+pytest,mwaskom+seaborn' },
    'cache-dir': { type: 'string' },
    /** Builds to compare, interleaved (each a dist/src/cli/bin.js, then node flags after spaces; default this checkout's). */
    bins: { type: 'string' },
    /** Rounds of the load table (each round runs every build in turn). */
    rounds: { type: 'string', default: '1' },
    /** Only the load table (no overload, hostile requests or RSS rows). */
    'load-only': { type: 'boolean', default: false },
    /**
     * Issue texts of the load rows: `repeated` (the problem statements in turn: the same request
     * comes back, an answer cache answers it), `unique` (each made distinct by a last line) and/or
     * `rev` (distinct, each naming the mirror's HEAD commit as `rev`: the commit is checked at
     * every request, and no answer is cached).
     */
    texts: { type: 'string', default: 'repeated' },
    /** Distinct requests sent to each server before its rows (JIT warm-up). */
    'warm-requests': { type: 'string', default: '200' },
    /** A folder for a `--cpu-prof` of each server started. */
    'cpu-prof': { type: 'string' },
  },
});

const ownBin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist/src/cli/bin.js');
const MAX_REQUESTS = 100_000;
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
/** CPU milliseconds (user + system) a process has used (its threads included), or a thread (`PID/task/TID`). */
const cpuMs = (pid: number | string) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
};
/** CPU milliseconds of each thread of a process, by thread id. */
const threadCpuMs = (pid: number) => {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(Number(tid), cpuMs(`${pid}/task/${tid}`));
    } catch { /* a thread that ended */ }
  }
  return out;
};
/**
 * Per-request CPU of a server's threads between two {@link threadCpuMs} reads: the HTTP thread (the
 * process's first), its `workers` busiest other threads (the worker threads, with --workers N) and the rest
 * (V8's background threads: GC, compilers; libuv's pool).
 */
const splitCpu = (pid: number, before: Map<number, number>, after: Map<number, number>, workers: number, requests: number) => {
  const delta = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  const main = delta.find((d) => d.tid === pid)?.ms ?? 0;
  const others = delta.filter((d) => d.tid !== pid).map((d) => d.ms).sort((a, b) => b - a);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { http: main / requests, worker: sum(others.slice(0, workers)) / requests, background: sum(others.slice(workers)) / requests };
};
const rssMiB = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
};

/** A started server: its URL, process and a stop that waits for exit 0. */
async function startServer(repos: string[], extra: string[], bin = ownBin): Promise<{ url: string; child: ChildProcess; stop: () => Promise<number | null> }> {
  const prof = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', args['cpu-prof']] : [];
  // a build given as `PATH --node-flag …`: the flags go to node
  const [binPath, ...nodeFlags] = bin.split(' ');
  const argv = [...prof, ...nodeFlags, binPath, 'serve', '--port', '0', ...repos.flatMap((r) => ['--repo', `${r.replace(/\W+/g, '-')}=${mirrorRepo(r)}`]), ...extra];
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

/**
 * `requests` requests from `clients` concurrent clients (one keep-alive connection each); with
 * `unique` each text made distinct; with `rev` each request names that base commit.
 */
async function load(url: string, repository: string, texts: string[], clients: number, requests: number, unique = false, rev?: string): Promise<Load> {
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
      const body = JSON.stringify({ repository, issue: unique ? `${texts[k % texts.length]}\n\n(load request ${k} ${Math.random()})` : texts[k % texts.length], ...(rev ? { rev } : {}) });
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

/** A 100 MB body, an option as rev, a path as name, a client gone mid-request: what each got. */
async function hostileRequests(url: string, repository: string): Promise<string[]> {
  const pool = new Pool(url, { connections: 2 });
  const out: string[] = [];
  const ask = async (what: string, body: string | Readable) => {
    const t0 = performance.now();
    try {
      const res = await pool.request({ path: '/v1/localize', method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await res.body.text();
      out.push(`${what}: ${res.statusCode} in ${(performance.now() - t0).toFixed(0)} ms (${text.slice(0, 60)})`);
    } catch (e) {
      out.push(`${what}: connection closed by the server after ${(performance.now() - t0).toFixed(0)} ms (${(e as Error).message})`);
    }
  };
  const chunk = Buffer.alloc(1 << 20, 0x61);
  await ask('100 MB body', Readable.from((function* () {
    yield Buffer.from(`{"repository":"${repository}","issue":"`);
    for (let i = 0; i < 100; i++) yield chunk;
    yield Buffer.from('"}');
  })()));
  await ask('rev --output=/tmp/issueloc-bench-x', JSON.stringify({ repository, rev: '--output=/tmp/issueloc-bench-x', issue: 'parse' }));
  await ask('repository ../sympy', JSON.stringify({ repository: `../${repository}`, issue: 'parse' }));
  const gone = new AbortController();
  const pending = pool.request({ path: '/v1/localize', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ repository, issue: 'matrix determinant' }), signal: gone.signal }).catch(() => undefined);
  gone.abort();
  await pending;
  await ask('after a client gone mid-request', JSON.stringify({ repository, issue: 'matrix determinant' }));
  out.push(`/tmp/issueloc-bench-x ${existsSync('/tmp/issueloc-bench-x') ? 'WRITTEN' : 'not written'}`);
  await pool.close();
  return out;
}

async function main() {
  const requests = Math.min(MAX_REQUESTS, Number(args.requests));
  const unknownKind = args.texts!.split(',').find((k) => !['repeated', 'unique', 'rev', 'branch'].includes(k));
  if (unknownKind !== undefined) throw new Error(`--texts ${unknownKind}: one of repeated, unique, rev, branch`);
  const repoName = args.mirror!.replace(/\+/g, '/');
  const texts = readFileSync(dataFile('swebench-lite/swebench_lite.jsonl'), 'utf8').split('\n').filter(Boolean)
    .map((l) => JSON.parse(l) as { repo: string; problem_statement: string })
    .filter((i) => i.repo === repoName).map((i) => i.problem_statement);
  if (texts.length === 0) throw new Error(`no SWE-bench Lite issue of ${repoName}`);
  const repository = args.mirror!.replace(/\W+/g, '-');
  // the commit the servers' default revision names (their HEAD): what --texts rev asks for by SHA
  const head = execFileSync('git', ['--git-dir', mirrorRepo(args.mirror!), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const branch = execFileSync('git', ['--git-dir', mirrorRepo(args.mirror!), 'symbolic-ref', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const revOf = (kind: string) => (kind === 'rev' ? head : kind === 'branch' ? branch : undefined);
  process.stdout.write(`${repoName}: ${texts.length} SWE-bench Lite problem statements, ${requests} requests per row\n\n`);
  const bins = args.bins ? args.bins.split(',').map((b) => resolve(b)) : [ownBin];
  bins.forEach((b, i) => process.stdout.write(`build ${i}: ${b}\n`));
  process.stdout.write('| build | round | workers | texts | clients | p50 ms | p99 ms | req/s | errors | server CPU ms/req | of it: HTTP / worker / other threads | RSS MiB | load avg |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n');
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const workers of args.workers!.split(',').map(Number)) {
      for (const [b, bin] of bins.entries()) {
        const server = await startServer([args.mirror!], ['--workers', String(workers)], bin);
        try {
          // the JIT warmed by queries (repeated texts would be answered from the answer cache)
          await load(server.url, repository, texts, 4, Math.min(MAX_REQUESTS, Number(args['warm-requests'])), true);
          for (const kind of args.texts!.split(',')) for (const clients of args.clients!.split(',').map(Number)) {
            // repeated: each text asked once before, so the row measures requests asked again
            if (kind === 'repeated') await load(server.url, repository, texts, 4, texts.length);
            const pid = server.child.pid!;
            const c0 = cpuMs(pid);
            const t0 = threadCpuMs(pid);
            const r = await load(server.url, repository, texts, clients, requests, kind !== 'repeated', revOf(kind));
            const cpu = (cpuMs(pid) - c0) / requests;
            const threads = splitCpu(pid, t0, threadCpuMs(pid), workers, requests);
            const loadAvg = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
            process.stdout.write(`| ${b} | ${round} | ${workers} | ${kind} | ${clients} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.rps.toFixed(0)} | ${r.errors} | ${cpu.toFixed(2)} | ${threads.http.toFixed(2)} / ${threads.worker.toFixed(2)} / ${threads.background.toFixed(2)} | ${rssMiB(pid).rss} | ${loadAvg} |\n`);
          }
        } finally {
          const code = await server.stop();
          if (code !== 0) process.stdout.write(`server exited ${code}\n`);
        }
      }
    }
  }
  if (args['load-only']) return;

  const oc = Number(args['overload-clients']);
  const bound = args['overload-concurrency']!;
  const workers = args.workers!.split(',').map(Number).at(-1)!;
  const server = await startServer([args.mirror!], ['--workers', String(workers), '--concurrency', bound]);
  try {
    await load(server.url, repository, texts, 4, 200, true);
    // distinct requests: each one a query (an answer cache would answer repeated ones at once)
    const r = await load(server.url, repository, texts, oc, requests, true);
    process.stdout.write(`\noverload: ${oc} clients, --concurrency ${bound}, --workers ${workers}: ${JSON.stringify(r.statuses)}; ` +
      `p99 of admitted ${r.okP99.toFixed(1)} ms, of all ${r.p99.toFixed(1)} ms; ${r.rps.toFixed(0)} answers/s; server ${server.child.exitCode === null ? 'alive' : 'dead'}\n`);
  } finally {
    await server.stop();
  }

  const hostile = await startServer([args.mirror!], ['--workers', String(workers)]);
  try {
    process.stdout.write(`\nhostile requests: ${(await hostileRequests(hostile.url, repository)).join('; ')}; server ${hostile.child.exitCode === null ? 'alive' : 'dead'}, RSS ${rssMiB(hostile.child.pid!).rss} MiB\n`);
  } finally {
    await hostile.stop();
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
