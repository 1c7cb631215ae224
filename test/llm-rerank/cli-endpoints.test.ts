// `issueloc localize` against misbehaving endpoints on 127.0.0.1: a refused port and a server
// that never answers (embedder and reranker), a huge LLM answer, and a slow embedder or
// reranker under --deadline. Every run ends within its bound with exit 0, one warning line per
// fallback and the best ranking so far (the lexical one when dense retrieval is lost).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { loadBound } from '../util/load-bound.js';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';
import { execInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
const run = promisify(execFile);
let fake: FakeOpenAI, root: string, work: string, cacheDir: string, lexical: Rankings;
/** The lexical run of before() (index built, no endpoint): the work every bound below allows 3 × for. */
let baseMs: number;

interface Rankings { files: unknown; modules: unknown; functions: { id: string }[] }
const rankings = (stdout: string): Rankings => {
  const o = JSON.parse(stdout) as Rankings;
  return { files: o.files, modules: o.modules, functions: o.functions };
};
/** The order of each level (a reranker's scores are 1/rank even where it kept the order). */
const orders = (r: Rankings) => Object.fromEntries((['files', 'modules', 'functions'] as const).map((l) => [l, (r[l] as { id: string }[]).map((x) => x.id)]));

before(async () => {
  fake = await startFakeOpenAI();
  root = tempDir('issueloc-cli-endpoints-');
  work = join(root, 'repo');
  cacheDir = join(root, 'cache');
  const files: Record<string, string> = {};
  for (let i = 1; i <= 30; i++) {
    const n = String(i).padStart(3, '0');
    files[`pkg/mod${n}.py`] = `def f${n}(text):\n    # parser json ${'json '.repeat(i % 7)}\n    return text\n`;
  }
  commitFiles(work, files);
  const base = await timed(['--model', 'none']);
  lexical = rankings(base.stdout);
  baseMs = base.ms;
});
after(async () => {
  await fake.close();
  cleanup(root);
});

const localizeArgs = (extra: string[], cache = cacheDir) => ['localize', '--repo', work, '--issue', 'the json parser breaks', '--json', '--no-progress', '--cache-dir', cache, '--top', '30', ...extra];
/** `issueloc localize …` run by the executable: the bounds below are on the process's whole run. */
function localize(extra: string[], cache = cacheDir) {
  return run(process.execPath, [...BASELINE_WASM_ARGS, bin, ...localizeArgs(extra, cache)]);
}
async function timed(extra: string[], cache?: string) {
  const t0 = Date.now();
  const r = await localize(extra, cache);
  return { ...r, ms: Date.now() - t0 };
}
/** A port nothing listens on (bound, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('issueloc: warning: '));
/** Files of the LLM response cache anywhere under `cache`. */
const llmFiles = (cache: string) => (existsSync(cache) ? readdirSync(cache, { recursive: true, encoding: 'utf8' }) : [])
  .filter((f) => /(^|\/)llm\/.+\.json$/.test(f));
// Runs share the index built in before(); each bound is the run's configured waits plus 3 × the
// lexical run of before() plus 10 s (loadBound), so it holds on a loaded machine; what the
// endpoints would cost unbounded (hangs, 300 s answers, 150 MB) is far over it.

test('embedder on a refused port: one warning, the lexical ranking, exit 0 (it was exit 2 with no ranking)', async () => {
  const port = await freePort();
  const { stdout, stderr, ms } = await timed(['--embedder', `openai:http://127.0.0.1:${port}/v1#m`]);
  assert.deepEqual(rankings(stdout), lexical);
  const lines = warnings(stderr);
  assert.match(lines.at(-1)!, new RegExp(`^issueloc: warning: dense retrieval skipped, lexical ranking only: http://127\\.0\\.0\\.1:${port}/v1/embeddings failed after 3 tries \\(ECONNREFUSED\\)$`));
  assert.equal(lines.filter((l) => /retry \d in/.test(l)).length, 2, 'the two retries are told');
  assert.ok(ms < loadBound(500 + 1000, baseMs), `${ms} ms (lexical run ${baseMs} ms)`);
});

test('embedder and reranker that accept and never answer: the whole run ends within the shrunk bounds', async () => {
  fake.script.length = 0;
  for (let i = 0; i < 10; i++) fake.script.push({ hang: true });
  const { stdout, stderr, ms } = await timed([
    '--embedder', `openai:${fake.url}#hash-16`, '--embedder-timeout', '1',
    '--rerank', `openai:${fake.url}#ranker-hang`, '--rerank-timeout', '1', '--rerank-top', '30',
  ]);
  fake.script.length = 0;
  const out = JSON.parse(stdout) as Rankings & { rerank: { calls: number; fallbackWindows: number } };
  assert.deepEqual(orders(rankings(stdout)), orders(lexical), 'the retriever\'s (lexical) order');
  assert.equal(out.rerank.calls, 0);
  assert.equal(out.rerank.fallbackWindows, 5);
  const lines = warnings(stderr);
  assert.equal(lines.length, 2, stderr);
  assert.match(lines[0], /dense retrieval skipped, lexical ranking only: .*\/v1\/embeddings failed after 1 try \(no answer within \d+ ms\); its 1 s budget leaves no time for another$/);
  assert.match(lines[1], /reranking stopped, keeping the retriever's order from rank 30 up: .*\/v1\/chat\/completions failed after 1 try \(no answer within \d+ ms\)/);
  // 1 s + 1 s for the two endpoints, plus the run (unbounded: 30 s each by default, 484 s before).
  assert.ok(ms < loadBound(2000, baseMs), `${ms} ms (lexical run ${baseMs} ms)`);
  assert.deepEqual(llmFiles(cacheDir), [], 'no answer cached');
});

test('a huge LLM answer: abandoned at the 1 MiB cap with a warning, nothing cached, exit 0', async () => {
  fake.script.length = 0;
  fake.streamed = 0;
  fake.script.push({ streamBytes: 150 * 1024 * 1024 });
  const { stdout, stderr } = await timed(['--rerank', `openai:${fake.url}#ranker-huge`, '--rerank-top', '10', '--rerank-mode', 'permutation']);
  assert.deepEqual(orders(rankings(stdout)), orders(lexical));
  assert.match(stderr, /warning: reranking stopped, keeping the retriever's order from rank 10 up: .*chat\/completions: answer exceeds the cap of 1 MiB; abandoned/);
  assert.ok(fake.streamed < 20 * 1024 * 1024, `${fake.streamed} bytes streamed`);
  assert.deepEqual(llmFiles(cacheDir), [], 'nothing cached');
});

test('--deadline with a slow embedder: the stage is abandoned at the deadline, lexical ranking, warnings, exit 0', async () => {
  fake.script.length = 0;
  fake.script.push({ delayMs: 300_000 });
  const { stdout, stderr, ms } = await timed([
    '--embedder', `openai:${fake.url}#hash-16`, '--rerank', `openai:${fake.url}#ranker-late`, '--rerank-top', '30', '--deadline', '1',
  ]);
  fake.script.length = 0;
  assert.deepEqual(orders(rankings(stdout)), orders(lexical));
  const lines = warnings(stderr);
  assert.equal(lines.length, 2, stderr);
  assert.match(lines[0], /^issueloc: warning: dense retrieval skipped, lexical ranking only: the --deadline of 1 s passed while embedding the functions with http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings \(model hash-16\)$/);
  assert.match(lines[1], /^issueloc: warning: reranking stopped, keeping the retriever's order from rank 30 up: the --deadline of 1 s passed \(reranker openai:http:\/\/127\.0\.0\.1:\d+\/v1#ranker-late\)$/);
  assert.ok(ms < loadBound(1000, baseMs), `${ms} ms (lexical run ${baseMs} ms): did not wait for the 300 s answer`);
});

test('--deadline with a slow reranker: the windows reranked in time are kept, the rest keep the retriever\'s order', async () => {
  fake.script.length = 0;
  // Window 1 answers at once, window 2 after 300 s: the 3 s deadline passes during it.
  fake.script.push({ delayMs: 0 }, { delayMs: 300_000 });
  const { stdout, stderr, ms } = await timed(['--rerank', `openai:${fake.url}#ranker-slow`, '--rerank-top', '30', '--deadline', '3']);
  fake.script.length = 0;
  const out = JSON.parse(stdout) as Rankings & { rerank: { calls: number; fallbackWindows: number; windows: number } };
  assert.equal(out.rerank.calls, 1);
  assert.equal(out.rerank.fallbackWindows, 4);
  assert.match(stderr, /warning: reranking stopped, keeping the retriever's order from rank 25 up: the --deadline of 3 s passed \(reranker openai:.*#ranker-slow\)$/m);
  assert.notDeepEqual(out.functions.map((f) => f.id), lexical.functions.map((f) => f.id), 'the first window\'s reranking is kept');
  assert.equal(new Set(out.functions.map((f) => f.id)).size, 30, 'no function lost');
  assert.ok(ms < loadBound(3000, baseMs), `${ms} ms (lexical run ${baseMs} ms): did not wait for the 300 s answer`);
});

test('bad endpoint options exit 2 with one line', async () => {
  // refused before any work: the CLI's main in the file's worker thread
  const errs = await Promise.allSettled([
    execInProcess(localizeArgs(['--deadline', '0'])),
    execInProcess(localizeArgs(['--embedder-timeout', 'soon'])),
    execInProcess(localizeArgs(['--rerank', `openai:${fake.url}#r`, '--rerank-retries', '-1'])),
    execInProcess(localizeArgs(['--embedder', 'openai:http://[bad#m'])),
  ]);
  const reasons = errs.map((r) => (r as PromiseRejectedResult).reason as { code: number; stderr: string });
  assert.deepEqual(reasons.map((r) => r.code), [2, 2, 2, 2], reasons.map((r) => r.stderr).join(''));
  assert.match(reasons[0].stderr, /^issueloc: --deadline takes a number > 0 and ≤ 86400, got '0'\n$/);
  assert.match(reasons[1].stderr, /--embedder-timeout takes a number > 0/);
  assert.match(reasons[2].stderr, /--rerank-retries takes a whole number from 0 to 100, got '-1'/);
  assert.match(reasons[3].stderr, /--embedder: 'openai:http:\/\/\[bad#m': the URL 'http:\/\/\[bad' must be a valid http:\/\/ or https:\/\/ URL/);
});
