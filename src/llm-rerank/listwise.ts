import { DeadlineExceeded } from '../util/deadline.js';
import { HttpRequestError } from '../util/http-json.js';
import { PromptTooLongError, type ChatAnswer, type ChatMessage, type ChatModel } from './chat-model.js';
import { CachedChatModel } from './response-cache.js';
import { orderByFirstToken, parsePermutation, type IdentifierStyle } from './candidate-labels.js';
import { DEFAULT_PROMPT_BUDGET, fitWindowPrompt, windowPrompt, type PromptBudget, type PromptLayout, type RerankCandidate, type RerankMode } from './prompt.js';
import { TEMPLATE_TOKENS, tokenCounterOf, type TokenCounter } from './token-counter.js';
import { slidingWindows } from './windows.js';

/** Bounds of a context size given by the user (`contextTokens`, `--rerank-context`): 256 tokens to 10 million. */
export const MIN_CONTEXT_TOKENS = 256;
export const MAX_CONTEXT_TOKENS = 10_000_000;

/** Tokens kept free beyond the answer's `max_tokens` (an end-of-turn token, a stray count). */
export const ANSWER_MARGIN = 16;
/**
 * Share of a context an estimated prompt may fill: 4 characters a token undercounts code (BPE
 * vocabularies give about 3 to 3.5 on code), so estimated prompts keep a margin of 30 %.
 */
export const ESTIMATE_SAFETY = 0.7;
/** Fewest prompt tokens a window is fitted to, however small the context (the request then fails and the window keeps its order). */
const MIN_PROMPT_TOKENS = 64;
/**
 * A server read the prompt cut when it reports at least this many tokens fewer than were sent
 * and less than {@link CUT_SHARE_EXACT} (counted by the model's tokenizer) or
 * {@link CUT_SHARE_ESTIMATED} (estimated) of them.
 */
