import { join } from 'node:path';
import { parseBackendSpec } from '../embed/spec.js';
import type { PostJsonOptions } from '../util/http-json.js';
import type { ChatModel } from './chat-model.js';
import { LlamaCppChatModel } from './llama-cpp-chat.js';
import { OpenAIChatModel } from './openai-chat.js';
import { RERANK_PRESETS, splitRerankSpec } from './presets.js';
import { CachedChatModel } from './response-cache.js';

/** Options of {@link openChatModel}. */
export interface OpenChatModelOptions {
  /** Cache folder: answers are kept under `<cacheDir>/llm` (none when undefined). */
  cacheDir?: string;
  /** Environment variable holding the endpoint's API key (default OPENAI_API_KEY). */
  apiKeyEnv?: string;
  /** Milliseconds one call may take in all, tries and back-off included (default 30 000). */
  timeoutMs?: number;
  /** Retries on 429/5xx/timeouts/refused connections (default 2). */
  retries?: number;
  backoffMs?: number;
  onRetry?: PostJsonOptions['onRetry'];
  /** Tokens of context a `gguf:` model is loaded with (default: its preset's, else 8192). */
  contextTokens?: number;
}

/**
 * The chat model a `--rerank` value names (`[<preset>:]openai:<url>#<model>` or
 * `[<preset>:]gguf:<file>`, presets: src/llm-rerank/presets.ts), wrapped in the response cache
 * when `cacheDir` is given; undefined for `none`. A GGUF model is opened with `contextTokens`, else
 * its preset's context (swerankllm: 32 768), else 8 192 tokens.
 * @throws IssuelocError for a malformed value or unknown preset, a missing GGUF file or optional package.
 */
export async function openChatModel(value: string | undefined, opts: OpenChatModelOptions = {}): Promise<ChatModel | undefined> {
  if (value === undefined) return undefined;
  const { preset, backend } = splitRerankSpec(value);
  const spec = parseBackendSpec(preset ? backend : value, '--rerank', ['none', 'openai', 'gguf']);
  let model: ChatModel;
  if (spec.kind === 'openai') {
    model = new OpenAIChatModel({
      url: spec.url, model: spec.model, apiKey: process.env[opts.apiKeyEnv ?? 'OPENAI_API_KEY'],
      timeoutMs: opts.timeoutMs, budgetMs: opts.timeoutMs, retries: opts.retries, backoffMs: opts.backoffMs, onRetry: opts.onRetry,
    });
  } else if (spec.kind === 'gguf') {
    model = await LlamaCppChatModel.load(spec.path, opts.contextTokens ?? RERANK_PRESETS[preset ?? 'generic'].contextTokens);
  } else {
    return undefined;
  }
  return opts.cacheDir ? new CachedChatModel(model, join(opts.cacheDir, 'llm')) : model;
}
