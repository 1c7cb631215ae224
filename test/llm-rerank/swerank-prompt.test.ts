// SweRank's prompt layout (src/llm-rerank/prompt.ts, `swerank`), the preset spec syntax and the
// response cache key's layout, checked without a server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SWERANK_SYSTEM, windowPrompt, type RerankCandidate } from '../../src/llm-rerank/prompt.js';
import { presetListwise, RERANK_PRESETS, splitRerankSpec } from '../../src/llm-rerank/presets.js';
import { CachedChatModel } from '../../src/llm-rerank/response-cache.js';
import { ListwiseReranker } from '../../src/llm-rerank/listwise.js';
import type { ChatModel, ChatRequest } from '../../src/llm-rerank/chat-model.js';

const candidates: RerankCandidate[] = [
  { id: 'pkg/a.py:parse', path: 'pkg/a.py', qualifiedName: 'parse', code: 'def parse(s):\n    return s[1]' },
  { id: 'pkg/b.py:Reader.read', path: 'pkg/b.py', qualifiedName: 'Reader.read', code: '    def read(self):\n        return self.x[2]' },
];

test('swerank layout: SweRank\'s system message, the issue before and after the candidates, its corpus documents', () => {
  const [system, user, ...rest] = windowPrompt('  parse() crashes on [1]  ', candidates, 'permutation', 'numeric', RERANK_PRESETS.swerankllm.budget, 'swerank');
  assert.deepEqual(rest, []);
  assert.deepEqual(system, { role: 'system', content: SWERANK_SYSTEM });
  assert.equal(user.role, 'user');
  assert.equal(user.content,
    'I will provide you with 2 code functions, each indicated by a numerical identifier []. Rank the code functions based on their relevance to contain the faults causing the GitHub issue: parse() crashes on [1].\n' +
    '\n' +
    '[1] pkg/a.py/parse\ndef parse(s):\n    return s(1)\n' +
    '[2] pkg/b.py/Reader/read\nclass Reader:    def read(self):\n        return self.x(2)\n' +
    'GitHub Issue: parse() crashes on [1]. \nRank the 2 code functions above based on their relevance to contain the faults causing the GitHub issue. All the code functions should be included and listed using identifiers, in descending order of relevance. The output format should be [] > [], e.g., [2] > [1]. Only respond with the ranking results, do not say any word or explain.');
});

test('swerankllm budget: the issue is kept far beyond 1 024 tokens, each document is cut at 1 024', () => {
  const issue = 'word '.repeat(2000).trim(); // ~2 500 tokens at 4 characters a token
  const long = Array.from({ length: 2000 }, (_, i) => `    x_${i} = ${i}`).join('\n');
  const window = Array.from({ length: 10 }, (_, i) => ({ ...candidates[0], id: `a${i}`, code: long }));
  const user = windowPrompt(issue, window, 'permutation', 'numeric', RERANK_PRESETS.swerankllm.budget, 'swerank')[1].content;
  assert.equal(user.split(issue).length, 3, 'the whole issue, twice');
  const first = user.slice(user.indexOf('[1] '), user.indexOf('[2] '));
  assert.ok(first.length <= 1024 * 4 + 64 && first.length > 1000 * 4, `document of ${first.length} characters`);
  assert.match(first, /… \(cut\)\n$/);
  // The generic default cuts the issue at 1 024 tokens.
  const generic = windowPrompt(issue, window, 'permutation', 'numeric')[1].content;
  assert.ok(!generic.includes(issue));
});

test('--rerank values: <preset>:<backend>, plain backends, and what is left to the backend parser', () => {
  assert.deepEqual(splitRerankSpec('swerankllm:openai:http://h:8000/v1#SweRankLLM-Small'), { preset: 'swerankllm', backend: 'openai:http://h:8000/v1#SweRankLLM-Small' });
  assert.deepEqual(splitRerankSpec('swerankllm:gguf:~/m.gguf'), { preset: 'swerankllm', backend: 'gguf:~/m.gguf' });
  assert.deepEqual(splitRerankSpec('generic:gguf:m.gguf'), { preset: 'generic', backend: 'gguf:m.gguf' });
  for (const plain of ['openai:http://h/v1#m', 'gguf:swerankllm:x.gguf', 'none', 'http://x', 'swerankllm:onnx:/x']) {
    assert.deepEqual(splitRerankSpec(plain), { preset: undefined, backend: plain });
  }
  assert.throws(() => splitRerankSpec('SweRank:openai:http://h/v1#m'), /^IssuelocError: --rerank: unknown preset 'SweRank' \(presets: generic, swerankllm;/);
});

test('presets: swerankllm is permutation mode with numeric ids at 100 / 10 / 5; user settings win where allowed', () => {
  const s = presetListwise(RERANK_PRESETS.swerankllm, {}, '--rerank-mode');
  assert.deepEqual({ top: s.top, window: s.window, stride: s.stride, mode: s.mode, layout: s.layout, identifiers: s.identifiers },
    { top: 100, window: 10, stride: 5, mode: 'permutation', layout: 'swerank', identifiers: 'numeric' });
  assert.equal(presetListwise(RERANK_PRESETS.swerankllm, { top: 50, window: undefined }, 'x').top, 50);
  assert.equal(presetListwise(RERANK_PRESETS.generic, {}, 'x').mode, 'first-token');
  assert.equal(presetListwise(RERANK_PRESETS.generic, { mode: 'permutation' }, 'x').layout, 'issueloc');
  assert.throws(() => presetListwise(RERANK_PRESETS.swerankllm, { mode: 'first-token' }, 'rerank.mode'), /^IssuelocError: rerank\.mode first-token: the swerankllm preset ranks by permutation only/);
  assert.throws(() => presetListwise(RERANK_PRESETS.generic, { stride: 8, window: 4 }, 'x'), /stride \(8\) must not exceed the window \(4\)/);
});

test('response cache: the same messages under another prompt layout are another entry', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-layout-cache-'));
  try {
    let calls = 0;
    const inner: ChatModel = { id: 'fake', complete: async () => ({ text: `[${++calls}]`, inputTokens: 1, outputTokens: 1 }) };
    const cached = new CachedChatModel(inner, dir);
    const req = (layout?: string): ChatRequest => ({ messages: [{ role: 'user', content: 'same' }], maxTokens: 58, layout });
    assert.equal((await cached.complete(req('issueloc'))).text, '[1]');
    assert.equal((await cached.complete(req('swerank'))).text, '[2]');
    assert.equal((await cached.complete(req('issueloc'))).text, '[1]');
    assert.equal((await cached.complete(req('swerank'))).text, '[2]');
    assert.equal(calls, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ListwiseReranker: settings given as undefined are the defaults', () => {
  const model: ChatModel = { id: 'm', complete: async () => ({ text: '', inputTokens: 0, outputTokens: 0 }) };
  const r = new ListwiseReranker(model, { top: undefined, window: undefined, stride: undefined, mode: undefined, layout: undefined });
  assert.deepEqual([r.options.top, r.options.window, r.options.stride, r.options.mode, r.options.layout], [100, 10, 5, 'first-token', 'issueloc']);
});
