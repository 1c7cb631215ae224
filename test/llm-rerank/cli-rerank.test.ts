// `issueloc localize` with --embedder and --rerank against the local fake OpenAI server, and with
// the tiny ONNX model folder (test/embed/tiny-model.ts); a tiny git repository built here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';
import { writeTinyModel } from '../embed/tiny-model.js';
import { checkLocalizerOptions } from '../../src/pipeline/check-options.js';
import { execInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
const run = promisify(execFile);
let fake: FakeOpenAI, root: string, work: string;

before(async () => {
  fake = await startFakeOpenAI();
  root = tempDir('issueloc-cli-rerank-');
  work = join(root, 'repo');
  const files: Record<string, string> = {};
  // f001 … f030: every function mentions "parser", so BM25F ranks them all; the fake reranker
  // prefers lower numbers.
  for (let i = 1; i <= 30; i++) {
    const n = String(i).padStart(3, '0');
    files[`pkg/mod${n}.py`] = `def f${n}(text):\n    # parser json ${'json '.repeat(i % 7)}\n    return text\n`;
  }
  commitFiles(work, files);
});
after(async () => {
  await fake.close();
  cleanup(root);
});

const localizeArgs = (extra: string[]) => ['localize', '--repo', work, '--issue', 'the json parser breaks', '--json', '--no-progress', '--cache-dir', join(root, 'cache'), ...extra];
/** `issueloc localize …` run by the executable. */
const localize = (extra: string[]) => run(process.execPath, [...BASELINE_WASM_ARGS, bin, ...localizeArgs(extra)]);
/** The same through the CLI's main in the file's worker thread, for the runs whose process is not under test (refusals). */
const localizeIn = (extra: string[]) => execInProcess(localizeArgs(extra));

test('localize --embedder openai: --rerank openai: reranks the top K and reports calls and tokens', async () => {
  fake.requests.length = 0;
  const { stdout, stderr } = await localize(['--embedder', `openai:${fake.url}#hash-16`, '--rerank', `openai:${fake.url}#ranker`, '--rerank-top', '30', '--top', '5']);
  const out = JSON.parse(stdout);
  assert.deepEqual(out.functions.map((f: { id: string }) => f.id.split(':')[1]), ['f001', 'f002', 'f003', 'f004', 'f005']);
  assert.equal(out.files[0].id, 'pkg/mod001.py');
  assert.equal(out.rerank.calls, 5, 'K=30, window 10, stride 5: windows [20,30) [15,25) [10,20) [5,15) [0,10)');
  assert.ok(out.rerank.inputTokens > 0);
  assert.match(stderr, /reranked: 5 LLM calls \(0 cached\)/);
  assert.ok(fake.requests.some((r) => r.path === '/v1/embeddings'));
  // Again: vectors and answers come from the caches.
  fake.requests.length = 0;
  const again = JSON.parse((await localizeIn(['--embedder', `openai:${fake.url}#hash-16`, '--rerank', `openai:${fake.url}#ranker`, '--rerank-top', '30', '--top', '5'])).stdout);
  assert.equal(fake.requests.filter((r) => r.path === '/v1/chat/completions').length, 0);
  assert.equal(again.rerank.cachedCalls, 5);
  assert.deepEqual(again.functions, out.functions);
});

test('localize: reranker endpoint down → retriever order with a warning, exit 0', async () => {
  const { stdout, stderr } = await localizeIn(['--rerank', 'openai:http://127.0.0.1:1/v1#ranker', '--rerank-top', '10', '--rerank-timeout', '2', '--rerank-retries', '1']);
  const out = JSON.parse(stdout);
  assert.ok(out.functions.length > 0);
  assert.match(stderr, /retry 1 in 500 ms: /);
  assert.match(stderr, /reranking stopped, keeping the retriever's order from rank 10 up: .*failed after 2 tries/);
  assert.equal(out.rerank.calls, 0);
});

test('localize --embedder onnx:<folder> runs the local model; bad specs exit 2 with one line', async () => {
  const model = writeTinyModel(join(root, 'tiny'));
  // The model runs in the executable (onnxruntime's native module); the refusals in-process.
  const [ok, ...bad] = await Promise.allSettled([
    localize(['--embedder', `onnx:${model}`, '--fusion', 'rrf']),
    localizeIn(['--embedder', 'onnx:' + join(root, 'no-model')]),
    localizeIn(['--rerank', 'http://x']),
    localizeIn(['--rerank', `openai:${fake.url}#r`, '--rerank-stride', '20']),
  ]);
  assert.equal(ok.status, 'fulfilled');
  assert.ok(JSON.parse((ok as PromiseFulfilledResult<{ stdout: string }>).value.stdout).functions.length > 0);
  const errs = bad.map((r) => (r as PromiseRejectedResult).reason as { code: number; stderr: string });
  assert.ok(errs.every((e) => e.code === 2), errs.map((e) => e.stderr).join(''));
  assert.match(errs[0].stderr, /^issueloc: model folder not found: .*no-model\n$/);
  assert.match(errs[1].stderr, /--rerank: cannot read 'http:\/\/x'/);
  assert.match(errs[2].stderr, /--rerank-stride \(20\) must not exceed --rerank-window \(10\)/);
});

test('--rerank-context: prompts fitted to it (counted by vLLM\'s /tokenize); refused without --rerank or out of range, exit 2 with one line', async () => {
  fake.vllm = { maxModelLen: 100_000 };
  fake.chatPromptTokens.length = 0;
  try {
    const longIssue = `the json parser breaks\n${'when the input holds nested arrays of json objects '.repeat(60)}`;
    const { stderr } = await execInProcess(['localize', '--repo', work, '--issue', longIssue, '--json', '--no-progress', '--cache-dir', join(root, 'cache'),
      '--rerank', `openai:${fake.url}#ranker`, '--rerank-top', '10', '--rerank-mode', 'permutation', '--rerank-context', '900']);
    assert.doesNotMatch(stderr, /warning/);
    assert.equal(fake.chatPromptTokens.length, 1);
    assert.ok(fake.chatPromptTokens[0] + 58 <= 900 && fake.chatPromptTokens[0] > 700, `${fake.chatPromptTokens[0]} prompt tokens`);
  } finally {
    fake.vllm = undefined;
  }
  const bad = await Promise.allSettled([
    localizeIn(['--rerank-context', '4096']),
    localizeIn(['--rerank', `openai:${fake.url}#r`, '--rerank-context', '100']),
    localizeIn(['--rerank', `openai:${fake.url}#r`, '--rerank-context', 'lots']),
  ]);
  const errs = bad.map((r) => (r as PromiseRejectedResult).reason as { code: number; stderr: string });
  assert.ok(errs.every((e) => e.code === 2 && e.stderr.trim().split('\n').length === 1), errs.map((e) => e.stderr).join(''));
  assert.match(errs[0].stderr, /^issueloc: --rerank-context sets up LLM reranking: give --rerank too\n$/);
  assert.match(errs[1].stderr, /^issueloc: --rerank-context .*256/);
  assert.match(errs[2].stderr, /^issueloc: --rerank-context .*lots/);
  assert.throws(() => checkLocalizerOptions({ repo: '.', rerank: { contextTokens: 1.5 } }), /^IssuelocError: rerank\.contextTokens /);
});
