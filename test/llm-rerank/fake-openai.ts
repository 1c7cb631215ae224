/**
 * A small OpenAI-compatible server for the tests, on 127.0.0.1 at a random port. It answers
 * deterministically:
 *
 *   POST /v1/embeddings: each input's vector = counts of its lower-cased words hashed into `dim`
 *     buckets (FNV-1a), so texts sharing words are close in cosine. `dim` comes from the model
 *     name `hash-<dim>` (default 16).
 *   POST /v1/chat/completions: reads the candidates of the prompt (`[id] path — name` lines),
 *     scores each by `relevance(header)` (default: the number in `fNNN`, lower = more relevant),
 *     and answers either a permutation `[c] > [a] > …` (no logprobs asked) or one identifier
 *     with `logprobs.content[0].top_logprobs` giving candidate i of the true order the
 *     log-probability −i (logprobs asked).
 *
 * Generated answers are cut at `max_tokens` (tokens: words, punctuation, `<think>` tags), as
 * servers do. Knobs that make it behave like real servers:
 *   `logprobs` false: never returns log-probabilities, even when asked (Ollama's OpenAI layer).
 *   `thinking` true: every answer starts with a short `<think>…</think>` block naming the least
 *     relevant candidates (a thinking model: Qwen3, DeepSeek-R1); with logprobs, the first token
 *     is `<think>` and its alternatives name no candidate.
 *   `maxLogprobs` N: a `top_logprobs` above N is refused with HTTP 400 and vLLM's message
 *     (`vllm serve --max-logprobs N`; vLLM's processor: "Requested sample logprobs of …, which is
 *     greater than max allowed: N"); `logprobsRefusal` replaces that message.
 *
 * `script` queues special answers for the next requests: an HTTP status to fail with, a delay,
 * a fixed reply text / logprob list, no answer at all (`hang`), or a 200 answer streaming
 * `streamBytes` bytes (`streamed` counts what was written). `embeddingFault` (per model name)
 * breaks the embeddings answered while set. `maxInputTokens` (per model name) makes the server
 * refuse, as vLLM does beyond `max_model_len`, a batch holding an input of more tokens (here:
 * whitespace-separated words) with HTTP 400 and vLLM's message. Every request body is recorded
 * (but `/tokenize`'s, counted in `tokenizeCalls`).
 *
 * Context limits, as servers have them. Tokens of chat prompts are counted by {@link fakeTokens}
 * (one per 3 characters: denser than the 4-character estimate, as BPE vocabularies are on code)
 * over the prompt laid out by {@link fakeChatTemplate}; every chat request's count after any cut,
 * and the text the server read, go to `chatPromptTokens` and `readPrompts`.
 *   `vllm` {maxModelLen}: `POST /tokenize` answers vLLM's `{count, max_model_len, tokens}` for
 *     `{model, prompt, add_special_tokens}` or `{model, messages, add_generation_prompt}` (the
 *     template applied), and a chat request whose prompt and `max_tokens` exceed `maxModelLen`
 *     gets HTTP 400 with vLLM's message (serving_engine.py, `_validate_input`). Without it,
 *     `/tokenize` is 404 (`404 page not found`, as Ollama answers).
 *   `ollamaContext` N: a chat prompt of more than N tokens is cut silently as Ollama's runner does
 *     ("truncating input prompt": the first 4 tokens kept, then the last N − 4), read cut, and
 *     `usage.prompt_tokens` reports the N tokens read.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Scripted =
  | { status: number; body?: string; retryAfter?: string }
  | { delayMs: number }
  | { reply: string; logprobs?: { token: string; logprob: number }[] | null }
  | { hang: true }
  | { streamBytes: number; contentLength?: boolean };

/** Ways an embeddings answer can be broken: each vector (`vector i`, 0-based, of the batch) is replaced by the result. */
export type EmbeddingFault = (vector: number[], i: number) => unknown;

export interface FakeOpenAI {
  url: string;
  requests: { path: string; body: Record<string, unknown> }[];
  script: Scripted[];
  relevance: (header: string) => number;
  /** Model name → how its embeddings are broken (raw JSON text of a vector when the result is a string starting with `raw:`). */
  embeddingFault: Map<string, EmbeddingFault>;
  /** Model name → the most tokens (words) an embeddings input may have; longer ones get vLLM's HTTP 400. */
  maxInputTokens: Map<string, number>;
  /** Bytes written by `streamBytes` answers so far. */
  streamed: number;
  /** Whether log-probabilities are returned when asked (default true). */
  logprobs: boolean;
  /** Whether answers start with a `<think>` block (default false). */
  thinking: boolean;
  /** Most `top_logprobs` accepted; above it: HTTP 400 like vLLM (default: no limit). */
  maxLogprobs?: number;
  /** Message of that 400 instead of vLLM's. */
  logprobsRefusal?: string;
  /** vLLM's `/tokenize` and context check (see the module comment); none by default. */
  vllm?: { maxModelLen: number };
  /** Ollama's silent cut of prompts beyond this many tokens; none by default. */
  ollamaContext?: number;
  /** `/tokenize` requests so far. */
  tokenizeCalls: number;
  /** Each chat request's prompt tokens as the server read them (after a cut). */
  chatPromptTokens: number[];
  /** Each chat request's prompt text as the server read it (template markers included). */
  readPrompts: string[];
  close(): Promise<void>;
}

