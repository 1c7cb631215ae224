// The listwise reranker against a local OpenAI-compatible server (test/rerank/fake-openai.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAI, byFunctionNumber, type FakeOpenAI } from './fake-openai.js';
import { OpenAIChatModel } from '../../src/llm-rerank/openai-chat.js';
import { CachedChatModel } from '../../src/llm-rerank/response-cache.js';
import { ListwiseReranker, type ListwiseOptions } from '../../src/llm-rerank/listwise.js';
import type { RerankCandidate } from '../../src/llm-rerank/prompt.js';
import { HttpRequestError, postJson } from '../../src/util/http-json.js';
import { createServer } from 'node:net';
import { loadBound } from '../util/load-bound.js';

/** A port nothing listens on (bound, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

let fake: FakeOpenAI;
before(async () => { fake = await startFakeOpenAI(); });
after(async () => { await fake.close(); });

const pad = (n: number) => String(n).padStart(3, '0');
/** Candidates f100 … f001: the retriever's order is the reverse of the true one. */
const reversed = (k: number): RerankCandidate[] =>
  Array.from({ length: k }, (_, i) => ({ id: `m.py:f${pad(k - i)}`, path: 'm.py', qualifiedName: `f${pad(k - i)}`, code: `def f${pad(k - i)}(): pass` }));

function reranker(opts: Partial<ListwiseOptions> = {}, warnings: string[] = [], retry = { retries: 2, backoffMs: 5, timeoutMs: 2000 }) {
  fake.requests.length = 0;
  fake.script.length = 0;
  fake.relevance = byFunctionNumber;
  fake.logprobs = true;
  fake.thinking = false;
  fake.maxLogprobs = undefined;
  fake.logprobsRefusal = undefined;
  fake.vllm = undefined;
  fake.ollamaContext = undefined;
  fake.tokenizeCalls = 0;
  fake.chatPromptTokens.length = 0;
  fake.readPrompts.length = 0;
  const model = new OpenAIChatModel({ url: fake.url, model: 'ranker', ...retry });
  return new ListwiseReranker(model, { onWarning: (m) => warnings.push(m), ...opts });
}

test('first-token mode: protocol, 19 windows bottom to top, top 5 of 100 come out in true order', async () => {
  const r = reranker({ mode: 'first-token' });
  const { ranking, stats } = await r.rerank('fix f001', reversed(100));
  assert.equal(fake.requests.length, 19);
  const body = fake.requests[0].body;
  assert.equal(fake.requests[0].path, '/v1/chat/completions');
  assert.equal(body.model, 'ranker');
  assert.equal(body.max_tokens, 1);
  assert.equal(body.temperature, 0);
  assert.equal(body.logprobs, true);
  assert.equal(body.top_logprobs, 20);
  // The first window is the bottom one: retriever ranks 91..100 = f010..f001.
  const firstPrompt = (body.messages as { content: string }[])[1].content;
  assert.match(firstPrompt, /^\[A\] m\.py — f010$/m);
  assert.match(firstPrompt, /^\[J\] m\.py — f001$/m);
  assert.doesNotMatch(firstPrompt, /f011/);
  const lastPrompt = (fake.requests[18].body.messages as { content: string }[])[1].content;
  assert.match(lastPrompt, /f100/, 'the last window holds the retriever\'s top');
  // One bottom-up pass carries the best window − stride = 5 candidates to the top, in order.
  assert.deepEqual(ranking.slice(0, 5).map((c) => c.qualifiedName), ['f001', 'f002', 'f003', 'f004', 'f005']);
  assert.equal(ranking.length, 100);
  assert.equal(new Set(ranking.map((c) => c.id)).size, 100, 'a permutation: no candidate lost or doubled');
  assert.equal(stats.calls, 19);
  assert.equal(stats.windows, 19);
  assert.equal(stats.fallbackWindows, 0);
  assert.ok(stats.inputTokens > 19 * 20 && stats.outputTokens === 19);
});

