/**
 * `issueloc serve` under hostile HTTP callers (issue 31): a real server on 127.0.0.1 and a real
 * HTTP client. A rebinding page's Host is refused on every route (no token set); no answer names
 * a server path; every route that does work (`/mcp` and its JSON-RPC batches included) is under the
 * one admission bound, and a build no request waits for any more is cancelled; `/web/preview` on large files answers within `--timeout` while `/healthz`
 * stays quick; after SIGTERM `/healthz` answers 503 `draining` while a request in flight finishes,
 * and an idle keep-alive connection gets an answer or a clean close.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { bigRepo, BIG_ISSUE, shopRepo, SHOP_ISSUE, workTree } from '../fixtures.js';
import { wrong, type Probe, type ProbeContext } from '../probe.js';
import { mcpCall, MCP_HEADERS, send, startServe, type Served } from '../serve.js';

/** Admission bound of the admission probe's server. */
const CONCURRENCY = 4;
/** Calls the admission probe sends at once. */
const CALLS = 24;
/** `--timeout` (seconds) of the preview probe's server. */
const PREVIEW_TIMEOUT_S = 3;

/** The full SHA of a fixture's HEAD. */
const headOf = (repo: string) => execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();

/** Stops a server (SIGTERM, then SIGKILL past 10 s). */
async function stop(s: Served): Promise<void> {
  s.child.kill('SIGTERM');
  const t = setTimeout(() => s.kill(), 10_000);
  await s.exited;
  clearTimeout(t);
}

async function hostCheck(ctx: ProbeContext): Promise<void> {
  const repo = await shopRepo(ctx.shared);
  const s = await startServe(ctx, ['--repo', `shop=${repo}`, '--no-warm', '--workers', '0', '--cache-dir', join(ctx.dir(), 'cache')]);
  try {
    const evil = `rebind.example:${s.port}`;
    const routes: [string, string, unknown?, Record<string, string>?][] = [
      ['GET', '/v1/repos'],
      ['POST', '/v1/localize', { repository: 'shop', issue: 'x' }],
      ['POST', '/mcp', mcpCall(1, 'list_repositories', {}), { ...MCP_HEADERS, origin: `http://${evil}` }],
      ['POST', '/web/preview', { repository: 'shop', commit: '0'.repeat(40), items: [] }],
      ['POST', '/web/issue', { raw: 'x' }],
      ['GET', '/metrics'],
    ];
    for (const [method, path, body, headers] of routes) {
      await ctx.attempt(`${method} ${path} Host: ${evil}`, async () => {
        const a = await send(s.port, method, path, { body, headers: { ...headers, host: evil } });
        return a.status === 403 || a.status === 421 ? undefined : wrong(undefined, `${method} ${path} with Host ${evil}: ${a.status} (expected 403): ${a.body.slice(0, 120)}`);
      });
    }
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`]) {
      await ctx.attempt(`GET /v1/repos Host: ${host}`, async () => {
        const a = await send(s.port, 'GET', '/v1/repos', { headers: { host } });
        return a.status === 200 ? undefined : wrong(undefined, `GET /v1/repos with Host ${host}: ${a.status} (expected 200)`);
      });
    }
  } finally {
    await stop(s);
  }
}

async function noServerPaths(ctx: ProbeContext): Promise<void> {
  const repo = await shopRepo(ctx.shared);
  const work = ctx.dir('cwd');
  const cacheFile = join(ctx.dir('cache'), 'not-a-folder');
  writeFileSync(cacheFile, 'a file where the cache folder should be\n');
  const s = await startServe(ctx, ['--repo', `shop=${repo}`, '--no-warm', '--workers', '0', '--cache-dir', cacheFile], work);
  const secrets = [repo, cacheFile, work, ctx.home];
  try {
    const commit = headOf(repo);
    const cases: [string, string, string, unknown][] = [
      ['localize, cache folder a file', 'POST', '/v1/localize', { repository: 'shop', issue: SHOP_ISSUE }],
      ['localize, unknown revision', 'POST', '/v1/localize', { repository: 'shop', rev: 'no-such-branch', issue: SHOP_ISSUE }],
      ['preview, unknown commit', 'POST', '/web/preview', { repository: 'shop', commit: 'f'.repeat(40), items: [{ id: 'a.js' }] }],
      ['preview, path out of the repository', 'POST', '/web/preview', { repository: 'shop', commit, items: [{ id: '../../outside.py' }, { id: '/etc/passwd' }] }],
      ['mcp localize, cache folder a file', 'POST', '/mcp', mcpCall(1, 'localize', { issue: SHOP_ISSUE })],
    ];
    for (const [label, method, path, body] of cases) {
      await ctx.attempt(label, async () => {
        const a = await send(s.port, method, path, { body, headers: path === '/mcp' ? MCP_HEADERS : {} });
        const leaked = secrets.filter((p) => a.body.includes(p));
        if (leaked.length > 0) return wrong(undefined, `${method} ${path} (${label}): ${a.status} names ${leaked.join(', ')}: ${a.body.slice(0, 200)}`);
        return undefined;
      });
    }
  } finally {
    await stop(s);
  }
}

async function admission(ctx: ProbeContext): Promise<void> {
  const repo = await bigRepo(ctx.shared);
  // no index yet: every call waits on the first build, so all are in flight at once
  const s = await startServe(ctx, ['--repo', `big=${repo}`, '--no-warm', '--workers', '1', '--concurrency', String(CONCURRENCY), '--timeout', '60', '--cache-dir', join(ctx.dir(), 'cache')]);
  try {
    await ctx.attempt(`${CALLS} MCP calls at once, --concurrency ${CONCURRENCY}`, async () => {
      const answers = await Promise.all(Array.from({ length: CALLS }, (_, i) =>
        send(s.port, 'POST', '/mcp', { body: mcpCall(i, 'localize', { issue: BIG_ISSUE }), headers: MCP_HEADERS, timeoutMs: 120_000 })));
      const admitted = answers.filter((a) => a.status !== 429).length;
      return admitted <= CONCURRENCY ? undefined : wrong(undefined, `${admitted} of ${CALLS} admitted (bound ${CONCURRENCY})`);
    });
    await ctx.attempt(`a JSON-RPC batch of ${CALLS} calls, --concurrency ${CONCURRENCY}`, async () => {
      const batch = Array.from({ length: CALLS }, (_, i) => mcpCall(i, 'localize', { issue: `${BIG_ISSUE} ${i}` }));
      const a = await send(s.port, 'POST', '/mcp', { body: batch, headers: MCP_HEADERS, timeoutMs: 120_000 });
      if (a.status === 429) return undefined;
      const answered = (JSON.parse(a.body) as { result?: { isError?: boolean } }[]).filter((r) => r.result && !r.result.isError).length;
      return answered <= CONCURRENCY ? undefined : wrong(undefined, `${answered} of the batch's ${CALLS} calls run (bound ${CONCURRENCY})`);
    });
  } finally {
    await stop(s);
  }
}

