// The swerankllm preset's prompts (SweRank's layout) fitted by the context machinery: the
// tokenizer's cut with the preset's limits, and the context from rerank.contextTokens, the
// server, or the preset's 32 768 tokens, in that order.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOpenAI, fakeTokens, type FakeOpenAI } from './fake-openai.js';
import { OpenAIChatModel } from '../../src/llm-rerank/openai-chat.js';
import type { ChatModel, ChatRequest } from '../../src/llm-rerank/chat-model.js';
import { ListwiseReranker, ANSWER_MARGIN } from '../../src/llm-rerank/listwise.js';
import { presetListwise, RERANK_PRESETS } from '../../src/llm-rerank/presets.js';
import { fitWindowPrompt, SWERANK_SYSTEM, type RerankCandidate } from '../../src/llm-rerank/prompt.js';
import { estimatePromptTokens, type TokenCounter } from '../../src/llm-rerank/token-counter.js';

let fake: FakeOpenAI;
before(async () => { fake = await startFakeOpenAI(); });
after(async () => { await fake.close(); });

const swerank = presetListwise(RERANK_PRESETS.swerankllm, {}, 'rerank.mode');
const pad = (n: number) => String(n).padStart(3, '0');
/** `k` methods C.f<k> … C.f001 of `lines` lines each. */
const methods = (k: number, lines: number): RerankCandidate[] => Array.from({ length: k }, (_, i) => {
  const name = `f${pad(k - i)}`;
  const body = Array.from({ length: lines }, (_, j) => `        v_${j} = self.items[${j}] + compute_${name}(${j})`).join('\n');
  return { id: `pkg/m.py:C.${name}`, path: 'pkg/m.py', qualifiedName: `C.${name}`, code: `    def ${name}(self):\n${body}` };
});
/** An issue of about `tokens` estimated tokens, its start and end marked. */
const longIssue = (tokens: number) => `ISSUE-START ${'the parser drops the last item '.repeat(Math.ceil(tokens * 4 / 31))}ISSUE-END`;

const counter: TokenCounter = {
  exact: true,
  count: async (text) => fakeTokens(text),
  prompt: async (messages) => messages.reduce((n, m) => n + fakeTokens(m.content) + 4, 3),
};

/** The issue as the prompt's head and its "GitHub Issue:" line give it. */
function issueCopies(user: string): [string, string] {
  const head = /faults causing the GitHub issue: ([\s\S]*?)\.\n\n\[1\] /.exec(user)?.[1];
  const tail = /\nGitHub Issue: ([\s\S]*?)\. \nRank the /.exec(user)?.[1];
  assert.ok(head !== undefined && tail !== undefined, 'both copies of the issue');
  return [head, tail];
}