const CUT_GAP = 64;
const CUT_SHARE_EXACT = 0.97;
const CUT_SHARE_ESTIMATED = 0.85;

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
  /**
   * Upper bounds of each window's prompt (SweRank's); `maxPromptTokens` is lowered further to what
   * the model's context leaves after the answer (see {@link ListwiseReranker.rerank}).
   */
  budget: PromptBudget;
  /**
   * The model's context window in tokens (prompt + answer), for servers that do not report one
   * (Ollama: `--rerank-context`); when given it wins over the backend's own figure (vLLM's
   * `max_model_len`, a GGUF context's size).
   */
  contextTokens?: number;
  /**
   * The context assumed when neither `contextTokens` nor the backend gives one (a preset's: the
   * swerankllm preset's 32 768 tokens, SweRank's); undefined: none, and prompts are fitted to the
   * budget alone.
   */
  defaultContextTokens?: number;
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
 *
 * Prompts fit the model's context: each window's prompt is at most the budget's
 * `maxPromptTokens` and at most the context (`contextTokens`, else the backend's: vLLM's
 * `max_model_len`, a GGUF context; else `defaultContextTokens`, a preset's) less the answer's `max_tokens` and {@link ANSWER_MARGIN};
 * counted by the model's tokenizer when the backend has one (then cut token-exactly by
 * {@link fitWindowPrompt}, in any prompt layout), else estimated (4 characters a token, {@link ESTIMATE_SAFETY} of
 * the room). A refusal as too long (vLLM's 400 "maximum context length") fits the window to the
 * context the refusal states (else 80 % of the last) and asks once more; refused again, the
 * window keeps its order with a warning and reranking goes on. A server that reads fewer prompt
 * tokens than were sent (`usage.prompt_tokens`: Ollama cuts the prompt's beginning, where the
 * issue is, beyond its context, silently) is taken to have a context of what it read: one
 * warning, and the window is asked again within it, as are the windows after it.
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
   * answer names no candidate or the prompt is refused as too long twice. A refusal as too long, or
   * an answer that read the prompt cut, refits the prompt to a smaller context and asks once more
   * (see the class comment). In first-token mode, an answer without log-probabilities that name
   * a candidate (a server that gives none, a thinking model's `<think>`), or a refusal of the
   * `top_logprobs` asked (HTTP 400 naming logprobs: vLLM's `--max-logprobs`), switches this
   * reranker to permutation mode for good and asks the window again; a refusal that states the
   * server's limit is first retried once with that limit.
   * @throws what the model throws otherwise (the caller stops reranking the issue).
   */
  private async windowOrder(issue: string, slice: readonly RerankCandidate[], start: number, stats: RerankStats, signal?: AbortSignal): Promise<number[] | undefined> {
    const o = this.options;
    let refitted = false;
    let reasked = false;
    for (;;) {
      const mode = this.mode;
      const style: IdentifierStyle = o.layout === 'swerank' ? 'numeric' : o.identifiers ?? (mode === 'first-token' ? 'alpha' : 'numeric');
      const topLogprobs = this.topLogprobs ?? o.topLogprobs;
      signal?.throwIfAborted();
      const maxTokens = mode === 'first-token' ? 1 : slice.length * 5 + 8;
      const prompt = await this.windowMessages(issue, slice, mode, style, maxTokens, signal);
      let answer: ChatAnswer;
      try {
        answer = await this.model.complete({
          messages: prompt.messages,
          layout: o.layout,
          maxTokens,
          topLogprobs: mode === 'first-token' ? topLogprobs : undefined,
        }, { signal });
      } catch (e) {
        if (e instanceof PromptTooLongError) {
          if (refitted) {
            o.onWarning?.(`window at rank ${start + 1}: the reranker ${this.model.id} refused its prompt of ${prompt.tokens} tokens as too long again; its order is kept (${e.message})`);
            return undefined;
          }
          refitted = true;
          const current = await this.contextTokens();
          const said = e.contextTokens;
          const next = said !== undefined && (current === undefined || said < current) ? said : Math.floor((current ?? prompt.tokens + maxTokens) * 0.8);
          this.learnedContext = next;
          this.warnOnce('too-long', `the reranker ${this.model.id} refused a prompt of ${prompt.tokens} tokens (${prompt.exact ? 'by its tokenizer' : 'estimated'}) as longer than its context: prompts are now fitted to a context of ${next} tokens (${e.message})`);
          continue;
        }
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
      if (!reasked && readCut(answer.inputTokens, prompt.tokens, prompt.exact)) {
        reasked = true;
        const read = answer.inputTokens;
        this.learnedContext = Math.min(this.learnedContext ?? Infinity, read);
        this.warnOnce('cut', `the reranker ${this.model.id} read only ${read} of the ${prompt.tokens} prompt tokens sent (${prompt.exact ? 'counted by its tokenizer' : 'estimated'}): ` +
          `its server cut the prompt's beginning, where the issue is, without an error (Ollama does beyond its context, 2048 or 4096 tokens by default, and its OpenAI API ignores num_ctx); ` +
          `prompts are now fitted to a context of ${read} tokens. For more, start the server with a larger context (OLLAMA_CONTEXT_LENGTH=8192 ollama serve, or a Modelfile with PARAMETER num_ctx 8192) and pass --rerank-context 8192 (library: rerank.contextTokens)`);
        continue;
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

  /** The model's token counter (probed once). */
  private counter: Promise<TokenCounter> | undefined;
  /** The context the backend reports (asked once). */
  private backendContext: Promise<number | undefined> | undefined;
  /** A context learned from the server's answers (a refusal as too long, a prompt read cut): smaller than the one before. */
  private learnedContext: number | undefined;

  /**
   * The context prompts are fitted to: learned from answers, else `options.contextTokens`, else
   * the backend's, else `options.defaultContextTokens`; undefined when unknown.
   */
  private async contextTokens(): Promise<number | undefined> {
    if (this.learnedContext !== undefined) return this.learnedContext;
    if (this.options.contextTokens !== undefined) return this.options.contextTokens;
    this.backendContext ??= (this.model.contextTokens?.() ?? Promise.resolve(undefined)).catch(() => undefined);
    return (await this.backendContext) ?? this.options.defaultContextTokens;
  }

  /**
   * One window's prompt fitted to the context (see the class comment) and its tokens as counted.
   * Without a tokenizer and a known context, the prompt is {@link windowPrompt}'s with the budget
   * as given (estimated: as before token counting existed).
   */
  private async windowMessages(issue: string, slice: readonly RerankCandidate[], mode: RerankMode, style: IdentifierStyle, maxTokens: number, signal?: AbortSignal): Promise<{ messages: ChatMessage[]; tokens: number; exact: boolean }> {
    const counter = await (this.counter ??= tokenCounterOf(this.model));
    const context = await this.contextTokens();
    let maxPromptTokens = this.options.budget.maxPromptTokens;
    if (context !== undefined) {
      const room = context - maxTokens - ANSWER_MARGIN;
      const fits = counter.exact ? room : Math.floor((room - 3 * TEMPLATE_TOKENS) * ESTIMATE_SAFETY);
      maxPromptTokens = Math.max(MIN_PROMPT_TOKENS, Math.min(maxPromptTokens, fits));
    }
    const budget = { ...this.options.budget, maxPromptTokens };
    if (counter.exact) {
      const fitted = await fitWindowPrompt(issue, slice, mode, style, budget, this.options.layout, counter, signal);
      if (counter.exact) return { messages: fitted.messages, tokens: fitted.promptTokens, exact: true };
    }
    const messages = windowPrompt(issue, slice, mode, style, budget, this.options.layout);
    return { messages, tokens: await counter.prompt(messages, signal), exact: false };
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

/**
 * Whether a server read a prompt cut: it reports (`read`, `usage.prompt_tokens`) at least
 * {@link CUT_GAP} tokens fewer than were `sent` and less than the share that counting errors
 * allow ({@link CUT_SHARE_EXACT}, {@link CUT_SHARE_ESTIMATED}). A server that reports nothing
 * (0) is not suspected.
 */
export function readCut(read: number, sent: number, exact: boolean): boolean {
  return read > 0 && sent - read >= CUT_GAP && read < sent * (exact ? CUT_SHARE_EXACT : CUT_SHARE_ESTIMATED);
}

/** The start of a model's text on one line, for a warning. */
function oneLine(text: string): string {
  return text.slice(0, 60).replace(/\s+/g, ' ');
}