/** A repository of many small files: its index takes seconds to build, longer than `--timeout 1`. */
function manyFilesRepo(ctx: ProbeContext): Promise<string> {
  return ctx.shared.memo('repo:many-files', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6000; i++) {
      files[`pkg_${i % 60}/module_${i}.py`] = `def parse_record_${i}(text):\n    return text.split(",")  # ${BIG_ISSUE}\n\n\nclass Reader${i}:\n    def read_stream_${i}(self, stream):\n        return parse_record_${i}(stream.read())\n`;
    }
    return workTree(join(ctx.shared.dir('many-files'), 'repo'), files);
  });
}

/** CPU seconds a process has used (Linux /proc; undefined elsewhere). */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
}

async function buildCancel(ctx: ProbeContext): Promise<void> {
  const repo = await manyFilesRepo(ctx);
  const cache = join(ctx.dir(), 'cache');
  const s = await startServe(ctx, ['--repo', `many=${repo}`, '--no-warm', '--workers', '1', '--timeout', '1', '--cache-dir', cache]);
  try {
    await ctx.attempt('one /v1/localize past --timeout 1 on a build of 6,000 files, then no caller', async () => {
      const a = await send(s.port, 'POST', '/v1/localize', { body: { repository: 'many', issue: BIG_ISSUE }, timeoutMs: 60_000 });
      if (a.status === 200) return undefined; // built within a second: nothing to cancel on this machine
      if (a.status !== 503 && a.status !== 504) return wrong(undefined, `first request: ${a.status} (expected 503 or 504): ${a.body.slice(0, 120)}`);
      await new Promise((r) => setTimeout(r, 5_000)); // the build stops at its next file
      const before = cpuSeconds(s.child.pid!);
      await new Promise((r) => setTimeout(r, 3_000));
      const after = cpuSeconds(s.child.pid!);
      const burnt = before !== undefined && after !== undefined ? after - before : 0;
      const indexDir = join(cache, 'index');
      const written = existsSync(indexDir) ? readdirSync(indexDir).filter((f) => f.endsWith('.bin')) : [];
      const metrics = (await send(s.port, 'GET', '/metrics')).body;
      const cancelled = /^issueloc_index_builds_cancelled_total (\d+)/m.exec(metrics)?.[1] ?? 'absent';
      if (burnt > 1 || written.length > 0) {
        return wrong(undefined, `5 s after the last caller's ${a.status}: ${burnt.toFixed(1)} s of CPU in the next 3 s, ${written.length} index files written (builds cancelled: ${cancelled})`);
      }
      return undefined;
    });
  } finally {
    await stop(s);
  }
}

