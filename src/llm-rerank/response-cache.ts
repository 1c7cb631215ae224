import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readCheckedJson, writeCheckedJson } from '../util/checked-file.js';
import { isChatAnswer, type ChatAnswer, type ChatCallOptions, type ChatMessage, type ChatModel, type ChatRequest } from './chat-model.js';

/** Tag of the answer files (src/util/checked-file.ts). */
const ANSWER_TAG = 'llm.v2';

/**
 * A {@link ChatModel} that answers repeated requests from disk: one JSON file per request at
 * `<dir>/<aa>/<rest>.json`, keyed by the SHA-256 of the model id and the whole request
 * (prompt layout, messages, max tokens, log-probabilities asked): an answer given to one layout
 * or mode is never reused for another. Decoding is greedy, so a cached answer is the
 * one the model would give again; rerunning a benchmark or a command costs no calls.
 * Entries are checked files (src/util/checked-file.ts, tag {@link ANSWER_TAG}, also part of the
 * key so files of an older format are not read); writes are atomic; a corrupt entry is a miss
 * with one warning line; failed calls are not cached.
 */
export class CachedChatModel implements ChatModel {
  readonly id: string;
  hits = 0;
  misses = 0;

  constructor(private readonly inner: ChatModel, readonly dir: string) {
    this.id = inner.id;
  }

  private file(req: ChatRequest): string {
    // node:crypto loaded on the first request: the CLI imports this module in every call, most rerank nothing
    const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
    const key = createHash('sha256').update(JSON.stringify([ANSWER_TAG, this.inner.id, req.layout ?? '', req.messages, req.maxTokens, req.topLogprobs ?? 0])).digest('hex');
    return join(this.dir, key.slice(0, 2), `${key.slice(2)}.json`);
  }

  /** Whether the last {@link complete} was answered from the cache. */
  lastWasCached = false;

  async complete(req: ChatRequest, call: ChatCallOptions = {}): Promise<ChatAnswer> {
    const f = this.file(req);
    const cached = readCheckedJson(f, ANSWER_TAG, isChatAnswer);
    if (cached) {
      this.hits++;
      this.lastWasCached = true;
      return cached;
    }
    this.misses++;
    this.lastWasCached = false;
    const answer = await this.inner.complete(req, call);
    if (!isChatAnswer(answer)) return answer;
    try {
      writeCheckedJson(f, ANSWER_TAG, answer, { fsync: false });
    } catch { /* the cache is an optimisation */ }
    return answer;
  }

  /** The inner model's count (not cached on disk: counts are asked before each window). */
  async countTokens(text: string, call: ChatCallOptions = {}): Promise<number | undefined> {
    return this.inner.countTokens?.(text, call);
  }

  async countPromptTokens(messages: readonly ChatMessage[], call: ChatCallOptions = {}): Promise<number | undefined> {
    return this.inner.countPromptTokens?.(messages, call);
  }

  async contextTokens(call: ChatCallOptions = {}): Promise<number | undefined> {
    return this.inner.contextTokens?.(call);
  }

  close(): Promise<void> {
    return this.inner.close?.() ?? Promise.resolve();
  }
}
