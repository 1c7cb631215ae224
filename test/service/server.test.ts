// The HTTP server on 127.0.0.1 (a random port): each endpoint, the CLI's JSON, the limits
// (413, 429, 400 for an option-like rev with nothing written, 404 for a path as a name), the
// bearer token, one build for concurrent first requests, a client that goes away mid-request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { InProcessBackend, type ServiceBackend } from '../../src/service/backend.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig, type ServiceLimits } from '../../src/service/config.js';
import { LocalizerPool } from '../../src/service/localizer-pool.js';
import { buildServer, type Service } from '../../src/service/server.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
let root: string, repo: string, cacheDir: string;
before(() => {
  root = tempDir('issueloc-server-');
  repo = join(root, 'repo');
  cacheDir = join(root, 'cache');
  commitFiles(repo, {
    'pkg/dates.py': 'def parse_date(text):\n    """Parse an ISO date."""\n    return text.split("-")\n\nclass Calendar:\n    def next_day(self, date):\n        return parse_date(date)\n',
    'pkg/json_io.py': 'def dump_json(value):\n    return str(value)\n',
  });
});
after(() => cleanup(root));

function config(limits: Partial<ServiceLimits> = {}): ServiceConfig {
  return {
    repositories: new Map([['demo', { name: 'demo', path: repo, rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } }]]),
    models: new Map(), cacheDir, limits: { ...DEFAULT_LIMITS, ...limits }, source: 'test',
  };
}

/** A listening server and its base URL; `close` drains it and closes the backend. */
async function start(opts: { limits?: Partial<ServiceLimits>; token?: string; backend?: ServiceBackend } = {}) {
  const backend = opts.backend ?? new InProcessBackend(new LocalizerPool(config(opts.limits)));
  const service: Service = buildServer({ backend, limits: config(opts.limits).limits, token: opts.token, onInternalError: () => {} });
  const url = await service.app.listen({ host: '127.0.0.1', port: 0 });
  return { url, service, close: async () => { await service.drain(); await backend.close(); } };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) => fetch(`${url}/v1/localize`, {
  method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body),
});
const ISSUE = 'parse_date fails on an empty string\nCalendar.next_day("") raises IndexError in parse_date';

test('POST /v1/localize answers what localize --json prints', async () => {
  const s = await start();
  try {
    const res = await post(s.url, { repository: 'demo', issue: ISSUE, top: 5 });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const got = await res.json() as Record<string, unknown>;
    const { stdout } = await promisify(execFile)(process.execPath, [...BASELINE_WASM_ARGS, bin, 'localize', '--repo', repo, '--cache-dir', cacheDir, '--issue', ISSUE, '--top', '5', '--json', '--no-progress']);
    const cli = JSON.parse(stdout) as Record<string, unknown>;
    const stable = (o: Record<string, unknown>) => ({ ...o, repo: undefined, queryMillis: undefined, index: { ...(o.index as object), millis: undefined, built: undefined } });
    assert.deepEqual(Object.keys(got), Object.keys(cli));
    assert.deepEqual(stable(got), stable(cli));
    assert.equal(got.repo, 'demo', 'the repository by its name, not a path of the server');
    assert.ok((got.functions as { id: string }[]).some((f) => f.id === 'pkg/dates.py:parse_date'));

    const one = await (await post(s.url, { repository: 'demo', issue: ISSUE, level: 'file', explain: true })).json() as Record<string, unknown>;
    assert.equal(one.level, 'file');
    assert.equal('functions' in one, false);
    assert.ok(Array.isArray((one.issue as { namesInCode: string[] }).namesInCode));
  } finally {
    await s.close();
  }
});

test('GET /v1/repos, /healthz, /openapi.json and /metrics', async () => {
  const s = await start();
  try {
    await post(s.url, { repository: 'demo', issue: ISSUE });
    const repos = await (await fetch(`${s.url}/v1/repos`)).json() as { repositories: { name: string; commit: string; warm: unknown[] }[] };
    assert.equal(repos.repositories.length, 1);
    assert.equal(repos.repositories[0].name, 'demo');
    assert.match(repos.repositories[0].commit, /^[0-9a-f]{40}$/);
    assert.equal(repos.repositories[0].warm.length, 1);
    assert.equal(JSON.stringify(repos).includes(root), false, 'no filesystem path');
    assert.deepEqual(((await (await fetch(`${s.url}/healthz`)).json()) as { status: string }).status, 'ok');
    const api = await (await fetch(`${s.url}/openapi.json`)).json() as { openapi: string; paths: Record<string, unknown> };
    assert.equal(api.openapi, '3.1.0');
    assert.deepEqual(Object.keys(api.paths).sort(), ['/healthz', '/metrics', '/openapi.json', '/v1/localize', '/v1/repos']);
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    assert.match(metrics, /issueloc_http_requests_total\{route="\/v1\/localize",method="POST",status="200"\} 1/);
    assert.match(metrics, /issueloc_http_request_duration_seconds_bucket\{le="\+Inf",route="\/v1\/localize"\} 1/);
    assert.match(metrics, /issueloc_index_builds_total 1/);
    assert.match(metrics, /issueloc_index_cache_misses_total 1/);
    assert.match(metrics, /issueloc_process_resident_memory_bytes \d+/);
  } finally {
    await s.close();
  }
});