test('first-token mode orders a window by the log-probabilities of the identifiers', async () => {
  const r = reranker({ mode: 'first-token', top: 4, window: 4, stride: 2 });
  // A: −2.0, B: −0.1, C: absent, D: −0.7 → B, D, A, then C (not named) in retriever order.
  fake.script.push({ reply: 'B', logprobs: [{ token: 'B', logprob: -0.1 }, { token: ' D', logprob: -0.7 }, { token: 'A', logprob: -2 }, { token: 'Hello', logprob: -0.3 }] });
  const { ranking } = await r.rerank('x', reversed(4));
  assert.deepEqual(ranking.map((c) => c.qualifiedName), ['f003', 'f001', 'f004', 'f002']);
});

test('permutation mode: K=100 window 10 stride 5 gives the same top 5; text is parsed', async () => {
  const r = reranker({ mode: 'permutation' });
  const { ranking, stats } = await r.rerank('fix', reversed(100));
  assert.equal(fake.requests[0].body.logprobs, undefined);
  assert.ok(Number(fake.requests[0].body.max_tokens) >= 10 * 4);
  const firstPrompt = (fake.requests[0].body.messages as { content: string }[])[1].content;
  assert.match(firstPrompt, /^\[1\] m\.py — f010$/m);
  assert.match(firstPrompt, /^\[10\] m\.py — f001$/m);
  assert.deepEqual(ranking.slice(0, 5).map((c) => c.qualifiedName), ['f001', 'f002', 'f003', 'f004', 'f005']);
  assert.equal(stats.calls, 19);
});

test('bad replies never crash and never lose candidates: unknown, repeated, missing, none', async () => {
  const warnings: string[] = [];
  const r = reranker({ mode: 'permutation', top: 5, window: 5, stride: 5 }, warnings);
  fake.script.push({ reply: '[4] > [4] > [17] > [2]' });
  let { ranking } = await r.rerank('x', reversed(5));
  // retriever order f005 f004 f003 f002 f001; named [4]=f002, [2]=f004; rest keep order
  assert.deepEqual(ranking.map((c) => c.qualifiedName), ['f002', 'f004', 'f005', 'f003', 'f001']);
  fake.script.push({ reply: 'Sorry, as an AI I cannot rank code.' });
  const res = await r.rerank('x', reversed(5));
  ranking = res.ranking;
  assert.deepEqual(ranking.map((c) => c.qualifiedName), ['f005', 'f004', 'f003', 'f002', 'f001'], 'unchanged');
  assert.equal(res.stats.fallbackWindows, 1);
  assert.ok(warnings.some((w) => /names no candidate/.test(w)), warnings.join('\n'));
});

test('first-token mode: an answer without logprobs switches to permutation mode and asks that window again, with a warning', async () => {
  const warnings: string[] = [];
  const r = reranker({ mode: 'first-token', top: 3, window: 3, stride: 3 }, warnings);
  fake.script.push({ reply: 'C', logprobs: null });
  const { ranking, stats } = await r.rerank('x', reversed(3));
  assert.deepEqual(ranking.map((c) => c.qualifiedName), ['f001', 'f002', 'f003'], 'the whole order, not only the best');
  assert.equal(fake.requests.length, 2);
  assert.equal(fake.requests[1].body.logprobs, undefined);
  assert.equal(stats.calls, 2);
  assert.equal(r.mode, 'permutation');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /gave no log-probabilities; switching to permutation mode/);
});

/** Reranks two issues of 100 reversed candidates; the top 5 of each must come out in the true order. */
async function twoIssues(r: ListwiseReranker) {
  for (const issue of ['fix f001', 'fix f001 again']) {
    const { ranking, stats } = await r.rerank(issue, reversed(100));
    assert.deepEqual(ranking.slice(0, 5).map((c) => c.qualifiedName), ['f001', 'f002', 'f003', 'f004', 'f005'], issue);
    assert.equal(stats.fallbackWindows, 0, issue);
    assert.equal(new Set(ranking.map((c) => c.id)).size, 100);
  }
}

test('a server without logprobs (Ollama): first-token mode switches to permutation for the rest of the issue and later issues', async () => {
  const warnings: string[] = [];
  const r = reranker({ mode: 'first-token' }, warnings);
  fake.logprobs = false;
  await twoIssues(r);
  const asked = fake.requests.filter((q) => q.body.logprobs === true);
  assert.equal(asked.length, 1, 'only the first request asks for logprobs');
  assert.equal(fake.requests.length, 1 + 19 + 19, 'the first window is asked again');
  const later = (fake.requests[1].body.messages as { content: string }[])[1].content;
  assert.match(later, /^\[10\] m\.py — f001$/m, 'permutation mode uses numeric identifiers');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /^first-token reranking does not work with openai:.*#ranker: it gave no log-probabilities; switching to permutation mode/);
});

