// `issueloc serve` as a child process: SIGTERM drains the request in flight and exits 0; bad
// configuration, a missing token variable and a port in use are one-line errors with exit 2.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
let root: string, repo: string;
before(() => {
  root = tempDir('issueloc-serve-cli-');
  repo = join(root, 'repo');
  const files: Record<string, string> = {};
  // enough code that indexing it takes a while: the request waiting on it is in flight at SIGTERM
  for (let i = 0; i < 60; i++) files[`pkg/m${i}.py`] = Array.from({ length: 8 }, (_, k) => `def parse_${i}_${k}(text):\n    return text.split("${k}") + [${i}]\n`).join('\n');
  commitFiles(repo, files);
  commitFiles(repo, { 'pkg/extra.py': 'def extra(text):\n    return text\n' }, 'second commit');
});
after(() => cleanup(root));

/** Runs the CLI to its end (bounded). */
function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { env, timeout: 60_000 }, (e, stdout, stderr) => done({ code: e ? Number((e as { code?: number }).code ?? 3) : 0, stdout, stderr }));
  });
}

/**
 * Polls /healthz until the request `answer` is in flight; fails (does not spin on) when it was
 * answered before a poll saw it, which leaves no request for SIGTERM to drain.
 */
async function untilInFlight(url: string, answer: Promise<Response>): Promise<void> {
  let settled = false;
  void answer.then(() => { settled = true; }, () => { settled = true; });
  for (;;) {
    const h = await (await fetch(`${url}/healthz`)).json() as { inFlight: number };
    if (h.inFlight === 1) return;
    assert.ok(!settled, 'the request was answered before /healthz saw it in flight');
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('SIGTERM: the request in flight is answered, then exit 0', async () => {
  const child = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, 'serve', '--repo', `demo=${repo}`, '--port', '0', '--no-warm', '--cache-dir', join(root, 'cache')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    const t0 = Date.now();
    while (!/http:\/\/\S+/.test(stdout)) {
      assert.ok(Date.now() - t0 < 60_000, `no address printed: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const url = /http:\/\/\S+/.exec(stdout)![0];
    const answer = fetch(`${url}/v1/localize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ repository: 'demo', issue: 'parse_3_4 splits wrong' }) });
    await untilInFlight(url, answer);
    child.kill('SIGTERM');
    const res = await answer;
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { functions: { id: string }[] }).functions[0].id, 'pkg/m3.py:parse_3_4');
    assert.equal(await exited, 0, stderr);
    assert.match(stderr, /SIGTERM: finishing 1 requests in flight/);
    await assert.rejects(fetch(`${url}/healthz`), 'no longer listening');
  } finally {
    child.kill('SIGKILL');
  }
});

test('SIGTERM after an index build (signal-exit loaded by the build lock): the request in flight is answered, then exit 0', async () => {
  const child = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, 'serve', '--repo', `demo=${repo}`, '--port', '0', '--no-warm', '--workers', '0', '--cache-dir', join(root, 'cache-built')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise<[number | null, string | null]>((r) => child.on('exit', (code, signal) => r([code, signal])));
  try {
    const t0 = Date.now();
    while (!/http:\/\/\S+/.test(stdout)) {
      assert.ok(Date.now() - t0 < 60_000, `no address printed: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const url = /http:\/\/\S+/.exec(stdout)![0];
    const localize = (rev: string) => fetch(`${url}/v1/localize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ repository: 'demo', rev, issue: 'parse_3_4 splits wrong' }) });
    assert.equal((await localize('HEAD')).status, 200, 'the first build is done');
    const answer = localize('HEAD~1');
    await untilInFlight(url, answer);
    child.kill('SIGTERM');
    const res = await answer;
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { functions: { id: string }[] }).functions[0].id, 'pkg/m3.py:parse_3_4');
    assert.deepEqual(await exited, [0, null], stderr);
  } finally {
    child.kill('SIGKILL');
  }
});

test('bad configuration, a missing token variable, a port in use: one line, exit 2', async () => {
  const bad = join(root, 'bad.json');
  writeFileSync(bad, JSON.stringify({ repositories: { demo: { path: repo, top: -1 } } }));
  const cases: [string[], RegExp][] = [
    [['serve', '--config', bad], /^issueloc: bad\.json: repositories\.demo\.top: must be a whole number from 1 to 1000\n$/],
    [['serve', '--repo', `demo=${root}/nothing`], /^issueloc: repository demo \(--repo flags\): .*nothing/],
    [['serve', '--repo', `demo=${repo}`, '--token-env', 'ISSUELOC_TEST_NO_SUCH_VAR'], /^issueloc: --token-env ISSUELOC_TEST_NO_SUCH_VAR: the variable is unset or empty\n$/],
    [['serve', '--repo', `demo=${repo}`, '--watch', '0'], /--watch/],
    [['serve'], /no repository configured/],
  ];
  // the first refusal by the executable, the others through the CLI's main in-process (runInProcess)
  for (const [i, [args, message]] of cases.entries()) {
    const r = i === 0 ? await run(args, { ...process.env, ISSUELOC_TEST_NO_SUCH_VAR: '' })
      : await runInProcess(args, { ISSUELOC_TEST_NO_SUCH_VAR: '' }).then((p) => ({ code: p.code, stderr: p.err }));
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  try {
    const port = (taken.address() as { port: number }).port;
    const r = await run(['serve', '--repo', `demo=${repo}`, '--port', String(port), '--no-warm']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`^issueloc: cannot listen on 127\\.0\\.0\\.1:${port}: EADDRINUSE\\n$`));
  } finally {
    taken.close();
  }
});
