import { IssuelocError } from '../errors.js';
import { joinUrl, postJson, type PostJsonOptions } from '../util/http-json.js';
import { estimateTokens, type ChatAnswer, type ChatCallOptions, type ChatModel, type ChatRequest, type TokenLogprob } from './chat-model.js';

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

  /**
   * @throws HttpRequestError after retries or for an answer over the size cap; IssuelocError for
   *   an answer without a choice; the signal's reason when it aborts.
   */
  async complete(req: ChatRequest, call: ChatCallOptions = {}): Promise<ChatAnswer> {
    const url = joinUrl(this.opts.url, 'chat/completions');
    const body: Record<string, unknown> = { model: this.opts.model, messages: req.messages, max_tokens: req.maxTokens, temperature: 0 };
    if (req.topLogprobs && req.topLogprobs > 0) {
      body.logprobs = true;
      body.top_logprobs = req.topLogprobs;
    }
    const answer = await postJson(url, body, {
      ...this.opts, maxResponseBytes: this.opts.maxResponseBytes ?? DEFAULT_MAX_CHAT_BYTES, signal: call.signal,
    }) as Completion | null;
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
