import { joinUrl, postJson, type PostJsonOptions } from '../util/http-json.js';
import { describeValue, EmbedderFailure, withPrefix, type EmbedCallOptions, type EmbedPrefixes, type EmbedRole, type Embedder } from './embedder.js';

/** Options of {@link OpenAIEmbedder}. */
export interface OpenAIEmbedderOptions extends Omit<PostJsonOptions, 'onRetry' | 'signal'> {
  /** Base URL ending in `/v1` (e.g. `http://localhost:8000/v1`); `/embeddings` is appended. */
  url: string;
  /** Model name the server knows (vLLM `--served-model-name`, an Ollama tag, …). */
  model: string;
  /** Prefixes per role (default none). */
  prefixes?: Partial<EmbedPrefixes>;
  /** Texts per request (default 32). */
  batchSize?: number;
  /** Characters of each text sent (default 16 000 ≈ 4 000 tokens; servers reject longer inputs). */
  maxChars?: number;
  /** Told of each retry. */
  onRetry?: PostJsonOptions['onRetry'];
}

/**
 * Embeddings from an OpenAI-compatible `POST <url>/embeddings` endpoint (OpenAI API reference,
 * "Create embeddings"): request `{model, input: string[], encoding_format: "float"}`, answer
 * `{data: [{index, embedding: number[]}]}`. Served by vLLM (`--task embed`), Ollama, the
 * llama.cpp server (`--embedding`) and TEI. Answers are capped at 16 MiB by default
 * (`maxResponseBytes`).
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly name: string;
  readonly batchSize: number;
  private readonly prefixes: EmbedPrefixes;
  private readonly maxChars: number;

  constructor(private readonly opts: OpenAIEmbedderOptions) {
    this.prefixes = { query: opts.prefixes?.query ?? '', document: opts.prefixes?.document ?? '' };
    this.batchSize = opts.batchSize ?? 32;
    this.maxChars = opts.maxChars ?? 16_000;
    this.id = `openai:${opts.url}#${opts.model}|q=${this.prefixes.query}|d=${this.prefixes.document}|c=${this.maxChars}`;
    this.name = `${joinUrl(opts.url, 'embeddings')} (model ${opts.model})`;
  }

  /**
   * @throws HttpRequestError naming the URL when the server fails; EmbedderFailure when it answers
   *   without one list of numbers per text (null, a string, a non-number inside, a repeated index).
   */
  async embed(texts: readonly string[], role: EmbedRole, call: EmbedCallOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const input = withPrefix(texts, role, this.prefixes).map((t) => (t.length > this.maxChars ? t.slice(0, this.maxChars) : t));
    const url = joinUrl(this.opts.url, 'embeddings');
    const answer = await postJson(url, { model: this.opts.model, input, encoding_format: 'float' }, { ...this.opts, signal: call.signal }) as {
      data?: { index?: number; embedding?: unknown }[];
    } | null;
    const bad = (what: string) => new EmbedderFailure(`embedder ${this.name} answered unusable vectors: ${what}`);
    const data = answer?.data;
    if (!Array.isArray(data) || data.length !== texts.length) {
      throw bad(`${Array.isArray(data) ? data.length : 'no'} embeddings for ${texts.length} texts`);
    }
    const out: Float32Array[] = new Array(texts.length);
    data.forEach((d, i) => {
      const at = `answer item ${i + 1} of ${texts.length}`;
      const index = d !== null && typeof d === 'object' && typeof d.index === 'number' ? d.index : i;
      if (!Number.isInteger(index) || index < 0 || index >= texts.length || out[index]) throw bad(`${at} has index ${String(index)}, out of range or repeated`);
      const e = d?.embedding;
      if (!Array.isArray(e)) throw bad(`${at}: the embedding is ${describeValue(e)}, not a list of numbers`);
      const k = e.findIndex((x) => typeof x !== 'number');
      if (k >= 0) throw bad(`${at}: the embedding holds ${JSON.stringify(e[k])?.slice(0, 20) ?? String(e[k])} at dimension ${k + 1}, not a number`);
      out[index] = Float32Array.from(e as number[]);
    });
    return out;
  }
}