test('concurrent first requests for one commit build its index once', async () => {
  const s = await start();
  try {
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(s.url, { repository: 'demo', issue: ISSUE })));
    assert.deepEqual(answers.map((r) => r.status), Array(8).fill(200));
    const metrics = await (await fetch(`${s.url}/metrics`)).text();
    assert.match(metrics, /issueloc_index_builds_total 1\n/);
    // requests that arrive once the index is open are hits: how many do depends on timing
    const count = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(metrics)?.[1]);
    assert.ok(count('issueloc_index_cache_misses_total') >= 1, 'the first request waits for the index');
    assert.equal(count('issueloc_index_cache_misses_total') + count('issueloc_index_cache_hits_total'), 8);
  } finally {
    await s.close();
  }
});

test('bad input: a path as a name → 404; an option as rev → 400, nothing written; schema → 400; too large → 413', async () => {
  const s = await start({ limits: { maxBodyBytes: 64 << 10 } });
  try {
    for (const repository of ['../repo', repo, 'demo/../demo', '__proto__']) {
      const r = await post(s.url, { repository, issue: ISSUE });
      assert.equal(r.status, 404, repository);
      assert.match(((await r.json()) as { error: string }).error, /^unknown repository/);
    }
    const out = join(root, 'written-by-rev');
    for (const rev of [`--output=${out}`, '-h', 'HEAD~5', 'no such']) {
      const r = await post(s.url, { repository: 'demo', rev, issue: ISSUE });
      assert.equal(r.status, 400, rev);
      const { error } = (await r.json()) as { error: string };
      assert.doesNotMatch(error, /\n/);
      assert.equal(error.includes(repo), false, `no server path in ${error}`);
      assert.match(error, /repository demo|revision/);
    }
    assert.equal(existsSync(out), false);
    for (const body of ['{', '[]', { repository: 'demo' }, { repository: 'demo', issue: ISSUE, top: 0 }, { repository: 'demo', issue: ISSUE, top: '5' }, { repository: 'demo', issue: ISSUE, colour: 1 }, { repository: 'demo', issue: '!!! ???' }]) {
      const r = await post(s.url, body);
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    const big = await post(s.url, { repository: 'demo', issue: 'x '.repeat(1 << 20) });
    assert.equal(big.status, 413);
    assert.equal((await post(s.url, { repository: 'demo', issue: ISSUE })).status, 200, 'still serving');
    assert.equal((await fetch(`${s.url}/nowhere`)).status, 404);
  } finally {
    await s.close();
  }
});

test('overload: beyond the concurrency bound 429 with Retry-After; admitted requests still answered', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const inner = new InProcessBackend(new LocalizerPool(config()));
  const slow: ServiceBackend = { ...bind(inner), localize: async (req, wait) => { await gate; return inner.localize(req, wait); } };
  const s = await start({ limits: { concurrency: 2 }, backend: slow });
  try {
    const admitted = [post(s.url, { repository: 'demo', issue: ISSUE }), post(s.url, { repository: 'demo', issue: ISSUE })];
    while (s.service.inFlight() < 2) await new Promise((r) => setTimeout(r, 5));
    const refused = await post(s.url, { repository: 'demo', issue: ISSUE });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1');
    release();
    assert.deepEqual((await Promise.all(admitted)).map((r) => r.status), [200, 200]);
    assert.equal((await post(s.url, { repository: 'demo', issue: ISSUE })).status, 200);
    assert.match(await (await fetch(`${s.url}/metrics`)).text(), /status="429"\} 1/);
  } finally {
    await s.close();
  }
});

