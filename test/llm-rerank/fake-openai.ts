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
 * whitespace-separated words) with HTTP 400 and vLLM's message. Every request body is recorded.
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

/** Default relevance: the number after `f` in the header (f001 best). */
export function byFunctionNumber(header: string): number {
  const m = /\bf(\d+)\b/.exec(header);
  return m ? Number(m[1]) : 1e9;
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const state: Omit<FakeOpenAI, 'url' | 'close'> = { requests: [], script: [], relevance: byFunctionNumber, embeddingFault: new Map(), maxInputTokens: new Map(), streamed: 0, logprobs: true, thinking: false };
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
      const prompt = messages.map((m) => m.content).join('\n');
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
        usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.max(1, text.split(/\s+/).length), total_tokens: 0 },
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
