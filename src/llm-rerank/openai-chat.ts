import { IssuelocError } from '../errors.js';
import { HttpRequestError, joinUrl, postJson, type PostJsonOptions } from '../util/http-json.js';
import { estimateTokens, PromptTooLongError, type ChatAnswer, type ChatCallOptions, type ChatMessage, type ChatModel, type ChatRequest, type TokenLogprob } from './chat-model.js';

/** Default cap on a chat answer's body: 1 MiB (a window's answer is a few hundred bytes). */
export const DEFAULT_MAX_CHAT_BYTES = 1024 * 1024;

/** Options of {@link OpenAIChatModel}; `maxResponseBytes` defaults to {@link DEFAULT_MAX_CHAT_BYTES}. */
export interface OpenAIChatOptions extends Omit<PostJsonOptions, 'signal'> {
  /** Base URL ending in `/v1`; `/chat/completions` is appended. */
  url: string;
  model: string;
}

interface Completion {
  choices?: {
    message?: { content?: string | null };
    logprobs?: { content?: { token?: string; logprob?: number; top_logprobs?: { token?: string; logprob?: number }[] }[] | null } | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** vLLM's `POST /tokenize` answer (vllm/entrypoints/serve/tokenize/protocol.py, TokenizeResponse). */
interface TokenizeAnswer {
  count?: number;
  max_model_len?: number;
}

/** Most milliseconds the probe of `/tokenize` may take (it is not retried: a server without it answers 404 at once). */
const PROBE_MS = 10_000;

/**
 * The server's refusal of a chat prompt as longer than the model's context, with its counts:
 * vLLM (serving_engine.py): `This model's maximum context length is 2048 tokens. However, you
 * requested 2100 tokens (2040 in the messages, 60 in the completion). Please reduce the length of
 * the messages or completion.` (or `… your request has 2100 input tokens …`); OpenAI's
 * `context_length_exceeded` (`… However, your messages resulted in 9000 tokens …`). Undefined
 * for any other failure.
 */
export function promptTooLong(e: unknown): PromptTooLongError | undefined {
  if (!(e instanceof HttpRequestError) || (e.status !== 400 && e.status !== 413)) return undefined;
  const m = e.message;
  if (!/maximum context length|context_length_exceeded|context window|too many tokens|prompt is too long/i.test(m)) return undefined;
  const num = (re: RegExp) => {
    const v = re.exec(m)?.[1];
    return v ? Number(v) : undefined;
  };
  const limit = num(/context length is (\d+)/i);
  const prompt = num(/\((\d+) in the messages/i) ?? num(/request has (\d+) input tokens/i) ?? num(/prompt contains at least (\d+) input tokens/i) ??
    num(/messages resulted in (\d+) tokens/i);
  return new PromptTooLongError(m, limit, prompt);
}

/**
 * An OpenAI-compatible `POST <url>/chat/completions` (OpenAI API reference, "Create chat
 * completion"), as served by vLLM, Ollama, the llama.cpp server and hosted APIs: request
 * `{model, messages, max_tokens, temperature: 0, logprobs, top_logprobs}`, answer
 * `choices[0].message.content`, `choices[0].logprobs.content[0].top_logprobs` and `usage`.
 */
export class OpenAIChatModel implements ChatModel {
  readonly id: string;
  constructor(private readonly opts: OpenAIChatOptions) {
    this.id = `openai:${opts.url}#${opts.model}`;
  }

  /** Whether the server has vLLM's `/tokenize` (probed once), and the `max_model_len` it reported. */
  private tokenizeProbe: Promise<{ available: boolean; maxModelLen?: number }> | undefined;

  /** vLLM's `/tokenize`, beside `/v1` at the server's root. */
  private get tokenizeUrl(): string {
    return `${this.opts.url.replace(/\/+$/, '').replace(/\/v1$/, '')}/tokenize`;
  }

  /** One `/tokenize` call: `{count, max_model_len}`; throws what postJson throws. */
  private async tokenize(body: Record<string, unknown>, call: ChatCallOptions, probe = false): Promise<TokenizeAnswer> {
    const answer = await postJson(this.tokenizeUrl, { model: this.opts.model, ...body }, {
      ...this.opts, retries: probe ? 0 : this.opts.retries,
      timeoutMs: probe ? Math.min(PROBE_MS, this.opts.timeoutMs ?? PROBE_MS) : this.opts.timeoutMs,
      budgetMs: probe ? Math.min(PROBE_MS, this.opts.budgetMs ?? PROBE_MS) : this.opts.budgetMs,
      maxResponseBytes: this.opts.maxResponseBytes ?? DEFAULT_MAX_CHAT_BYTES * 16, signal: call.signal,
    }) as TokenizeAnswer | null;
    if (!answer || !Number.isInteger(answer.count) || (answer.count as number) < 0) throw new IssuelocError(`${this.tokenizeUrl} answered without a token count`);
    return answer;
  }

  /**
   * Probes `POST /tokenize` once (vLLM: `{model, prompt}` → `{count, max_model_len, tokens}`),
   * without retries and within 10 s: any failure (404 on servers without it, such as Ollama or
   * OpenAI) means "no tokenizer"; an abort of the signal is thrown.
   */
  private probe(call: ChatCallOptions): Promise<{ available: boolean; maxModelLen?: number }> {
    this.tokenizeProbe ??= this.tokenize({ prompt: 'x', add_special_tokens: false }, call, true).then(
      (a) => ({ available: true, maxModelLen: tokenCount(a.max_model_len) || undefined }),
      () => ({ available: false }),
    );
    return this.tokenizeProbe.then((p) => {
      call.signal?.throwIfAborted();
      return p;
    });
  }

  /** Tokens of `text` by vLLM's `/tokenize` (no special tokens); undefined when the server has none. */
  async countTokens(text: string, call: ChatCallOptions = {}): Promise<number | undefined> {
    if (!(await this.probe(call)).available) return undefined;
    return (await this.tokenize({ prompt: text, add_special_tokens: false }, call)).count;
  }

  /** Tokens of the chat prompt by vLLM's `/tokenize` (`{model, messages, add_generation_prompt: true}`: the chat template applied); undefined without it. */
  async countPromptTokens(messages: readonly ChatMessage[], call: ChatCallOptions = {}): Promise<number | undefined> {
    if (!(await this.probe(call)).available) return undefined;
    return (await this.tokenize({ messages, add_generation_prompt: true }, call)).count;
  }

  /** vLLM's `max_model_len` (from `/tokenize`); undefined for servers that do not say. */
  async contextTokens(call: ChatCallOptions = {}): Promise<number | undefined> {
    return (await this.probe(call)).maxModelLen;
  }

  /**
   * @throws PromptTooLongError when the server refuses the prompt as longer than the model's
   *   context ({@link promptTooLong}); HttpRequestError after retries or for an answer over the
   *   size cap; IssuelocError for an answer without a choice; the signal's reason when it aborts.
   */
  async complete(req: ChatRequest, call: ChatCallOptions = {}): Promise<ChatAnswer> {
    const url = joinUrl(this.opts.url, 'chat/completions');
    const body: Record<string, unknown> = { model: this.opts.model, messages: req.messages, max_tokens: req.maxTokens, temperature: 0 };
    if (req.topLogprobs && req.topLogprobs > 0) {
      body.logprobs = true;
      body.top_logprobs = req.topLogprobs;
    }
    let answer: Completion | null;
    try {
      answer = await postJson(url, body, {
        ...this.opts, maxResponseBytes: this.opts.maxResponseBytes ?? DEFAULT_MAX_CHAT_BYTES, signal: call.signal,
      }) as Completion | null;
    } catch (e) {
      throw promptTooLong(e) ?? e;
    }
    const choice = answer?.choices?.[0];
    if (!choice) throw new IssuelocError(`${url} answered without a choice (model ${this.opts.model})`);
    const text = typeof choice.message?.content === 'string' ? choice.message.content : '';
    const first = choice.logprobs?.content?.[0];
    let firstTokenLogprobs: TokenLogprob[] | undefined;
    if (first) {
      const list = (Array.isArray(first.top_logprobs) && first.top_logprobs.length ? first.top_logprobs : [first])
        .filter((t) => t !== null && typeof t === 'object' && typeof t.token === 'string' && typeof t.logprob === 'number' && t.logprob <= 0) as TokenLogprob[];
      firstTokenLogprobs = list.map((t) => ({ token: t.token, logprob: t.logprob })).sort((a, b) => b.logprob - a.logprob);
    }
    const promptText = req.messages.map((m) => m.content).join('\n');
    return {
      text,
      firstTokenLogprobs,
      inputTokens: tokenCount(answer?.usage?.prompt_tokens) ?? estimateTokens(promptText),
      outputTokens: tokenCount(answer?.usage?.completion_tokens) ?? estimateTokens(text),
    };
  }
}

/** A token count the server gave, or undefined when it gave none usable. */
function tokenCount(n: unknown): number | undefined {
  return Number.isInteger(n) && (n as number) >= 0 ? (n as number) : undefined;
}