test('overload on the HTTP thread itself: the requests received are counted before a query runs', async () => {
  const s = await start({ limits: { concurrency: 2 } });
  try {
    await post(s.url, { repository: 'demo', issue: ISSUE });
    // the clients in another process: on this thread they would wait for the server's queries
    const client = `const body = JSON.stringify({ repository: 'demo', issue: 'parse_date next_day calendar '.repeat(5000) });
      const rs = await Promise.all(Array.from({ length: 12 }, () => fetch(process.argv[1] + '/v1/localize', { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.status)));
      console.log(rs.join(' '));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', client, s.url], { timeout: 60_000 });
    const statuses = stdout.trim().split(' ').map(Number);
    assert.ok(statuses.includes(429), statuses.join(' '));
    assert.ok(statuses.includes(200), statuses.join(' '));
    assert.deepEqual(statuses.filter((x) => x !== 200 && x !== 429), []);
  } finally {
    await s.close();
  }
});

test('a request past the timeout gets 504; its slot is held until its work ends', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const inner = new InProcessBackend(new LocalizerPool(config()));
  const slow: ServiceBackend = { ...bind(inner), localize: async (req, wait) => { await gate; return inner.localize(req, wait); } };
  await inner.warmDefaults();
  const s = await start({ limits: { timeoutMs: 200, concurrency: 1 }, backend: slow });
  try {
    const r = await post(s.url, { repository: 'demo', issue: ISSUE });
    assert.equal(r.status, 504);
    assert.equal((await post(s.url, { repository: 'demo', issue: ISSUE })).status, 429);
    release();
    while (s.service.inFlight() > 0) await new Promise((res) => setTimeout(res, 5));
    assert.equal((await post(s.url, { repository: 'demo', issue: ISSUE })).status, 200);
  } finally {
    await s.close();
  }
});

test('draining: the listener stays open while work is in flight, /healthz 503 draining, new work 503; closed once it ends', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const inner = new InProcessBackend(new LocalizerPool(config()));
  const slow: ServiceBackend = { ...bind(inner), localize: async (req, wait) => { await gate; return inner.localize(req, wait); } };
  const s = await start({ backend: slow });
  const inFlight = post(s.url, { repository: 'demo', issue: ISSUE });
  while (s.service.inFlight() < 1) await new Promise((r) => setTimeout(r, 5));
  const drained = s.service.drain(60_000);
  try {
    const h = await fetch(`${s.url}/healthz`);
    assert.equal(h.status, 503);
    assert.equal(((await h.json()) as { status: string }).status, 'draining');
    assert.equal(h.headers.get('connection'), 'close');
    assert.equal((await post(s.url, { repository: 'demo', issue: ISSUE })).status, 503);
    release();
    assert.equal((await inFlight).status, 200);
    await drained;
    await assert.rejects(fetch(`${s.url}/healthz`), 'no longer listening');
  } finally {
    release();
    await inner.close();
  }
});

test('bearer token: 401 without it or with a wrong one; /healthz and /openapi.json open', async () => {
  const s = await start({ token: 's3cret-token' });
  try {
    assert.equal((await post(s.url, { repository: 'demo', issue: ISSUE })).status, 401);
    const wrong = await post(s.url, { repository: 'demo', issue: ISSUE }, { authorization: 'Bearer s3cret-tokeN' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await fetch(`${s.url}/v1/repos`)).status, 401);
    assert.equal((await fetch(`${s.url}/metrics`)).status, 401);
    assert.equal((await fetch(`${s.url}/healthz`)).status, 200);
    assert.equal((await fetch(`${s.url}/openapi.json`)).status, 200);
    assert.equal((await post(s.url, { repository: 'demo', issue: ISSUE }, { authorization: 'Bearer s3cret-token' })).status, 200);
    assert.equal((await fetch(`${s.url}/v1/repos`, { headers: { authorization: 'Bearer s3cret-token' } })).status, 200);
  } finally {
    await s.close();
  }
});

test('a client that goes away mid-body or before the answer: the server goes on', async () => {
  const s = await start();
  try {
    const { port } = new URL(s.url);
    const body = JSON.stringify({ repository: 'demo', issue: ISSUE });
    const send = (text: string) => new Promise<void>((done) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(text);
        setTimeout(() => { socket.destroy(); done(); }, 20);
      });
      socket.on('error', () => done());
    });
    const head = `POST /v1/localize HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
    await send(head + body.slice(0, 10)); // half a body
    await send(head + body); // whole, gone before the answer (the first query builds the index)
    await send(head + body);
    const r = await post(s.url, { repository: 'demo', issue: ISSUE });
    assert.equal(r.status, 200);
    while (s.service.inFlight() > 0) await new Promise((res) => setTimeout(res, 5));
    assert.equal(((await (await fetch(`${s.url}/healthz`)).json()) as { status: string }).status, 'ok');
  } finally {
    await s.close();
  }
});

/** A backend's methods bound to it (to override one in a test). */
function bind(b: ServiceBackend): ServiceBackend {
  return {
    localize: b.localize.bind(b), repos: b.repos.bind(b), stats: b.stats.bind(b),
    refreshDefault: b.refreshDefault.bind(b), warmDefaults: b.warmDefaults.bind(b), close: b.close.bind(b),
  };
}

test('a body that is not JSON by its content-type (curl -d alone sends a form) → 415 saying what to send', async () => {
  const s = await start();
  try {
    const form = await fetch(`${s.url}/v1/localize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'issue=x' });
    assert.equal(form.status, 415);
    assert.equal(((await form.json()) as { error: string }).error,
      'unsupported media type (content-type "application/x-www-form-urlencoded"): send the body as JSON with content-type: application/json');
    assert.equal((await post(s.url, { repository: 'demo', issue: ISSUE })).status, 200, 'still serving');
  } finally {
    await s.close();
  }
});
