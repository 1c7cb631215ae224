import { estimateTokens, type ChatCallOptions, type ChatMessage, type ChatModel } from './chat-model.js';

/**
 * How prompt texts are counted in tokens: the model's tokenizer when its backend has one
 * ({@link ChatModel.countTokens}: node-llama-cpp's `model.tokenize`, vLLM's `/tokenize`), else
 * {@link estimateTokens} (4 characters a token).
 */
export interface TokenCounter {
  /** true when counts come from the model's tokenizer, false when estimated. */
  readonly exact: boolean;
  /** Tokens of `text` alone. */
  count(text: string, signal?: AbortSignal): Promise<number>;
  /** Tokens of the whole prompt of `messages`, chat template included (estimated: {@link TEMPLATE_TOKENS} a message more). */
  prompt(messages: readonly ChatMessage[], signal?: AbortSignal): Promise<number>;
}

/** Tokens a chat template adds per message when it cannot be counted (role markers, separators), and once for the answer's start. */
export const TEMPLATE_TOKENS = 8;

/** Counts kept per counter (texts of candidates recur in two windows and across runs of one issue). */
const MAX_CACHED = 4096;

/** Estimated counts: {@link estimateTokens}, plus {@link TEMPLATE_TOKENS} per message and for the answer's start. */
export const ESTIMATED_COUNTER: TokenCounter = {
  exact: false,
  count: async (text) => estimateTokens(text),
  prompt: async (messages) => estimatePromptTokens(messages),
};

/** The estimated tokens of a chat prompt (see {@link ESTIMATED_COUNTER}). */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + estimateTokens(m.content) + TEMPLATE_TOKENS, TEMPLATE_TOKENS);
}

/**
 * The token counter of `model`: its tokenizer when `countTokens` answers a number for a probe
 * (asked once here, bounded by the backend's timeout; a backend that has none, such as a server
 * without `/tokenize`, answers undefined), else {@link ESTIMATED_COUNTER}. Counts of texts are
 * cached (up to 4 096 texts). The first count the backend fails to give later (an error, no
 * answer in time) makes the counter estimate from then on (`exact` turns false), so a tokenizer
 * endpoint that breaks costs one timeout, and fitting a prompt never fails because of counting;
 * an abort of `signal` is passed on.
 */
export async function tokenCounterOf(model: ChatModel, opts: ChatCallOptions = {}): Promise<TokenCounter> {
  if (!model.countTokens) return ESTIMATED_COUNTER;
  let probe: number | undefined;
  try {
    probe = await model.countTokens('x', opts);
  } catch (e) {
    opts.signal?.throwIfAborted();
    void e;
  }
  if (probe === undefined) return ESTIMATED_COUNTER;
  return new ModelTokenCounter(model);
}

class ModelTokenCounter implements TokenCounter {
  private readonly cache = new Map<string, number>();
  private broken = false;
  constructor(private readonly model: ChatModel) {}

  get exact(): boolean {
    return !this.broken;
  }

  /** What the backend answers, or undefined after its first failure (aborts are thrown). */
  private async ask<T>(call: () => Promise<T | undefined> | undefined, signal?: AbortSignal): Promise<T | undefined> {
    if (this.broken) return undefined;
    try {
      return await call();
    } catch (e) {
      signal?.throwIfAborted();
      void e;
      this.broken = true;
      return undefined;
    }
  }

  async count(text: string, signal?: AbortSignal): Promise<number> {
    if (text === '') return 0;
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    const n = await this.ask(() => this.model.countTokens!(text, { signal }), signal);
    if (n === undefined) return estimateTokens(text);
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(text, n);
    return n;
  }

  async prompt(messages: readonly ChatMessage[], signal?: AbortSignal): Promise<number> {
    const n = await this.ask(() => this.model.countPromptTokens?.(messages, { signal }), signal);
    if (n !== undefined) return n;
    let total = TEMPLATE_TOKENS;
    for (const m of messages) total += (await this.count(m.content, signal)) + TEMPLATE_TOKENS;
    return total;
  }
}