test('a thinking model (first token <think>, with logprobs): switches to permutation and reads the answer after the think block', async () => {
  const warnings: string[] = [];
  const r = reranker({ mode: 'first-token' }, warnings);
  fake.thinking = true;
  await twoIssues(r);
  assert.equal(fake.requests.filter((q) => q.body.logprobs === true).length, 1);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /its first token names no candidate \('<think>'\); switching to permutation mode/);
});

test('a thinking model without logprobs (Ollama): permutation answers are read after the think block', async () => {
  const warnings: string[] = [];
  const r = reranker({ mode: 'first-token' }, warnings);
  fake.thinking = true;
  fake.logprobs = false;
  await twoIssues(r);
  assert.equal(warnings.length, 1, warnings.join('\n'));
});

test('vLLM with a lower --max-logprobs: the 400 is retried once with the limit it states, for this issue and later ones', async () => {
  const warnings: string[] = [];
  const r = reranker({ mode: 'first-token' }, warnings);
  fake.maxLogprobs = 5;
  await twoIssues(r);
  assert.equal(fake.requests[0].body.top_logprobs, 20);
  assert.ok(fake.requests.slice(1).every((q) => q.body.top_logprobs === 5 && q.body.max_tokens === 1), 'first-token mode kept, with 5 alternatives');
  assert.equal(fake.requests.length, 1 + 19 + 19);
  assert.equal(r.mode, 'first-token');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /allows at most 5 log-probabilities per token: first-token ranking asks for 5 instead of 20 \(.*HTTP 400: .*Requested sample logprobs of 20, which is greater than max allowed: 5/);
});

test('a 400 refusing logprobs without a limit, or again with the stated limit, switches to permutation mode; reranking goes on', async () => {
  let warnings: string[] = [];
  let r = reranker({ mode: 'first-token' }, warnings);
  fake.maxLogprobs = 0;
  fake.logprobsRefusal = 'logprobs are not supported by this model';
  await twoIssues(r);
  assert.equal(fake.requests.filter((q) => q.body.logprobs === true).length, 1);
  assert.equal(r.mode, 'permutation');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /it refused the log-probabilities asked \(.*logprobs are not supported by this model.*\); switching to permutation mode/);

  warnings = [];
  r = reranker({ mode: 'first-token' }, warnings);
  fake.maxLogprobs = 3;
  fake.logprobsRefusal = 'Requested sample logprobs of 20, which is greater than max allowed: 5';
  await twoIssues(r);
  assert.deepEqual(fake.requests.slice(0, 3).map((q) => q.body.top_logprobs), [20, 5, undefined]);
  assert.equal(warnings.length, 2, warnings.join('\n'));
  assert.match(warnings[1], /switching to permutation mode/);
});

test('a 400 that is not about logprobs still stops reranking the issue (no mode switch)', async () => {
  const warnings: string[] = [];
  const r = reranker({ mode: 'first-token', top: 20 }, warnings);
  fake.script.push({ status: 400, body: '{"error":{"message":"The model `ranker` does not exist."}}' });
  const input = reversed(20);
  const { ranking } = await r.rerank('x', input);
  assert.deepEqual(ranking.map((c) => c.id), input.map((c) => c.id));
  assert.equal(fake.requests.length, 1);
  assert.equal(r.mode, 'first-token');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /reranking stopped/);
});

