import { DeadlineExceeded } from '../util/deadline.js';
import { HttpRequestError } from '../util/http-json.js';
import type { ChatAnswer, ChatModel } from './chat-model.js';
import { CachedChatModel } from './response-cache.js';
import { orderByFirstToken, parsePermutation, type IdentifierStyle } from './candidate-labels.js';
import { DEFAULT_PROMPT_BUDGET, windowPrompt, type PromptBudget, type PromptLayout, type RerankCandidate, type RerankMode } from './prompt.js';
import { slidingWindows } from './windows.js';

/** Settings of {@link ListwiseReranker}; defaults are SweRank's published ones. */
export interface ListwiseOptions {
  /** Candidates reranked, from the top of the retriever's list (default 100). */
  top: number;
  /** Candidates per window (default 10). */
  window: number;
  /** Step between windows, bottom to top (default 5). */
  stride: number;
  /**
   * `first-token` (default: order by the first token's log-probabilities) or `permutation` (parse
   * `[2] > [1] > …`). First-token mode switches to permutation mode for good when the model's
   * server gives no usable log-probabilities (see {@link ListwiseReranker.mode}).
   */
  mode: RerankMode;
  /** Identifiers: default `alpha` in first-token mode, `numeric` in permutation mode. */
  identifiers?: IdentifierStyle;
  /**
   * How prompts are worded and laid out (default `issueloc`; `swerank`: SweRank's own prompt, with
   * numeric identifiers, for permutation mode). Part of each request, so of the response cache key.
   */
  layout: PromptLayout;
  /** Alternatives asked for in first-token mode (default 20; vLLM allows 20 unless started with another `--max-logprobs`: a lower limit stated in its refusal is used instead). */
  topLogprobs: number;
  budget: PromptBudget;
  /** Told of each problem that made a window keep the retriever's order. */
  onWarning?: (message: string) => void;
}

