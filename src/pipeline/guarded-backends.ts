/**
 * An {@link Embedder} or {@link ChatModel} object a program hands to `openLocalizer` in place of a
 * spec is held to the rules of the built-in backends: each call is bounded in time (the
 * endpoint's `timeoutMs`), and anything it throws counts as a backend failure, so a failing
 * embedder leaves lexical ranking and a failing chat model keeps the retriever's order, with a
 * warning, as for an endpoint that is down.
 */
import { EmbedderFailure, type EmbedCallOptions, type EmbedRole, type Embedder } from '../embed/embedder.js';
import type { ChatAnswer, ChatCallOptions, ChatMessage, ChatModel, ChatRequest } from '../llm-rerank/chat-model.js';
import { IssuelocError } from '../errors.js';
import { abortable, DeadlineExceeded } from '../util/deadline.js';

/**
 * `call(signal)`, abandoned when the caller's signal aborts or `ms` pass, whichever is first. The
 * timer keeps the process alive while the call is in flight (a call that never settles must
 * still end in an error, not in an exit with the caller's promise pending) and is cleared after.
 */
async function bounded<T>(signal: AbortSignal | undefined, ms: number, what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new IssuelocError(`${what} gave no answer within ${ms} ms`)), ms);
  const both = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  try {
    return await abortable(Promise.resolve().then(() => call(both)), both);
  } finally {
    clearTimeout(timer);
  }
}

/** `embedder`, its calls bounded by `timeoutMs` and its errors made {@link EmbedderFailure}s. */
export function guardedEmbedder(embedder: Embedder, timeoutMs: number): Embedder {
  const name = embedder.name ?? embedder.id;
  return {
    id: embedder.id,
    name,
    batchSize: embedder.batchSize ?? 32,
    async embed(texts: readonly string[], role: EmbedRole, opts: EmbedCallOptions = {}): Promise<Float32Array[]> {
      try {
        return await bounded(opts.signal, timeoutMs, `embedder ${name}`, (signal) => embedder.embed(texts, role, { ...opts, signal }));
      } catch (e) {
        if (e instanceof DeadlineExceeded || e instanceof EmbedderFailure) throw e;
        throw new EmbedderFailure(e instanceof IssuelocError && e.message.startsWith(`embedder ${name}`) ? e.message : `embedder ${name} failed: ${(e as Error)?.message ?? String(e)}`);
      }
    },
    close: embedder.close && (() => embedder.close!()),
  };
}

/**
 * `model`, its calls bounded by `timeoutMs` and its errors made IssuelocErrors naming it (a
 * PromptTooLongError, an IssuelocError, stays one). Its token counts and context size are passed on, bounded
 * the same way.
 */
export function guardedChatModel(model: ChatModel, timeoutMs: number): ChatModel {
  const count = <T>(what: string, call: ((signal: AbortSignal) => Promise<T | undefined>) | undefined, opts: ChatCallOptions) =>
    call ? bounded(opts.signal, timeoutMs, `chat model ${model.id} (${what})`, call) : Promise.resolve(undefined);
  return {
    id: model.id,
    countTokens: (text: string, opts: ChatCallOptions = {}) =>
      count('countTokens', model.countTokens && ((signal) => model.countTokens!(text, { ...opts, signal })), opts),
    countPromptTokens: (messages: readonly ChatMessage[], opts: ChatCallOptions = {}) =>
      count('countPromptTokens', model.countPromptTokens && ((signal) => model.countPromptTokens!(messages, { ...opts, signal })), opts),
    contextTokens: (opts: ChatCallOptions = {}) =>
      count('contextTokens', model.contextTokens && ((signal) => model.contextTokens!({ ...opts, signal })), opts),
    async complete(req: ChatRequest, opts: ChatCallOptions = {}): Promise<ChatAnswer> {
      try {
        return await bounded(opts.signal, timeoutMs, `chat model ${model.id}`, (signal) => model.complete(req, { ...opts, signal }));
      } catch (e) {
        if (e instanceof DeadlineExceeded || e instanceof IssuelocError) throw e;
        throw new IssuelocError(`chat model ${model.id} failed: ${(e as Error)?.message ?? String(e)}`);
      }
    },
    close: model.close && (() => model.close!()),
  };
}
