// Prompts that fit the model's context: token counts from the model's tokenizer (vLLM's
// /tokenize, node-llama-cpp's model.tokenize), room for the answer, vLLM's 400 beyond
// max_model_len, and Ollama's silent cut of the prompt's beginning (fake servers on 127.0.0.1).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOpenAI, byFunctionNumber, fakeTokens, vllmChatTooLong, type FakeOpenAI } from './fake-openai.js';
import { OpenAIChatModel, promptTooLong } from '../../src/llm-rerank/openai-chat.js';
import { LlamaCppChatModel } from '../../src/llm-rerank/llama-cpp-chat.js';
import { PromptTooLongError, type ChatModel } from '../../src/llm-rerank/chat-model.js';
import { ListwiseReranker, readCut, type ListwiseOptions } from '../../src/llm-rerank/listwise.js';
import { cutToTokens, fitWindowPrompt, waterLevel, windowPrompt, DEFAULT_PROMPT_BUDGET, type RerankCandidate } from '../../src/llm-rerank/prompt.js';
import { ESTIMATED_COUNTER, tokenCounterOf, type TokenCounter } from '../../src/llm-rerank/token-counter.js';
import { HttpRequestError } from '../../src/util/http-json.js';
import { guardedChatModel } from '../../src/pipeline/guarded-backends.js';
import { loadBound } from '../util/load-bound.js';

let fake: FakeOpenAI;
before(async () => { fake = await startFakeOpenAI(); });
after(async () => { await fake.close(); });

const ISSUE = 'ISSUE-START parse_date crashes on empty input\nparse_date("") raises IndexError; fix f001';
const pad = (n: number) => String(n).padStart(3, '0');
/** `k` candidates f<k> … f001 (the retriever's order is the reverse of the true one), each `lines` lines of code. */
const reversed = (k: number, lines: number): RerankCandidate[] => Array.from({ length: k }, (_, i) => {
  const name = `f${pad(k - i)}`;
  const body = Array.from({ length: lines }, (_, j) => `    value_${j} = compute_${name}(value_${j - 1 < 0 ? 0 : j - 1}, ${j})`).join('\n');
  return { id: `m.py:${name}`, path: 'm.py', qualifiedName: name, code: `def ${name}():\n${body}\n    return value_0` };
});

function setup(server: Partial<Pick<FakeOpenAI, 'vllm' | 'ollamaContext' | 'logprobs'>>, opts: Partial<ListwiseOptions> = {}, warnings: string[] = []) {
  fake.requests.length = 0;
  fake.script.length = 0;
  fake.relevance = byFunctionNumber;
  fake.logprobs = server.logprobs ?? true;
  fake.thinking = false;
  fake.vllm = server.vllm;
  fake.ollamaContext = server.ollamaContext;
  fake.tokenizeCalls = 0;
  fake.chatPromptTokens.length = 0;
  fake.readPrompts.length = 0;
  const model = new OpenAIChatModel({ url: fake.url, model: 'ranker', retries: 0, timeoutMs: 5000 });
  return new ListwiseReranker(model, { onWarning: (m) => warnings.push(m), ...opts });
}

const ids = (r: RerankCandidate[]) => r.map((c) => c.qualifiedName);

test('vLLM with max_model_len 2048: prompts counted by /tokenize fit the context with room for the answer; no window lost', async () => {
  const warnings: string[] = [];
  const r = setup({ vllm: { maxModelLen: 2048 } }, { top: 20, mode: 'permutation' }, warnings);
  // 20 functions of about 40 lines (~1 900 characters, ~630 fake tokens) each: a window is ~6 000 tokens uncut.
  const { ranking, stats } = await r.rerank(ISSUE, reversed(20, 40));
  assert.deepEqual(warnings, []);
  assert.equal(stats.fallbackWindows, 0);
  assert.equal(fake.requests.length, stats.windows, 'one request a window: none refused');
  assert.ok(fake.tokenizeCalls > 0);
  for (const [i, req] of fake.requests.entries()) {
    const maxTokens = Number(req.body.max_tokens);
    assert.ok(fake.chatPromptTokens[i] + maxTokens <= 2048, `request ${i}: ${fake.chatPromptTokens[i]} + ${maxTokens} tokens`);
    assert.ok(fake.chatPromptTokens[i] > 1500, `request ${i} uses the context: ${fake.chatPromptTokens[i]} tokens`);
    assert.match(fake.readPrompts[i], /ISSUE-START parse_date/);
  }
  assert.deepEqual(ids(ranking).slice(0, 3), ['f001', 'f002', 'f003']);
});