/** A repository of files just under the index's 1 MiB file limit, each of thousands of small functions. */
function largeFilesRepo(ctx: ProbeContext): Promise<{ dir: string; ids: string[] }> {
  return ctx.shared.memo('repo:large-files', () => {
    const files: Record<string, string> = {};
    const ids: string[] = [];
    for (let f = 0; f < 6; f++) {
      const parts: string[] = [];
      let bytes = 0;
      for (let k = 0; bytes < 1000_000; k++) {
        const fn = `def handler_${f}_${k}(request, payload):\n    value = request.payload.get("key_${k}") or payload\n    return value\n\n`;
        parts.push(fn);
        bytes += fn.length;
        if (k % 200 === 0) ids.push(`big_${f}.py:handler_${f}_${k}`);
      }
      files[`big_${f}.py`] = parts.join('');
    }
    return { dir: workTree(join(ctx.shared.dir('large-files'), 'repo'), files), ids };
  });
}

async function previewBounds(ctx: ProbeContext): Promise<void> {
  const { dir, ids } = await largeFilesRepo(ctx);
  const s = await startServe(ctx, ['--repo', `large=${dir}`, '--no-warm', '--workers', '0', '--timeout', String(PREVIEW_TIMEOUT_S), '--cache-dir', join(ctx.dir(), 'cache')]);
  try {
    const commit = headOf(dir);
    await ctx.attempt(`preview of ${Math.min(ids.length, 300)} items in 6 files of ~1 MB, --timeout ${PREVIEW_TIMEOUT_S}`, async () => {
      const items = ids.slice(0, 300).map((id) => ({ id, lines: true, terms: ['payload', 'request'] }));
      const bound = (PREVIEW_TIMEOUT_S + 5) * 1000;
      const preview = send(s.port, 'POST', '/web/preview', { body: { repository: 'large', commit, items }, timeoutMs: bound * 4 });
      await new Promise((r) => setTimeout(r, 300));
      const health = await send(s.port, 'GET', '/healthz', { timeoutMs: bound * 4 });
      const p = await preview;
      const failures: string[] = [];
      if (p.ms > bound) failures.push(`/web/preview answered ${p.status} after ${(p.ms / 1000).toFixed(1)} s (--timeout ${PREVIEW_TIMEOUT_S} s)`);
      if (health.ms > PREVIEW_TIMEOUT_S * 1000) failures.push(`/healthz took ${(health.ms / 1000).toFixed(1)} s meanwhile`);
      if (![200, 413, 504].includes(p.status)) failures.push(`/web/preview: ${p.status}: ${p.body.slice(0, 120)}`);
      return failures.length > 0 ? wrong(undefined, failures.join('; ')) : undefined;
    });
  } finally {
    await stop(s);
  }
}

