// Every pair of stages `issueloc localize` can be given is a chain (lexical → dense → model →
// rerank) or a one-line refusal (exit 2), never a stage silently left out; against the local fake
// OpenAI server (embeddings and chat) and a tiny repository built here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { startFakeOpenAI, type FakeOpenAI } from '../llm-rerank/fake-openai.js';
import { execInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
const run = promisify(execFile);
let fake: FakeOpenAI, root: string, work: string;

before(async () => {
  fake = await startFakeOpenAI();
  root = tempDir('issueloc-chain-pairs-');
  work = join(root, 'repo');
  const files: Record<string, string> = {};
  // f001 … f030 all mention the words; the fake reranker puts lower numbers first, and
  // the retrievers put f029 (most "json") near the top.
  for (let i = 1; i <= 30; i++) {
    const n = String(i).padStart(3, '0');
    files[`pkg/mod${n}.py`] = `def f${n}(text):\n    # parser json ${'json '.repeat(i % 30)}\n    return text\n`;
  }
  commitFiles(work, files);
});
after(async () => {
  await fake.close();
  cleanup(root);
});

interface Out { stages: string[]; functions: { id: string }[]; rerank?: { calls: number; cachedCalls: number } }

/** LLM calls of a run, answered by the endpoint or from the response cache. */
const llmCalls = (o: Out) => (o.rerank ? o.rerank.calls + o.rerank.cachedCalls : 0);
type Run = { ok: true; out: Out; stderr: string } | { ok: false; code: number; stderr: string };

/**
 * `issueloc localize …` with `extra`: through the CLI's main in the file's worker thread (the
 * chain a command line sets up is under test here, not the process), or by the executable (`exe`).
 */
async function localize(extra: string[], exe = false): Promise<Run> {
  const args = ['localize', '--repo', work, '--issue', 'the json parser breaks', '--json', '--no-progress', '--cache-dir', join(root, 'cache'), ...extra];
  try {
    const { stdout, stderr } = await (exe ? run(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args]) : execInProcess(args));
    return { ok: true, out: JSON.parse(stdout) as Out, stderr };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { ok: false, code: err.code, stderr: err.stderr };
  }
}

const dense = () => ['--embedder', `openai:${fake.url}#hash-16`];
const rerank = () => ['--rerank', `openai:${fake.url}#ranker`, '--rerank-top', '10'];
const model = ['--model', 'default'];
const none = ['--model', 'none'];

function stagesOf(r: Run): string[] {
  assert.ok(r.ok, r.ok ? '' : `exit ${r.code}: ${r.stderr}`);
  return r.out.stages;
}

test('each stage alone and every pair that is a chain runs as that chain, in order', async () => {
  const [plain, lexical, d, m, r, lr, dr, mr, dmr, k1] = await Promise.all([
    localize([], true), localize(none), localize(dense()), localize(model), localize(rerank()), localize([...none, ...rerank()]),
    localize([...dense(), ...rerank()]), localize([...model, ...rerank()]), localize([...dense(), ...model, ...rerank()]),
    localize(['--k1', '1.5']),
  ]);
  // with no stage named, the built-in model; ranking options or an embedder set up a chain without it
  assert.deepEqual(stagesOf(plain), ['lexical', 'model']);
  assert.deepEqual(stagesOf(lexical), ['lexical']);
  assert.deepEqual(stagesOf(k1), ['lexical']);
  assert.deepEqual(stagesOf(d), ['lexical', 'dense']);
  assert.deepEqual(stagesOf(m), ['lexical', 'model']);
  assert.deepEqual(stagesOf(r), ['lexical', 'model', 'rerank']);
  assert.deepEqual(stagesOf(lr), ['lexical', 'rerank']);
  assert.deepEqual(stagesOf(dr), ['lexical', 'dense', 'rerank']);
  assert.deepEqual(stagesOf(mr), ['lexical', 'model', 'rerank']);
  // the reranker reorders what the model ranked: its top 10 in the fake model's order (lower number first)
  if (!mr.ok || !m.ok || !lr.ok) return;
  assert.ok(llmCalls(mr.out) > 0, 'the LLM was called after the model');
  const top10 = m.out.functions.slice(0, 10).map((f) => f.id).sort();
  assert.deepEqual(mr.out.functions.slice(0, 10).map((f) => f.id), top10, 'the model\'s top 10, reordered by the reranker');
  assert.notDeepEqual(mr.out.functions.map((f) => f.id), m.out.functions.map((f) => f.id));
  assert.equal(llmCalls(lr.out), 1);
  // a learned model cannot follow dense fusion: refused, whatever comes after
  assert.equal(dmr.ok, false);
});

test('combinations that are no chain are refused with one line naming the options, exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [[...dense(), ...model], /^issueloc: a learned model \(--model\) ranks the lexical candidates it was trained on: it cannot follow dense fusion \(--embedder\); use one of them\n$/],
    [[...model, '--k1', '1.5', '--no-signals'], /^issueloc: a learned model \(--model\) brings the lexical settings .*\(--no-signals, --k1\)|\(--k1, --no-signals\)/],
    [['--fusion', 'dense'], /^issueloc: --fusion sets up dense retrieval: give --embedder too\n$/],
    [['--embedder', 'none', '--query-prefix', 'q: '], /--query-prefix sets up dense retrieval: give --embedder too/],
    [['--rerank-top', '5', '--rerank-mode', 'permutation'], /^issueloc: --rerank-top, --rerank-mode set up LLM reranking: give --rerank too\n$/],
    [[...model, '--deadline', '5'], /^issueloc: --deadline concerns the embedding or reranking endpoint: give --embedder or --rerank too\n$/],
    [['--api-key-env', 'MY_KEY'], /--api-key-env concerns the embedding or reranking endpoint/],
  ];
  const runs = await Promise.all(cases.map(([args]) => localize(args)));
  runs.forEach((r, i) => {
    assert.equal(r.ok, false, `${cases[i][0].join(' ')} was not refused`);
    if (r.ok) return;
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, cases[i][1]);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });
});

test('stage settings given with their stage are taken (no refusal)', async () => {
  const [a, b] = await Promise.all([
    localize([...dense(), '--fusion', 'dense', '--deadline', '30']),
    localize([...model, ...rerank(), '--rerank-mode', 'permutation', '--rerank-window', '5', '--rerank-stride', '5']),
  ]);
  assert.deepEqual(stagesOf(a), ['lexical', 'dense']);
  assert.deepEqual(stagesOf(b), ['lexical', 'model', 'rerank']);
  if (b.ok) assert.equal(llmCalls(b.out), 2, 'K=10, window 5, stride 5: two windows');
});
