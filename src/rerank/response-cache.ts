import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { isChatAnswer, type ChatAnswer, type ChatCallOptions, type ChatModel, type ChatRequest } from './chat-model.js';

/**
 * A {@link ChatModel} that answers repeated requests from disk: one JSON file per request at
 * `<dir>/<aa>/<rest>.json`, keyed by the SHA-256 of the model id and the whole request
 * (messages, max tokens, log-probabilities asked). Decoding is greedy, so a cached answer is the
 * one the model would give again; rerunning a benchmark or a command costs no calls.
 * Writes are atomic; an unreadable or malformed entry is a miss; failed calls and malformed
 * answers are not cached.
 */
export class CachedChatModel implements ChatModel {
  readonly id: string;
  hits = 0;
  misses = 0;

  constructor(private readonly inner: ChatModel, readonly dir: string) {
    this.id = inner.id;
  }

  private file(req: ChatRequest): string {
    const key = createHash('sha256').update(JSON.stringify([this.inner.id, req.messages, req.maxTokens, req.topLogprobs ?? 0])).digest('hex');
    return join(this.dir, key.slice(0, 2), `${key.slice(2)}.json`);
  }

  /** Whether the last {@link complete} was answered from the cache. */
  lastWasCached = false;

  async complete(req: ChatRequest, call: ChatCallOptions = {}): Promise<ChatAnswer> {
    const f = this.file(req);
    if (existsSync(f)) {
      try {
        const answer: unknown = JSON.parse(readFileSync(f, 'utf8'));
        if (isChatAnswer(answer)) {
          this.hits++;
          this.lastWasCached = true;
          return answer;
        }
      } catch { /* a miss */ }
    }
    this.misses++;
    this.lastWasCached = false;
    const answer = await this.inner.complete(req, call);
    if (!isChatAnswer(answer)) return answer;
    try {
      writeFileAtomic(f, [JSON.stringify(answer)], { fsync: false });
    } catch { /* the cache is an optimisation */ }
    return answer;
  }

  close(): Promise<void> {
    return this.inner.close?.() ?? Promise.resolve();
  }
}