test('rate limits and server errors are retried with back-off, then succeed', async () => {
  const retries: string[] = [];
  const model = new OpenAIChatModel({ url: fake.url, model: 'ranker', retries: 3, backoffMs: 5, onRetry: (a, why) => retries.push(`${a}:${why}`) });
  fake.requests.length = 0;
  fake.script.push({ status: 429, retryAfter: '0' }, { status: 503 });
  const r = new ListwiseReranker(model, { mode: 'first-token', top: 3, window: 3, stride: 3 });
  const t0 = Date.now();
  const { ranking, stats } = await r.rerank('x', reversed(3));
  assert.equal(fake.requests.length, 3, 'two failures, then the answer');
  assert.deepEqual(retries.map((x) => x.split(':')[0]), ['1', '2']);
  assert.match(retries[0], /HTTP 429/);
  assert.match(retries[1], /HTTP 503/);
  assert.ok(Date.now() - t0 >= 5 + 10, 'waited 5 ms then 10 ms');
  assert.equal(ranking[0].qualifiedName, 'f001');
  assert.equal(stats.fallbackWindows, 0);
});

test('retries exhausted: the retriever order is kept from there up, with a warning, and no further calls', async () => {
  const warnings: string[] = [];
  const r = reranker({ mode: 'first-token', top: 20, window: 10, stride: 5 }, warnings, { retries: 1, backoffMs: 1, timeoutMs: 2000 });
  fake.script.push({ status: 500 }, { status: 500 });
  const input = reversed(20);
  const { ranking, stats } = await r.rerank('x', input);
  assert.equal(fake.requests.length, 2, 'one try + one retry, then the other windows are skipped');
  assert.deepEqual(ranking.map((c) => c.id), input.map((c) => c.id));
  assert.equal(stats.windows, 3);
  assert.equal(stats.fallbackWindows, 3);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /keeping the retriever's order from rank 20 up: .*failed after 2 tries \(HTTP 500/);
});

test('a client error (400) is not retried; an endpoint that is down fails with a clear message', async () => {
  fake.requests.length = 0;
  fake.script.push({ status: 400, body: '{"error":"bad model"}' });
  await assert.rejects(postJson(`${fake.url}/chat/completions`, {}, { retries: 3, backoffMs: 1 }), (e: HttpRequestError) =>
    e instanceof HttpRequestError && !e.retryable && /refused the request \(HTTP 400: \{"error":"bad model"\}\)/.test(e.message));
  assert.equal(fake.requests.length, 1);
  const port = await freePort();
  await assert.rejects(postJson(`http://127.0.0.1:${port}/v1/embeddings`, {}, { retries: 1, backoffMs: 1 }),
    new RegExp(`127\\.0\\.0\\.1:${port}/v1/embeddings failed after 2 tries \\(ECONNREFUSED\\)`));
});

test('timeouts: a request without an answer in time is abandoned and retried', async () => {
  fake.requests.length = 0;
  fake.script.push({ delayMs: 300_000 }, { delayMs: 300_000 });
  const t0 = Date.now();
  await assert.rejects(postJson(`${fake.url}/chat/completions`, { messages: [] }, { timeoutMs: 100, retries: 1, backoffMs: 1 }), /failed after 2 tries \(no answer within 100 ms\)/);
  assert.ok(Date.now() - t0 < loadBound(2 * 100 + 1), 'did not wait for the 300 s answers');
});

test('the response cache answers repeated windows without calls, and keys on the model', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-llm-cache-'));
  try {
    fake.requests.length = 0;
    const cached = new CachedChatModel(new OpenAIChatModel({ url: fake.url, model: 'ranker' }), dir);
    const r = new ListwiseReranker(cached, { mode: 'first-token', top: 30 });
    // requests of this test only: an abandoned request of an earlier test may still arrive late
    const sent = (model: string) => fake.requests.filter((q) => q.body.model === model && Array.isArray(q.body.messages) && q.body.messages.length > 0).length;
    const first = await r.rerank('issue', reversed(30));
    const calls = sent('ranker');
    assert.equal(calls, first.stats.calls);
    const second = await r.rerank('issue', reversed(30));
    assert.equal(sent('ranker'), calls, 'no new request');
    assert.equal(second.stats.calls, 0);
    assert.equal(second.stats.cachedCalls, first.stats.calls);
    assert.equal(second.stats.inputTokens, 0);
    assert.deepEqual(second.ranking.map((c) => c.id), first.ranking.map((c) => c.id));
    const other = new ListwiseReranker(new CachedChatModel(new OpenAIChatModel({ url: fake.url, model: 'other' }), dir), { mode: 'first-token', top: 30 });
    await other.rerank('issue', reversed(30));
    assert.ok(sent('other') > 0, 'another model is not served from the cache');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