/** Sends a request on an idle keep-alive socket (after one answered request); how it ended. */
class IdleConnection {
  private data = '';
  private ended = '';
  private readonly socket;
  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (d) => { this.data += d; });
    this.socket.on('end', () => { this.ended ||= 'closed'; });
    this.socket.on('error', (e: NodeJS.ErrnoException) => { this.ended = e.code ?? e.message; });
  }
  get(path: string): void {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  }
  /** Waits until `n` answers came or the connection ended (at most `ms`). */
  async settle(n: number, ms: number): Promise<{ answers: string[]; ended: string }> {
    const t0 = Date.now();
    while (Date.now() - t0 < ms && !this.ended && this.answers().length < n) await new Promise((r) => setTimeout(r, 20));
    return { answers: this.answers(), ended: this.ended };
  }
  private answers(): string[] {
    return [...this.data.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((m) => m[1]);
  }
  close(): void { this.socket.destroy(); }
}

async function drain(ctx: ProbeContext): Promise<void> {
  const repo = await bigRepo(ctx.shared);
  const s = await startServe(ctx, ['--repo', `big=${repo}`, '--no-warm', '--workers', '1', '--timeout', '60', '--cache-dir', join(ctx.dir(), 'cache')]);
  const idle = new IdleConnection(s.port);
  try {
    await ctx.attempt('SIGTERM with a request in flight and an idle keep-alive connection', async () => {
      idle.get('/healthz');
      if ((await idle.settle(1, 10_000)).answers.length !== 1) return wrong(undefined, 'no first answer on the keep-alive connection');
      // an index build: the request is in flight for a while
      const inFlight = send(s.port, 'POST', '/v1/localize', { body: { repository: 'big', issue: BIG_ISSUE }, timeoutMs: 90_000 });
      for (let t0 = Date.now(); ;) {
        const h = JSON.parse((await send(s.port, 'GET', '/healthz')).body) as { inFlight: number };
        if (h.inFlight >= 1) break;
        if (Date.now() - t0 > 20_000) return wrong(undefined, 'the localize request never showed in flight');
        await new Promise((r) => setTimeout(r, 5));
      }
      s.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 100));
      const failures: string[] = [];
      let health: string;
      try {
        const h = await send(s.port, 'GET', '/healthz', { timeoutMs: 10_000 });
        health = `${h.status} ${(JSON.parse(h.body) as { status: string }).status}`;
      } catch (e) {
        health = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      }
      // the idle connection is used while the request is still in flight (a write racing the close
      // of an idle connection at the very end may be reset: HTTP clients retry those)
      idle.get('/healthz');
      const after = await idle.settle(2, 10_000);
      const finished = (await inFlight.then((a) => a.status, (e: Error) => e.message));
      if (health !== '503 draining') failures.push(`/healthz after SIGTERM: ${health} (expected 503 draining)`);
      if (after.answers.length < 2 && after.ended !== 'closed') failures.push(`the idle keep-alive connection: ${after.ended || 'no answer, not closed'}`);
      if (finished !== 200) failures.push(`the request in flight: ${finished}`);
      const code = await s.exited;
      if (code !== 0) failures.push(`serve exited ${code}`);
      return failures.length > 0 ? wrong(undefined, failures.join('; ')) : undefined;
    });
  } finally {
    idle.close();
    s.kill();
  }
}

function probe(name: string, quick: boolean, expect: string, run: (ctx: ProbeContext) => Promise<void>): Probe {
  return { area: 'service', name, quick, expect, run };
}

export const serviceProbes: Probe[] = [
  probe('host-check', true, 'with no token, a request whose Host is not the listening address (DNS rebinding) gets 403 on every route; 127.0.0.1 and localhost are served', hostCheck),
  probe('no-server-paths', true, 'error answers (localize, preview, MCP) name no repository path, cache path, working folder or home', noServerPaths),
  probe('admission', false, `${CALLS} MCP calls at once or one JSON-RPC batch of ${CALLS} against --concurrency ${CONCURRENCY}: at most ${CONCURRENCY} admitted, the rest 429`, admission),
  probe('build-cancel', false, 'a build of 6,000 files whose only caller had its 503/504 at --timeout 1 is cancelled: 5 s later, under 1 s of CPU in 3 s and no index file written', buildCancel),
  probe('preview-bounds', false, `/web/preview of 300 items in six ~1 MB files answers within --timeout ${PREVIEW_TIMEOUT_S} s (+5 s), /healthz meanwhile within ${PREVIEW_TIMEOUT_S} s`, previewBounds),
  probe('drain', false, 'after SIGTERM /healthz answers 503 draining while the request in flight finishes (200); an idle keep-alive connection gets an answer or a clean close; exit 0', drain),
];
