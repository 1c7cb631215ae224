/**
 * The language model seen by the listwise reranker: chat messages in, text (and, when asked, the
 * log-probabilities of the first generated token's likeliest alternatives) out. Backends:
 * OpenAI-compatible chat completions (src/llm-rerank/openai-chat.ts) and a local GGUF model through
 * node-llama-cpp (src/llm-rerank/llama-cpp-chat.ts); src/llm-rerank/response-cache.ts caches any of them.
 */
import { IssuelocError } from '../errors.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One completion request; sampling is greedy (temperature 0). */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Most tokens to generate. */
  maxTokens: number;
  /** When > 0: return the `topLogprobs` likeliest first tokens with their log-probabilities. */
  topLogprobs?: number;
  /** The prompt layout the messages follow (src/llm-rerank/prompt.ts); not sent, part of the response cache key. */
  layout?: string;
}

/** A token and its natural-log probability. */
export interface TokenLogprob {
  token: string;
  logprob: number;
}

export interface ChatAnswer {
  text: string;
  /** Likeliest first tokens, best first, when asked for and the backend gives them. */
  firstTokenLogprobs?: TokenLogprob[];
  /** Prompt tokens as the backend counted them (estimated when it did not say). */
  inputTokens: number;
  /** Generated tokens. */
  outputTokens: number;
}

/** Options of one {@link ChatModel.complete} call (not part of the request: never in a cache key). */
export interface ChatCallOptions {
  /** Abandons the call when it aborts (a per-issue deadline); it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface ChatModel {
  /** Backend, location and model name; part of the response cache key. */
  readonly id: string;
  /**
   * @throws HttpRequestError (src/util/http-json.ts) or IssuelocError when the backend fails for
   *   good; the signal's reason when it aborts.
   */
  complete(req: ChatRequest, opts?: ChatCallOptions): Promise<ChatAnswer>;
  /**
   * Tokens of `text` alone by the model's own tokenizer (no special tokens), or undefined when
   * the backend has no tokenizer to ask (callers then use {@link estimateTokens}).
   */
  countTokens?(text: string, opts?: ChatCallOptions): Promise<number | undefined>;
  /**
   * Tokens of the whole prompt the model reads for `messages` (chat template and generation
   * prompt included), or undefined when the backend cannot tell.
   */
  countPromptTokens?(messages: readonly ChatMessage[], opts?: ChatCallOptions): Promise<number | undefined>;
  /** The model's context window in tokens (prompt + answer) when the backend says, else undefined. */
  contextTokens?(opts?: ChatCallOptions): Promise<number | undefined>;
  close?(): Promise<void>;
}

/**
 * The backend refused a prompt as longer than the model's context (vLLM's HTTP 400 `This model's
 * maximum context length is 2048 tokens. However, you requested 2100 tokens (2040 in the messages,
 * 60 in the completion)…`; a GGUF prompt that does not fit the loaded context). The counts are
 * the backend's, when it gave them.
 */
export class PromptTooLongError extends IssuelocError {
  constructor(message: string, readonly contextTokens?: number, readonly promptTokens?: number) {
    super(message);
    this.name = 'PromptTooLongError';
  }
}

/**
 * Whether `x` is a well-formed {@link ChatAnswer} (text a string, token counts whole numbers ≥ 0,
 * log-probabilities finite numbers ≤ 0 with string tokens): what is cached and read back.
 */
export function isChatAnswer(x: unknown): x is ChatAnswer {
  if (x === null || typeof x !== 'object') return false;
  const a = x as Partial<ChatAnswer>;
  const count = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
  if (typeof a.text !== 'string' || !count(a.inputTokens) || !count(a.outputTokens)) return false;
  if (a.firstTokenLogprobs === undefined) return true;
  return Array.isArray(a.firstTokenLogprobs) && a.firstTokenLogprobs.every((t) =>
    t !== null && typeof t === 'object' && typeof t.token === 'string' && Number.isFinite(t.logprob) && t.logprob <= 0);
}

/**
 * Rough token count of a text without the model's tokenizer: one token per 4 characters (the
 * usual rule of thumb for English and code with BPE vocabularies). Used for prompt budgets only.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