export function hashVector(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193) >>> 0;
    v[h % dim] += 1;
  }
  return v;
}

/** Tokens of an input as the fake counts them: its whitespace-separated words. */
export function wordCount(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** vLLM's answer (0.6–0.9, serving_engine.py) to an embeddings input longer than `max_model_len`. */
export function vllmTooLong(maxModelLen: number, tokens: number): string {
  return JSON.stringify({
    object: 'error',
    message: `This model's maximum context length is ${maxModelLen} tokens. However, you requested ${tokens} tokens in the input for embedding generation. Please reduce the length of the input.`,
    type: 'BadRequestError', param: null, code: 400,
  });
}

/** The fake's tokenizer: one token per 3 characters. */
export function fakeTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** The fake's chat template (ChatML-like): each message between role markers, then the answer's start. */
export function fakeChatTemplate(messages: readonly { role: string; content: string }[]): string {
  return `${messages.map((m) => `<|${m.role}|>\n${m.content}<|end|>\n`).join('')}<|assistant|>\n`;
}

/** vLLM's refusal of a chat prompt beyond `max_model_len` (serving_engine.py `_validate_input`, 0.5–0.10). */
export function vllmChatTooLong(maxModelLen: number, promptTokens: number, maxTokens: number): string {
  return JSON.stringify({
    object: 'error',
    message: `This model's maximum context length is ${maxModelLen} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
    type: 'BadRequestError', param: null, code: 400,
  });
}

/** Default relevance: the number after `f` in the header (f001 best). */
export function byFunctionNumber(header: string): number {
  const m = /\bf(\d+)\b/.exec(header);
  return m ? Number(m[1]) : 1e9;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const state: Omit<FakeOpenAI, 'url' | 'close'> = { requests: [], script: [], relevance: byFunctionNumber, embeddingFault: new Map(), maxInputTokens: new Map(), streamed: 0, logprobs: true, thinking: false, tokenizeCalls: 0, chatPromptTokens: [], readPrompts: [] };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => { void handle(req, res, raw); });
  });
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  async function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const body = JSON.parse(raw || '{}') as Record<string, unknown>;
    if (req.url === '/tokenize') {
      state.tokenizeCalls++;
      if (!state.vllm) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('404 page not found');
      }
      const count = Array.isArray(body.messages)
        ? fakeTokens(fakeChatTemplate(body.messages as { role: string; content: string }[]))
        : fakeTokens(String(body.prompt ?? '')) + (body.add_special_tokens === false ? 0 : 1);
      return send(res, 200, { count, max_model_len: state.vllm.maxModelLen, tokens: new Array<number>(count).fill(0) });
    }
    state.requests.push({ path: req.url ?? '', body });
    const next = state.script.shift();
    if (next && 'hang' in next) return; // accepted, never answered (closeAllConnections ends it)
    if (next && 'delayMs' in next) await new Promise((r) => setTimeout(r, next.delayMs).unref()); // unref: a pending delay never holds the test process
    if (res.destroyed) return;
    if (next && 'streamBytes' in next) return stream(res, next.streamBytes, next.contentLength ?? false);
    if (next && 'status' in next) return send(res, next.status, next.body ?? '{"error":"scripted"}', next.retryAfter ? { 'retry-after': next.retryAfter } : {});
    if (req.url === '/v1/embeddings') {
      const dim = Number(/hash-(\d+)/.exec(String(body.model))?.[1] ?? 16);
      const input = body.input as string[];
      const max = state.maxInputTokens.get(String(body.model));
      const over = max === undefined ? undefined : input.map(wordCount).find((n) => n > max);
      if (over !== undefined) return send(res, 400, vllmTooLong(max!, over));
      // Answer in reverse order with explicit indexes: clients must use `index`.
      const fault = state.embeddingFault.get(String(body.model));
      const items = input.map((t, index) => {
        const v = hashVector(t, dim);
        const e = fault ? fault(v, index) : v;
        return `{"object":"embedding","index":${index},"embedding":${typeof e === 'string' && e.startsWith('raw:') ? e.slice(4) : JSON.stringify(e)}}`;
      }).reverse();
      return send(res, 200, `{"object":"list","data":[${items.join(',')}],"model":${JSON.stringify(body.model)}}`);
    }
    if (req.url === '/v1/chat/completions') {
      const messages = body.messages as { role: string; content: string }[];
      let prompt = messages.map((m) => m.content).join('\n');
      let promptTokens = fakeTokens(fakeChatTemplate(messages));
      const maxTokens = Number(body.max_tokens ?? 16);
      if (state.vllm && promptTokens + maxTokens > state.vllm.maxModelLen) {
        state.chatPromptTokens.push(promptTokens);
        state.readPrompts.push('');
        return send(res, 400, vllmChatTooLong(state.vllm.maxModelLen, promptTokens, maxTokens));
      }
      if (state.ollamaContext !== undefined && promptTokens > state.ollamaContext) {
        const text = fakeChatTemplate(messages);
        prompt = text.slice(0, 12) + text.slice(text.length - 3 * (state.ollamaContext - 4));
        promptTokens = state.ollamaContext;
      }
      state.chatPromptTokens.push(promptTokens);
      state.readPrompts.push(prompt);
      const headers = [...prompt.matchAll(/^\[(\w+)\] (.+)$/gm)].map((m) => ({ id: m[1], header: m[2] }));
      const ranked = [...headers].sort((a, b) => state.relevance(a.header) - state.relevance(b.header));
      const wantLogprobs = body.logprobs === true;
      const asked = Number(body.top_logprobs ?? 0);
      if (wantLogprobs && state.maxLogprobs !== undefined && asked > state.maxLogprobs) {
        const message = state.logprobsRefusal ?? `Requested sample logprobs of ${asked}, which is greater than max allowed: ${state.maxLogprobs}`;
        return send(res, 400, { error: { message, type: 'BadRequestError', param: null, code: 400 } });
      }
      let text: string;
      let top: { token: string; logprob: number }[] | null = null;
      if (next && 'reply' in next) {
        text = next.reply;
        top = next.logprobs === undefined ? (wantLogprobs ? [{ token: text, logprob: -0.1 }] : null) : next.logprobs;
      } else {
        const think = state.thinking ? `<think>Maybe [${ranked[ranked.length - 1]?.id}].</think>\n` : '';
        const full = think + (wantLogprobs ? ranked[0]?.id ?? '' : ranked.map((c) => `[${c.id}]`).join(' > '));
        const tokens = full.match(/<\/?think>|\w+|\s*[^\w\s]|\s+/g) ?? [];
        text = tokens.slice(0, Math.max(1, Number(body.max_tokens ?? tokens.length))).join('');
        if (wantLogprobs) {
          top = state.thinking ? [{ token: '<think>', logprob: -0.001 }, { token: '\n', logprob: -7.5 }, { token: 'The', logprob: -9 }]
            : ranked.map((c, i) => ({ token: c.id, logprob: -i }));
        }
      }
      if (!state.logprobs) top = null;
      const logprobs = top ? { content: [{ token: top[0]?.token ?? '', logprob: top[0]?.logprob ?? 0, top_logprobs: top.slice(0, Number(body.top_logprobs ?? 20)) }] } : null;
      return send(res, 200, {
        id: 'x', object: 'chat.completion', model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs, finish_reason: 'stop' }],
        usage: { prompt_tokens: state.vllm || state.ollamaContext !== undefined ? promptTokens : Math.ceil(prompt.length / 4), completion_tokens: Math.max(1, text.split(/\s+/).length), total_tokens: 0 },
      });
    }
    send(res, 404, { error: 'not found' });
  }
  /** A 200 JSON answer of about `bytes` bytes, written as fast as the reader takes it; stops when the reader goes. */
  function stream(res: ServerResponse, bytes: number, withLength: boolean) {
    const head = '{"choices":[{"message":{"content":"', tail = '"}}],"data":[]}';
    res.writeHead(200, { 'content-type': 'application/json', ...(withLength ? { 'content-length': String(bytes + head.length + tail.length) } : {}) });
    res.write(head);
    const chunk = 'x'.repeat(64 * 1024);
    let left = bytes;
    const more = () => {
      while (left > 0 && !res.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        state.streamed += n;
        if (!res.write(n === chunk.length ? chunk : chunk.slice(0, n))) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end(tail);
    };
    res.on('close', () => { left = 0; });
    more();
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const fake: FakeOpenAI = Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  });
  return fake;
}
