/**
 * The language model seen by the listwise reranker: chat messages in, text (and, when asked, the
 * log-probabilities of the first generated token's likeliest alternatives) out. Backends:
 * OpenAI-compatible chat completions (src/rerank/openai-chat.ts) and a local GGUF model through
 * node-llama-cpp (src/rerank/llama-cpp-chat.ts); src/rerank/response-cache.ts caches any of them.
 */

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

export interface ChatModel {
  /** Backend, location and model name; part of the response cache key. */
  readonly id: string;
  /**
   * @throws HttpRequestError (src/util/http-json.ts) or IssuelocError when the backend fails for good.
   */
  complete(req: ChatRequest): Promise<ChatAnswer>;
  close?(): Promise<void>;
}

/**
 * Rough token count of a text without the model's tokenizer: one token per 4 characters (the
 * usual rule of thumb for English and code with BPE vocabularies). Used for prompt budgets only.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
