// `--rerank swerankllm:…` (SweRank's own inference protocol) and the generic preset against an
// independent server that speaks the RankGPT/SweRank numeric permutation protocol
// (test/llm-rerank/fake-rankgpt.ts, written from the protocol, not from our prompt code).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { numberedPassages, preferredPermutation, startFakeRankGpt, type FakeRankGpt } from './fake-rankgpt.js';
import { openLocalizer } from '../../src/index.js';
import { OpenAIChatModel } from '../../src/llm-rerank/openai-chat.js';
import { execInProcess, runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
const run = promisify(execFile);
let fake: FakeRankGpt, root: string, work: string;

// f001 … f030 all mention "json parser"; BM25F ranks f021 (the one holding the server's marker
// word "needle") low, so only a reranker that reads the server's answer lifts it to rank 1.
before(async () => {
  fake = await startFakeRankGpt('needle');
  root = tempDir('issueloc-swerank-');
  work = join(root, 'repo');
  const files: Record<string, string> = {};
  for (let i = 1; i <= 30; i++) {
    const n = String(i).padStart(3, '0');
    const marker = i === 21 ? '    needle = text\n' : '';
    files[`pkg/mod${n}.py`] = `def f${n}(text):\n    # parser json ${'json '.repeat(i % 7)}\n${marker}    return text\n`;
  }
  commitFiles(work, files);
});
after(async () => {
  await fake.close();
  cleanup(root);
});

const localizeArgs = (extra: string[], cache: string) => ['localize', '--repo', work, '--issue', 'the json parser breaks', '--json', '--no-progress', '--cache-dir', join(root, cache), '--top', '30', ...extra];
/** `issueloc localize …` run by the executable (the first reranked run of the file). */
const localizeExe = (extra: string[], cache = 'cache') => run(process.execPath, [...BASELINE_WASM_ARGS, bin, ...localizeArgs(extra, cache)]);
/** The same through the CLI's main in the file's worker thread: the process is not under test in these runs. */
const localize = (extra: string[], cache = 'cache') => execInProcess(localizeArgs(extra, cache));
const names = (out: { functions: { id: string }[] }) => out.functions.map((f) => f.id.split(':')[1]);
/** The chat requests the fake got (not the `/tokenize` probe, which it answers 404). */
const chats = () => fake.requests.filter((r) => r.path === '/v1/chat/completions');

test('the fake reads passages by their [N] markers and answers the whole permutation, preferred first', () => {
  const msg = 'Rank these.\n[1] def a():\n    x[2] = 1\n[2] def needle():\n[3] def c():\nRank the 3 passages above.';
  assert.deepEqual(numberedPassages(msg), ['def a():\n    x[2] = 1', 'def needle():', 'def c():\nRank the 3 passages above.']);
  assert.equal(preferredPermutation(numberedPassages(msg), 'needle'), '[2] > [1] > [3]');
  assert.equal(preferredPermutation(numberedPassages('[A] a\n[B] b'), 'needle'), '[1]');
});

test('--rerank swerankllm:openai: SweRank\'s protocol moves the server\'s preferred function to rank 1', async () => {
  const lexical = names(JSON.parse((await localize([])).stdout));
  assert.ok(lexical.indexOf('f021') >= 10, `BM25F ranks f021 low (${lexical.indexOf('f021') + 1})`);
  fake.requests.length = 0;
  const { stdout, stderr } = await localizeExe(['--rerank', `swerankllm:openai:${fake.url}#SweRankLLM-Small`]);
  const out = JSON.parse(stdout);
  assert.equal(names(out)[0], 'f021', stderr);
  assert.equal(out.files[0].id, 'pkg/mod021.py');
  assert.doesNotMatch(stderr, /warning/, 'no mode switch, no unreadable answer');
  // 30 candidates, window 10, stride 5: 5 windows, each one request in generation mode.
  assert.equal(out.rerank.calls, 5);
  assert.equal(out.rerank.fallbackWindows, 0);
  const body = chats()[0].body;
  assert.equal(body.logprobs, undefined);
  assert.equal(body.top_logprobs, undefined);
  const messages = body.messages as { role: string; content: string }[];
  assert.deepEqual(messages.map((m) => m.role), ['system', 'user']);
  assert.match(messages[0].content, /^You are CodeRanker, an intelligent code reviewer/);
  assert.match(messages[1].content, /^I will provide you with 10 code functions, each indicated by a numerical identifier \[\]\. Rank the code functions based on their relevance to contain the faults causing the GitHub issue: the json parser breaks\.\n\n\[1\] pkg\/mod/);
  assert.match(messages[1].content, /GitHub Issue: the json parser breaks\. \nRank the 10 code functions above .* e\.g\., \[2\] > \[1\]\. Only respond with the ranking results, do not say any word or explain\.$/);
});

test('generic preset (plain openai:) against the same permutation-only server: first-token switches to permutation, the preferred function reaches rank 1', async () => {
  fake.requests.length = 0;
  const { stdout, stderr } = await localize(['--rerank', `openai:${fake.url}#SweRankLLM-Small`], 'cache-generic');
  const out = JSON.parse(stdout);
  assert.equal(names(out)[0], 'f021', stderr);
  assert.match(stderr, /gave no log-probabilities; switching to permutation mode/);
  assert.equal(chats()[0].body.logprobs, true, 'the generic preset asks for the first token first');
  assert.equal(out.rerank.fallbackWindows, 0);
  // `generic:` names the same preset.
  const again = JSON.parse((await localize(['--rerank', `generic:openai:${fake.url}#SweRankLLM-Small`], 'cache-generic')).stdout);
  assert.deepEqual(again.functions, out.functions);
});

test('answers cached for one prompt layout are never reused for another', async () => {
  const spec = `openai:${fake.url}#shared-name`;
  const first = JSON.parse((await localize(['--rerank', `swerankllm:${spec}`], 'cache-layouts')).stdout);
  assert.equal(first.rerank.cachedCalls, 0);
  const generic = JSON.parse((await localize(['--rerank', spec, '--rerank-mode', 'permutation'], 'cache-layouts')).stdout);
  assert.equal(generic.rerank.cachedCalls, 0, 'the generic layout asks the model itself');
  assert.ok(generic.rerank.calls >= 5);
  const second = JSON.parse((await localize(['--rerank', `swerankllm:${spec}`], 'cache-layouts')).stdout);
  assert.equal(second.rerank.calls, 0);
  assert.equal(second.rerank.cachedCalls, 5);
});

test('bad presets and settings the preset cannot take exit 2 with one line', async () => {
  const results = await Promise.allSettled([
    localize(['--rerank', `swerank:openai:${fake.url}#m`]),
    localize(['--rerank', `swerankllm:openai:${fake.url}#m`, '--rerank-mode', 'first-token']),
    localize(['--rerank', 'swerankllm:onnx:/x']),
  ]);
  const errs = results.map((r) => (r as PromiseRejectedResult).reason as { code: number; stderr: string });
  assert.ok(errs.every((e) => e?.code === 2), errs.map((e) => e?.stderr).join(''));
  assert.match(errs[0].stderr, /^issueloc: --rerank: unknown preset 'swerank' \(presets: generic, swerankllm;/);
  assert.equal(errs[0].stderr.split('\n').length, 2);
  assert.match(errs[1].stderr, /^issueloc: --rerank-mode first-token: the swerankllm preset .*permutation/);
  assert.match(errs[2].stderr, /--rerank: cannot read 'swerankllm:onnx:\/x'/);
});

test('library: reranker \'swerankllm:openai:…\' or a chat model object with rerank.preset', async () => {
  for (const [i, options] of [
    { reranker: `swerankllm:openai:${fake.url}#SweRankLLM-Small` },
    { reranker: new OpenAIChatModel({ url: fake.url, model: 'SweRankLLM-Small' }), rerank: { preset: 'swerankllm' as const } },
    // Settings left undefined are the preset's (they were NaN windows: a reranking that never ended).
    { reranker: `swerankllm:openai:${fake.url}#SweRankLLM-Small`, rerank: { top: undefined, window: undefined, stride: undefined, mode: undefined } },
  ].entries()) {
    const warnings: string[] = [];
    const localizer = await openLocalizer({ repo: work, cacheDir: join(root, `lib-cache-${i}`), onWarning: (m) => warnings.push(m), ...options });
    try {
      fake.requests.length = 0;
      const result = await localizer.localize('the json parser breaks', { top: 30 });
      assert.equal(result.functions[0].id.split(':')[1], 'f021');
      assert.deepEqual(warnings, []);
      assert.equal(chats()[0].body.logprobs, undefined);
      assert.match((chats()[0].body.messages as { content: string }[])[0].content, /^You are CodeRanker/);
    } finally {
      await localizer.close();
    }
  }
  await assert.rejects(openLocalizer({ repo: work, reranker: `openai:${fake.url}#m`, rerank: { preset: 'nope' as never } }), /rerank\.preset must be one of generic, swerankllm/);
});

test('--rerank swerankllm:… --rerank-context: prompts fitted to the context given, else the preset\'s 32 768 tokens', async () => {
  const issue = `the json parser breaks ${'when the input holds nested arrays '.repeat(700)}END-OF-ISSUE`; // ~6 000 tokens
  const userOf = (i: number) => (chats()[i].body.messages as { content: string }[])[1].content;
  fake.requests.length = 0;
  const contextArgs = ['localize', '--repo', work, '--issue', issue, '--json', '--no-progress', '--cache-dir', join(root, 'cache-context'), '--top', '30',
    '--rerank', `swerankllm:openai:${fake.url}#SweRankLLM-Small`];
  assert.equal((await runInProcess(contextArgs)).code, 0);
  assert.equal(userOf(0).split('END-OF-ISSUE').length, 3, 'in 32 768 tokens the whole issue, twice');
  fake.requests.length = 0;
  const limited = await runInProcess([...contextArgs, '--rerank-context', '4096']);
  assert.equal(limited.code, 0, limited.err);
  assert.equal(JSON.parse(limited.out).rerank.calls, 5);
  assert.equal(chats().length, 5);
  for (let i = 0; i < chats().length; i++) {
    assert.doesNotMatch(userOf(i), /END-OF-ISSUE/, 'the issue cut');
    assert.ok(userOf(i).length / 4 < 4096 * 0.7, `request ${i}: ${userOf(i).length} characters`);
    assert.match(userOf(i), /^I will provide you with 10 code functions/);
  }
});