test('vLLM: a 400 "maximum context length" refits the window to the stated context and asks once more; refused again, the window keeps its order and reranking goes on', async () => {
  const warnings: string[] = [];
  const r = setup({}, { top: 15, mode: 'permutation' }, warnings);
  fake.script.push({ status: 400, body: vllmChatTooLong(1024, 1500, 58) });
  const first = await r.rerank(ISSUE, reversed(15, 20));
  assert.equal(first.stats.fallbackWindows, 0);
  assert.equal(fake.requests.length, first.stats.windows + 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /refused a prompt of \d+ tokens \(estimated\) as longer than its context: prompts are now fitted to a context of 1024 tokens/);
  // Fitted to 1024 tokens (estimated, with the 30 % margin): the fake's denser count still fits.
  for (const [i, n] of fake.chatPromptTokens.slice(1).entries()) assert.ok(n + 58 <= 1024, `request ${i + 1}: ${n} tokens`);
  // Two refusals of one window: its order is kept, with a warning; the next windows are asked.
  fake.requests.length = 0;
  fake.script.push({ status: 400, body: vllmChatTooLong(1024, 1500, 58) }, { status: 400, body: vllmChatTooLong(1024, 1400, 58) });
  const second = await r.rerank(ISSUE, reversed(15, 20));
  assert.equal(second.stats.fallbackWindows, 1);
  assert.equal(fake.requests.length, second.stats.windows + 1);
  assert.match(warnings.at(-1)!, /window at rank 6: the reranker .* refused its prompt of \d+ tokens as too long again; its order is kept/);
  assert.deepEqual(ids(second.ranking).slice(0, 2), ['f006', 'f007'], 'the top window was reranked');
});

test('Ollama (no /tokenize, context 1024, cuts the prompt\'s beginning silently): detected from usage.prompt_tokens, one warning, the window asked again; the issue is read in every later prompt', async () => {
  const warnings: string[] = [];
  const r = setup({ ollamaContext: 1024, logprobs: false }, { top: 20, mode: 'permutation' }, warnings);
  const { ranking, stats } = await r.rerank(ISSUE, reversed(20, 12));
  assert.equal(stats.fallbackWindows, 0);
  assert.equal(fake.chatPromptTokens[0], 1024);
  assert.doesNotMatch(fake.readPrompts[0], /ISSUE-START/, 'the first prompt lost its beginning');
  for (const [i, text] of fake.readPrompts.slice(1).entries()) {
    assert.match(text, /ISSUE-START parse_date/, `request ${i + 1} read the issue`);
    assert.ok(fake.chatPromptTokens[i + 1] < 1024 - 58, `request ${i + 1}: ${fake.chatPromptTokens[i + 1]} tokens`);
  }
  assert.equal(fake.requests.length, stats.windows + 1, 'the first window asked again');
  assert.equal(fake.tokenizeCalls, 1, '/tokenize probed once');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /read only 1024 of the \d+ prompt tokens sent \(estimated\).*cut the prompt's beginning.*fitted to a context of 1024 tokens.*OLLAMA_CONTEXT_LENGTH=8192.*num_ctx 8192.*--rerank-context 8192/);
  assert.deepEqual(ids(ranking).slice(0, 3), ['f001', 'f002', 'f003']);
});

test('Ollama with --rerank-context matching its context: every prompt fits from the first, no warning', async () => {
  const warnings: string[] = [];
  const r = setup({ ollamaContext: 1024, logprobs: false }, { top: 20, mode: 'permutation', contextTokens: 1024 }, warnings);
  const { stats } = await r.rerank(ISSUE, reversed(20, 12));
  assert.deepEqual(warnings, []);
  assert.equal(fake.requests.length, stats.windows);
  for (const text of fake.readPrompts) assert.match(text, /ISSUE-START/);
});

test('no tokenizer and no context known: the prompt is the estimated one, as before token counting', async () => {
  const r = setup({}, { top: 10, mode: 'permutation' });
  const cands = reversed(10, 5);
  await r.rerank(ISSUE, cands);
  assert.equal(fake.requests.length, 1);
  assert.deepEqual(fake.requests[0].body.messages, windowPrompt(ISSUE, cands, 'permutation', 'numeric'));
});

/** A counter of the fake's tokens (one per 3 characters) that counts its calls. */
function fakeCounter(): TokenCounter & { calls: number } {
  const c = {
    exact: true, calls: 0,
    async count(text: string) { c.calls++; return fakeTokens(text); },
    async prompt(messages: readonly { content: string }[]) { return messages.reduce((n, m) => n + fakeTokens(m.content) + 4, 3); },
  };
  return c;
}

