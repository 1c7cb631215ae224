import { DeadlineExceeded } from '../util/deadline.js';
import { HttpRequestError } from '../util/http-json.js';
import type { ChatModel } from './chat-model.js';
import { CachedChatModel } from './response-cache.js';
import { orderByFirstToken, parsePermutation, type IdentifierStyle } from './candidate-labels.js';
import { DEFAULT_PROMPT_BUDGET, windowPrompt, type PromptBudget, type RerankCandidate, type RerankMode } from './prompt.js';
import { slidingWindows } from './windows.js';

/** Settings of {@link ListwiseReranker}; defaults are SweRank's published ones. */
export interface ListwiseOptions {
  /** Candidates reranked, from the top of the retriever's list (default 100). */
  top: number;
  /** Candidates per window (default 10). */
  window: number;
  /** Step between windows, bottom to top (default 5). */
  stride: number;
  /** `first-token` (default: order by the first token's log-probabilities) or `permutation` (parse `[2] > [1] > …`). */
  mode: RerankMode;
  /** Identifiers: default `alpha` in first-token mode, `numeric` in permutation mode. */
  identifiers?: IdentifierStyle;
  /** Alternatives asked for in first-token mode (default 20; vLLM allows 20 unless started with more). */
  topLogprobs: number;
  budget: PromptBudget;
  /** Told of each problem that made a window keep the retriever's order. */
  onWarning?: (message: string) => void;
}

export const DEFAULT_LISTWISE: ListwiseOptions = {
  top: 100, window: 10, stride: 5, mode: 'first-token', topLogprobs: 20, budget: DEFAULT_PROMPT_BUDGET,
};

/** What reranking one issue cost. */
export interface RerankStats {
  /** Requests sent to the model (cache hits not counted). */
  calls: number;
  /** Requests answered from the response cache. */
  cachedCalls: number;
  /** Prompt and generated tokens of the requests sent. */
  inputTokens: number;
  outputTokens: number;
  /** Wall-clock milliseconds of the whole reranking. */
  millis: number;
  /** Windows that kept the retriever's order because the model failed or said nothing usable. */
  fallbackWindows: number;
  windows: number;
}

/**
 * Listwise LLM reranking of a retriever's ranking (SweRank, Reddy et al. 2025: top K = 100,
 * windows of 10, stride 5, bottom to top). Each window's candidates are reordered by the model's
 * answer; candidates below K keep their place. Failures never lose candidates: a window whose
 * request fails after the backend's retries, or whose answer names no candidate, keeps its
 * order, a warning is given, and after a failed request the remaining windows of the issue are
 * skipped (kept as they are) so a dead endpoint costs one round of retries per issue. A deadline
 * (`signal`) that passes stops reranking the same way: the windows done so far are kept.
 */
export class ListwiseReranker {
  readonly options: ListwiseOptions;
  constructor(readonly model: ChatModel, opts: Partial<ListwiseOptions> = {}) {
    this.options = { ...DEFAULT_LISTWISE, ...opts, budget: { ...DEFAULT_LISTWISE.budget, ...opts.budget } };
  }

  /**
   * @param candidates the retriever's ranking, best first (only the first `top` are reordered).
   * @param opts.signal a per-issue deadline: when it aborts, the call in flight is abandoned and
   *   the remaining windows keep their order (with a warning).
   * @returns the new order (a permutation of `candidates`) and what it cost.
   */
  async rerank(issue: string, candidates: readonly RerankCandidate[], opts: { signal?: AbortSignal } = {}): Promise<{ ranking: RerankCandidate[]; stats: RerankStats }> {
    const o = this.options;
    const style: IdentifierStyle = o.identifiers ?? (o.mode === 'first-token' ? 'alpha' : 'numeric');
    const t0 = performance.now();
    const stats: RerankStats = { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, millis: 0, fallbackWindows: 0, windows: 0 };
    const ranking = [...candidates];
    const windows = slidingWindows(Math.min(o.top, ranking.length), o.window, o.stride);
    let broken = false;
    for (const w of windows) {
      stats.windows++;
      const slice = ranking.slice(w.start, w.end);
      if (slice.length < 2) continue;
      if (broken) { stats.fallbackWindows++; continue; }
      const messages = windowPrompt(issue, slice, o.mode, style, o.budget);
      let order: number[] | undefined;
      try {
        opts.signal?.throwIfAborted();
        const answer = await this.model.complete({
          messages,
          maxTokens: o.mode === 'first-token' ? 1 : slice.length * 5 + 8,
          topLogprobs: o.mode === 'first-token' ? o.topLogprobs : undefined,
        }, { signal: opts.signal });
        if (this.model instanceof CachedChatModel && this.model.lastWasCached) stats.cachedCalls++;
        else {
          stats.calls++;
          stats.inputTokens += answer.inputTokens;
          stats.outputTokens += answer.outputTokens;
        }
        order = this.orderOf(answer, slice.length, style, w.start);
      } catch (e) {
        broken = true;
        const why = e instanceof DeadlineExceeded ? `${e.message} (reranker ${this.model.id})`
          : e instanceof HttpRequestError || e instanceof Error ? e.message : String(e);
        o.onWarning?.(`reranking stopped, keeping the retriever's order from rank ${w.end} up: ${why}`);
      }
      if (!order) { stats.fallbackWindows++; continue; }
      const reordered = order.map((i) => slice[i]);
      ranking.splice(w.start, slice.length, ...reordered);
    }
    stats.millis = performance.now() - t0;
    return { ranking, stats };
  }

  private readonly warned = new Set<string>();

  /** Warns once per reranker and kind of problem (19 windows an issue would repeat it). */
  private warnOnce(kind: string, message: string): void {
    if (this.warned.has(kind)) return;
    this.warned.add(kind);
    this.options.onWarning?.(message);
  }

  /** The window's new order from an answer, or undefined (keep the order) when it names no candidate. */
  private orderOf(answer: { text: string; firstTokenLogprobs?: { token: string; logprob: number }[] }, n: number, style: IdentifierStyle, start: number): number[] | undefined {
    if (this.options.mode === 'first-token' && answer.firstTokenLogprobs?.length) {
      const { order, named } = orderByFirstToken(answer.firstTokenLogprobs, n, style);
      if (named > 0) return order;
    } else if (this.options.mode === 'first-token') {
      this.warnOnce('no-logprobs', 'the model gave no log-probabilities: first-token ranking reads the generated identifier instead');
    }
    const { order, named } = parsePermutation(answer.text, n, style);
    if (named > 0) return order;
    this.warnOnce('unreadable', `window at rank ${start + 1}: the answer names no candidate ('${answer.text.slice(0, 60).replace(/\s+/g, ' ')}'); its order is kept (warned once)`);
    return undefined;
  }
}