test('fitWindowPrompt, swerank layout: within the budget by the tokenizer, the issue cut alike in both copies, each corpus document at most 1 024 tokens', async () => {
  const cands = methods(10, 90);
  const budget = { ...swerank.budget, maxPromptTokens: 6000 };
  const { messages, promptTokens } = await fitWindowPrompt(longIssue(3000), cands, 'permutation', 'numeric', budget, 'swerank', counter);
  assert.equal(messages[0].content, SWERANK_SYSTEM);
  const user = messages[1].content;
  assert.ok(promptTokens <= 6000 && promptTokens > 5500, `${promptTokens} tokens`);
  const [head, tail] = issueCopies(user);
  assert.equal(head, tail);
  assert.match(head, /^ISSUE-START .*\n… \(cut\)$/s);
  // (6000 − 10 × 300) / 2 = 1500 tokens of issue at most
  assert.ok(fakeTokens(head) <= 1500 && fakeTokens(head) > 1400, `issue of ${fakeTokens(head)} tokens`);
  for (let i = 1; i <= 10; i++) assert.match(user, new RegExp(`\\n\\[${i}\\] pkg/m\\.py/C/f\\d{3}\\nclass C:    def f`), `document ${i}`);
  assert.doesNotMatch(user, /self\.items\[\d/, 'bracketed numbers in code are written (N)');

  // The preset's own budget: the issue of 3 000 tokens whole (twice), each document cut at 1 024 tokens.
  const full = await fitWindowPrompt(longIssue(3000), cands, 'permutation', 'numeric', swerank.budget, 'swerank', counter);
  const [whole] = issueCopies(full.messages[1].content);
  assert.equal(whole, longIssue(3000));
  const docs = full.messages[1].content.split(/\n\[\d+\] /).slice(1);
  assert.equal(docs.length, 10);
  for (const d of docs) {
    const text = d.replace(/\nGitHub Issue: [\s\S]*$/, '');
    assert.ok(fakeTokens(text) <= 1024 + 2 && fakeTokens(text) > 900, `document of ${fakeTokens(text)} tokens`);
    assert.match(text, /… \(cut\)\n?$/);
  }
});

test('swerankllm against vLLM (max_model_len 8192, /tokenize): every prompt fits with its answer, in SweRank\'s layout', async () => {
  fake.requests.length = 0;
  fake.chatPromptTokens.length = 0;
  fake.vllm = { maxModelLen: 8192 };
  fake.logprobs = false;
  try {
    const model = new OpenAIChatModel({ url: fake.url, model: 'SweRankLLM-Small', retries: 0, timeoutMs: 5000 });
    const warnings: string[] = [];
    const r = new ListwiseReranker(model, { ...swerank, top: 15, onWarning: (m) => warnings.push(m) });
    const { stats } = await r.rerank(longIssue(3000), methods(15, 60));
    assert.equal(fake.requests.length, stats.windows, 'none refused');
    assert.doesNotMatch(warnings.join('\n'), /too long|read only/);
    for (const [i, req] of fake.requests.entries()) {
      const messages = req.body.messages as { role: string; content: string }[];
      assert.equal(messages[0].content, SWERANK_SYSTEM);
      issueCopies(messages[1].content);
      assert.ok(fake.chatPromptTokens[i] + Number(req.body.max_tokens) <= 8192, `request ${i}: ${fake.chatPromptTokens[i]} tokens`);
      assert.ok(fake.chatPromptTokens[i] > 7000, `request ${i} uses the context: ${fake.chatPromptTokens[i]} tokens`);
    }
  } finally {
    fake.vllm = undefined;
    fake.logprobs = true;
  }
});

/** A model without a tokenizer that records its requests; `context` is what it reports. */
function recorder(context?: number): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    id: 'rec', requests,
    complete: async (req) => { requests.push(req); return { text: '[1] > [2]', inputTokens: 0, outputTokens: 0 }; },
    ...(context !== undefined ? { contextTokens: async () => context } : {}),
  };
}

test('swerankllm without a tokenizer: fitted to rerank.contextTokens, else the server\'s context, else the preset\'s 32 768', async () => {
  const issue = longIssue(10_000);
  const cands = methods(10, 60);
  const sent = async (model: ChatModel & { requests: ChatRequest[] }, contextTokens?: number) => {
    await new ListwiseReranker(model, { ...swerank, contextTokens }).rerank(issue, cands);
    assert.equal(model.requests.length, 1);
    assert.equal(model.requests[0].layout, 'swerank');
    const messages = model.requests[0].messages;
    return { tokens: estimatePromptTokens(messages), issue: issueCopies(messages[1].content)[0], maxTokens: model.requests[0].maxTokens };
  };
  // The preset's context: 70 % of 32 768 less the answer (estimated), the 10 000-token issue cut.
  const byPreset = await sent(recorder());
  assert.ok(byPreset.tokens + byPreset.maxTokens + ANSWER_MARGIN <= 32_768 * 0.7 + 32, `${byPreset.tokens} tokens`);
  assert.ok(byPreset.tokens > 32_768 * 0.65, `${byPreset.tokens} tokens: the context is used`);
  assert.match(byPreset.issue, /\n… \(cut\)$/);
  // A server's smaller context wins over the preset's.
  const byServer = await sent(recorder(8192));
  assert.ok(byServer.tokens <= 8192 * 0.7 && byServer.tokens > 8192 * 0.6, `${byServer.tokens} tokens`);
  // rerank.contextTokens wins over both: a large context keeps the issue whole, within the preset's 32 704-token prompt.
  const byUser = await sent(recorder(8192), 131_072);
  assert.equal(byUser.issue, issue);
  assert.ok(byUser.tokens <= 32_704 + 64, `${byUser.tokens} tokens`);
});