test('cutToTokens: the longest prefix within the tokens (mark included), at a line end, in a bounded number of counts', async () => {
  const text = Array.from({ length: 400 }, (_, i) => `line ${i} of some code`).join('\n');
  const counter = fakeCounter();
  const cut = await cutToTokens(text, 500, counter);
  assert.ok(fakeTokens(cut) <= 500, `${fakeTokens(cut)} tokens`);
  assert.ok(fakeTokens(cut) > 480, `${fakeTokens(cut)} tokens: the budget is used`);
  assert.match(cut, /\d of some code\n… \(cut\)$/);
  assert.ok(counter.calls <= 18, `${counter.calls} counts`);
  assert.equal(await cutToTokens('short', 10, counter), 'short');
});

test('waterLevel: short texts leave their share to longer ones; the cap never exceeds the maximum', () => {
  assert.equal(waterLevel([10, 10, 1000], 600, 16, 1024), 580);
  assert.equal(waterLevel([10, 10, 10], 600, 16, 1024), 1024);
  assert.equal(waterLevel([500, 500], 100, 16, 1024), 50);
  assert.equal(waterLevel([500, 500], 10, 16, 1024), 16);
});

test('fitWindowPrompt: the counted prompt is within maxPromptTokens, the issue at its start, a long function gets the room short ones leave', async () => {
  const cands = reversed(10, 3);
  cands[4] = { ...cands[4], code: Array.from({ length: 300 }, (_, i) => `x${i} = ${i}`).join('\n') };
  const counter = fakeCounter();
  const budget = { ...DEFAULT_PROMPT_BUDGET, maxPromptTokens: 1500 };
  const { messages, promptTokens } = await fitWindowPrompt(ISSUE, cands, 'permutation', 'numeric', budget, 'issueloc', counter);
  assert.equal(promptTokens, await counter.prompt(messages));
  assert.ok(promptTokens <= 1500 && promptTokens > 1400, `${promptTokens} tokens`);
  assert.match(messages[1].content, /Issue:\nISSUE-START parse_date/);
  for (const c of cands.filter((_, i) => i !== 4)) assert.ok(messages[1].content.includes(c.code), `${c.qualifiedName} kept whole`);
  assert.match(messages[1].content, /x\d+ = \d+\n… \(cut\)\n```/);
});

test('tokenCounterOf: a server without /tokenize (404) estimates; a tokenizer that fails later makes the counter estimate from then on', async () => {
  setup({});
  assert.equal(await tokenCounterOf(new OpenAIChatModel({ url: fake.url, model: 'ranker', retries: 0 })), ESTIMATED_COUNTER);
  let fail = false;
  const model: ChatModel = {
    id: 'fake', complete: async () => ({ text: '', inputTokens: 0, outputTokens: 0 }),
    countTokens: async (t) => { if (fail) throw new Error('down'); return fakeTokens(t); },
  };
  const counter = await tokenCounterOf(model);
  assert.equal(counter.exact, true);
  assert.equal(await counter.count('x'.repeat(30)), 10);
  fail = true;
  assert.equal(await counter.count('y'.repeat(40)), 10, 'estimated: 40 characters / 4');
  assert.equal(counter.exact, false);
});

test('vLLM /tokenize: counts of texts and of the templated chat prompt, and max_model_len as the context', async () => {
  setup({ vllm: { maxModelLen: 4096 } });
  const model = new OpenAIChatModel({ url: fake.url, model: 'ranker', retries: 0 });
  assert.equal(await model.contextTokens(), 4096);
  assert.equal(await model.countTokens('abcdef'), 2);
  assert.equal(await model.countPromptTokens([{ role: 'user', content: 'abc' }]), fakeTokens('<|user|>\nabc<|end|>\n<|assistant|>\n'));
  setup({});
  const plain = new OpenAIChatModel({ url: fake.url, model: 'ranker', retries: 0 });
  assert.equal(await plain.contextTokens(), undefined);
  assert.equal(await plain.countTokens('abcdef'), undefined);
  assert.equal(fake.tokenizeCalls, 1, 'probed once');
});

test('promptTooLong reads vLLM\'s and OpenAI\'s refusals; readCut needs a clear gap', () => {
  const e = promptTooLong(new HttpRequestError(`x refused the request (HTTP 400: ${vllmChatTooLong(2048, 2100, 58)})`, 400, false));
  assert.ok(e instanceof PromptTooLongError);
  assert.equal(e.contextTokens, 2048);
  assert.equal(e.promptTokens, 2100);
  const openai = promptTooLong(new HttpRequestError('x refused the request (HTTP 400: {"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.","code":"context_length_exceeded"}})', 400, false));
  assert.deepEqual([openai?.contextTokens, openai?.promptTokens], [8192, 9000]);
  assert.equal(promptTooLong(new HttpRequestError('x refused the request (HTTP 400: {"error":"bad model"})', 400, false)), undefined);
  assert.equal(promptTooLong(new Error('maximum context length')), undefined);
  assert.equal(readCut(2048, 3000, false), true);
  assert.equal(readCut(2048, 2300, false), false, 'estimated counts may be 15 % off');
  assert.equal(readCut(2048, 2200, true), true);
  assert.equal(readCut(0, 3000, true), false, 'no usage reported');
  assert.equal(readCut(100, 150, true), false, 'gap under 64 tokens');
});

/** node-llama-cpp objects as LlamaCppChatModel uses them: one token per 3 characters; tokens 0–25 are the letters A–Z, 99 ends the answer. */
function fakeLlama(contextSize: number, evaluated: number[]) {
  const tokenize = (text: string) => new Array<number>(fakeTokens(text)).fill(50);
  const model = {
    tokenizer: {},
    tokenize,
    detokenize: (tokens: readonly number[]) => tokens.map((t) => String.fromCharCode(65 + t)).join(''),
    isEogToken: (t: number) => t === 99,
    createContext: async () => context,
    dispose: async () => {},
  };
  const sequence = {
    async *evaluateWithMetadata(tokens: number[]) {
      evaluated.push(tokens.length);
      yield { token: 0, probabilities: new Map([[0, 0.6], [1, 0.3], [2, 0.1]]) };
      yield { token: 99, probabilities: new Map([[99, 1]]) };
    },
    clearHistory: async () => {},
  };
  const context = { contextSize, getSequence: () => sequence, dispose: async () => {} };
  const wrapper = {
    generateContextState: ({ chatHistory }: { chatHistory: { text?: string; response?: string[] }[] }) => ({
      contextText: { tokenize: () => tokenize(chatHistory.map((h) => `<|turn|>${h.text ?? h.response?.join('') ?? ''}`).join('')) },
    }),
  };
  return LlamaCppChatModel.of({ resolveChatWrapper: () => wrapper as never }, model as never, context, '/models/fake.gguf');
}

test('gguf: counts by model.tokenize, the context is the loaded one; no prompt overflows it, and one that would is refused, not shifted', async () => {
  const evaluated: number[] = [];
  const model = fakeLlama(1024, evaluated);
  assert.equal(await model.contextTokens(), 1024);
  assert.equal(await model.countTokens('abcdef'), 2);
  const warnings: string[] = [];
  const r = new ListwiseReranker(model, { top: 15, mode: 'first-token', onWarning: (m) => warnings.push(m) });
  const { stats } = await r.rerank(ISSUE, reversed(15, 30));
  assert.deepEqual(warnings, []);
  assert.equal(stats.fallbackWindows, 0);
  assert.equal(evaluated.length, stats.windows);
  for (const n of evaluated) assert.ok(n + 1 <= 1024 && n > 900, `${n} prompt tokens`);
  await assert.rejects(model.complete({ messages: [{ role: 'user', content: 'x'.repeat(3100) }], maxTokens: 8 }),
    (e: unknown) => e instanceof PromptTooLongError && e.contextTokens === 1024 && /do not fit its context of 1024 tokens/.test(e.message));
});

test('a chat model object from a program: its counts and context are passed on, bounded by the timeout; one that hangs makes the counter estimate', async () => {
  let hang = false;
  const inner: ChatModel = {
    id: 'program', complete: async () => ({ text: '[1]', inputTokens: 1, outputTokens: 1 }),
    countTokens: (t) => (hang ? new Promise<number>(() => {}) : Promise.resolve(fakeTokens(t))),
    contextTokens: async () => 2048,
  };
  const guarded = guardedChatModel(inner, 200);
  assert.equal(await guarded.contextTokens!(), 2048);
  assert.equal(await guarded.countPromptTokens!([]), undefined);
  const counter = await tokenCounterOf(guarded);
  assert.equal(counter.exact, true);
  hang = true;
  const t0 = Date.now();
  assert.equal(await counter.count('z'.repeat(40)), 10);
  assert.ok(Date.now() - t0 < loadBound(200), 'the 200 ms guard ended the hung count');
  assert.equal(counter.exact, false);
});
