import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { IssuelocError } from '../errors.js';
import { requireParts } from '../util/optional-packages.js';
import { PromptTooLongError, type ChatAnswer, type ChatCallOptions, type ChatMessage, type ChatModel, type ChatRequest, type TokenLogprob } from './chat-model.js';

/** The parts of node-llama-cpp v3 used here (an optional package, so typed locally). */
type Token = number;
interface Sequence {
  evaluateWithMetadata(tokens: Token[], meta: { probabilities: true }, opts: { temperature: number }): AsyncGenerator<{ token: Token; probabilities: Map<Token, number> }, void, void>;
  clearHistory(): Promise<void>;
}
interface Model {
  tokenizer: unknown;
  tokenize(text: string, specialTokens?: boolean): Token[];
  detokenize(tokens: readonly Token[]): string;
  isEogToken(t: Token): boolean;
  createContext(o: { contextSize?: number }): Promise<Context>;
  dispose(): Promise<void>;
}
interface Context {
  /** Tokens the context holds (node-llama-cpp: `LlamaContext.contextSize`). */
  readonly contextSize: number;
  getSequence(): Sequence;
  dispose(): Promise<void>;
}
interface ChatWrapper {
  generateContextState(o: { chatHistory: unknown[] }): { contextText: { tokenize(tokenizer: unknown): Token[] } };
}
interface LlamaCppModule {
  getLlama(): Promise<{ loadModel(o: { modelPath: string }): Promise<Model> }>;
  resolveChatWrapper(model: Model): ChatWrapper;
}

/**
 * A local GGUF model run by node-llama-cpp (an optional package: `npm install node-llama-cpp`),
 * one request at a time on one context sequence. The prompt is laid out by the chat template the
 * model's GGUF metadata names; decoding is greedy; for first-token ranking, the probabilities of
 * the whole vocabulary at the first step are read and the likeliest `topLogprobs` returned as
 * natural logs. Token counts are exact (the model's own tokenizer: `model.tokenize`), and the
 * context size is the loaded context's: a prompt that leaves no room for the answer is refused
 * ({@link PromptTooLongError}) rather than evaluated, since node-llama-cpp's context shift would
 * drop its beginning, where the issue is.
 */
export class LlamaCppChatModel implements ChatModel {
  readonly id: string;
  private readonly sequence: Sequence;
  private constructor(
    private readonly model: Model,
    private readonly context: Context,
    private readonly wrapper: ChatWrapper,
    path: string,
  ) {
    this.id = `gguf:${path}`;
    this.sequence = context.getSequence();
  }

  /**
   * @param contextSize tokens of context to allocate (default 8192: a window of 10 functions of
   *   ≤ 512 tokens + the issue; `--rerank-context` sets it).
   * @throws IssuelocError when the file is missing, the package is not installed, or the model does not load.
   */
  static async load(path: string, contextSize = 8192): Promise<LlamaCppChatModel> {
    const abs = resolve(path);
    if (!existsSync(abs)) throw new IssuelocError(`--rerank gguf: model file not found: ${path}`);
    requireParts('--rerank gguf', '--rerank gguf');
    const name = 'node-llama-cpp';
    let mod: LlamaCppModule;
    try {
      mod = (await import(name)) as LlamaCppModule;
    } catch (e) {
      throw new IssuelocError(`--rerank gguf: cannot load ${name}: ${(e as Error).message.split('\n')[0]}`);
    }
    try {
      const llama = await mod.getLlama();
      const model = await llama.loadModel({ modelPath: abs });
      const context = await model.createContext({ contextSize });
      return LlamaCppChatModel.of(mod, model, context, abs);
    } catch (e) {
      throw new IssuelocError(`cannot load GGUF model ${path}: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  /** A model over node-llama-cpp objects already loaded (`load` uses it; tests give fakes of the same shape). */
  static of(mod: Pick<LlamaCppModule, 'resolveChatWrapper'>, model: Model, context: Context, path: string): LlamaCppChatModel {
    return new LlamaCppChatModel(model, context, mod.resolveChatWrapper(model), path);
  }

  /** The prompt's tokens as the chat template lays them out (what {@link complete} evaluates). */
  private promptTokens(messages: readonly ChatMessage[]): Token[] {
    const chatHistory = [
      ...messages.map((m) => (m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content })),
      { type: 'model', response: [] },
    ];
    return this.wrapper.generateContextState({ chatHistory }).contextText.tokenize(this.model.tokenizer);
  }

  /** Tokens of `text` by the model's tokenizer (`model.tokenize(text, false)`: special-token text stays text). */
  async countTokens(text: string): Promise<number> {
    return this.model.tokenize(text, false).length;
  }

  async countPromptTokens(messages: readonly ChatMessage[]): Promise<number> {
    return this.promptTokens(messages).length;
  }

  /** The loaded context's size. */
  async contextTokens(): Promise<number> {
    return this.context.contextSize;
  }

  /**
   * Greedy decoding; the signal is looked at before each generated token.
   * @throws PromptTooLongError when the prompt and `maxTokens` do not fit the context together.
   */
  async complete(req: ChatRequest, call: ChatCallOptions = {}): Promise<ChatAnswer> {
    call.signal?.throwIfAborted();
    const tokens = this.promptTokens(req.messages);
    const size = this.context.contextSize;
    if (tokens.length + req.maxTokens > size) {
      throw new PromptTooLongError(`${this.id}: the prompt's ${tokens.length} tokens and the answer's ${req.maxTokens} do not fit its context of ${size} tokens`, size, tokens.length);
    }
    const sequence = this.sequence;
    const out: Token[] = [];
    let firstTokenLogprobs: TokenLogprob[] | undefined;
    try {
      for await (const step of sequence.evaluateWithMetadata(tokens, { probabilities: true }, { temperature: 0 })) {
        call.signal?.throwIfAborted();
        if (out.length === 0 && req.topLogprobs) {
          firstTokenLogprobs = [...step.probabilities.entries()].slice(0, req.topLogprobs)
            .map(([t, p]) => ({ token: this.model.detokenize([t]), logprob: Math.log(p) }));
        }
        if (this.model.isEogToken(step.token)) break;
        out.push(step.token);
        if (out.length >= req.maxTokens) break;
      }
    } finally {
      await sequence.clearHistory();
    }
    return { text: this.model.detokenize(out), firstTokenLogprobs, inputTokens: tokens.length, outputTokens: out.length };
  }

  async close(): Promise<void> {
    await this.context.dispose();
    await this.model.dispose();
  }
}