export const DEFAULT_LISTWISE: ListwiseOptions = {
  top: 100, window: 10, stride: 5, mode: 'first-token', layout: 'issueloc', topLogprobs: 20, budget: DEFAULT_PROMPT_BUDGET,
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
 * First-token mode needs the first token's log-probabilities; the first answer without usable
 * ones (a server that gives none, such as Ollama's OpenAI layer; a thinking model whose first
 * token is `<think>`) or an HTTP 400 refusing the `top_logprobs` asked switches the reranker to
 * permutation mode for its remaining windows and issues, with one warning, and that window is
 * asked again (a refusal stating the server's limit is first retried once with that limit).
 */
export class ListwiseReranker {
  readonly options: ListwiseOptions;
  /** @param opts settings; those left out or undefined are {@link DEFAULT_LISTWISE}'s. */
  constructor(readonly model: ChatModel, opts: Partial<ListwiseOptions> = {}) {
    const given = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) as Partial<ListwiseOptions>;
    this.options = { ...DEFAULT_LISTWISE, ...given, budget: { ...DEFAULT_LISTWISE.budget, ...opts.budget } };
  }

  /**
   * @param candidates the retriever's ranking, best first (only the first `top` are reordered).
   * @param opts.signal a per-issue deadline: when it aborts, the call in flight is abandoned and
   *   the remaining windows keep their order (with a warning).
   * @returns the new order (a permutation of `candidates`) and what it cost.
   */
  async rerank(issue: string, candidates: readonly RerankCandidate[], opts: { signal?: AbortSignal } = {}): Promise<{ ranking: RerankCandidate[]; stats: RerankStats }> {
    const o = this.options;
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
      let order: number[] | undefined;
      try {
        order = await this.windowOrder(issue, slice, w.start, stats, opts.signal);
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

  /** The mode windows are asked in now: `options.mode`, until first-token mode proved unusable with this model. */
  get mode(): RerankMode {
    return this.switchedToPermutation ? 'permutation' : this.options.mode;
  }

  private switchedToPermutation = false;
  /** `top_logprobs` asked for now: `options.topLogprobs`, or the server's stated limit. */
  private topLogprobs: number | undefined;

  /**
   * One window's new order (0-based indexes into `slice`), or undefined (keep the order) when the
   * answer names no candidate. In first-token mode, an answer without log-probabilities that name
   * a candidate (a server that gives none, a thinking model's `<think>`), or a refusal of the
   * `top_logprobs` asked (HTTP 400 naming logprobs: vLLM's `--max-logprobs`), switches this
   * reranker to permutation mode for good and asks the window again; a refusal that states the
   * server's limit is first retried once with that limit.
   * @throws what the model throws otherwise (the caller stops reranking the issue).
   */
  private async windowOrder(issue: string, slice: readonly RerankCandidate[], start: number, stats: RerankStats, signal?: AbortSignal): Promise<number[] | undefined> {
    const o = this.options;
    for (;;) {
      const mode = this.mode;
      const style: IdentifierStyle = o.layout === 'swerank' ? 'numeric' : o.identifiers ?? (mode === 'first-token' ? 'alpha' : 'numeric');
      const topLogprobs = this.topLogprobs ?? o.topLogprobs;
      signal?.throwIfAborted();
      let answer: ChatAnswer;
      try {
        answer = await this.model.complete({
          messages: windowPrompt(issue, slice, mode, style, o.budget, o.layout),
          layout: o.layout,
          maxTokens: mode === 'first-token' ? 1 : slice.length * 5 + 8,
          topLogprobs: mode === 'first-token' ? topLogprobs : undefined,
        }, { signal });
      } catch (e) {
        if (mode !== 'first-token' || !(e instanceof HttpRequestError) || e.status !== 400 || !/logprob/i.test(e.message)) throw e;
        const limit = Number(/max(?:imum)?[ _]allowed:?\s*(\d+)/i.exec(e.message)?.[1] ?? NaN);
        if (this.topLogprobs === undefined && Number.isInteger(limit) && limit >= 1 && limit < topLogprobs) {
          this.topLogprobs = limit;
          o.onWarning?.(`the reranker ${this.model.id} allows at most ${limit} log-probabilities per token: first-token ranking asks for ${limit} instead of ${topLogprobs} (${e.message})`);
        } else {
          this.switchToPermutation(`it refused the log-probabilities asked (${e.message})`);
        }
        continue;
      }
      if (this.model instanceof CachedChatModel && this.model.lastWasCached) stats.cachedCalls++;
      else {
        stats.calls++;
        stats.inputTokens += answer.inputTokens;
        stats.outputTokens += answer.outputTokens;
      }
      if (mode === 'first-token') {
        const { order, named } = orderByFirstToken(answer.firstTokenLogprobs ?? [], slice.length, style);
        if (named > 0) return order;
        this.switchToPermutation(answer.firstTokenLogprobs?.length
          ? `its first token names no candidate ('${oneLine(answer.text)}')`
          : 'it gave no log-probabilities');
        continue;
      }
      const { order, named } = parsePermutation(answer.text, slice.length, style);
      if (named > 0) return order;
      this.warnOnce('unreadable', `window at rank ${start + 1}: the answer names no candidate ('${oneLine(answer.text)}'); its order is kept (warned once)`);
      return undefined;
    }
  }

  /** From now on (this issue's remaining windows and later issues) windows are asked in permutation mode; one warning. */
  private switchToPermutation(why: string): void {
    this.switchedToPermutation = true;
    this.warnOnce('permutation', `first-token reranking does not work with ${this.model.id}: ${why}; switching to permutation mode (the model writes the whole order) for the remaining windows and issues`);
  }

  private readonly warned = new Set<string>();

  /** Warns once per reranker and kind of problem (19 windows an issue would repeat it). */
  private warnOnce(kind: string, message: string): void {
    if (this.warned.has(kind)) return;
    this.warned.add(kind);
    this.options.onWarning?.(message);
  }
}

/** The start of a model's text on one line, for a warning. */
function oneLine(text: string): string {
  return text.slice(0, 60).replace(/\s+/g, ' ');
}
