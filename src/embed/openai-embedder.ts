import { IssuelocError } from '../errors.js';
import { joinUrl, postJson, type PostJsonOptions } from '../util/http-json.js';
import { withPrefix, type EmbedPrefixes, type EmbedRole, type Embedder } from './embedder.js';

/** Options of {@link OpenAIEmbedder}. */
export interface OpenAIEmbedderOptions extends Omit<PostJsonOptions, 'onRetry'> {
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
 * llama.cpp server (`--embedding`) and TEI.
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly batchSize: number;
  private readonly prefixes: EmbedPrefixes;
  private readonly maxChars: number;

  constructor(private readonly opts: OpenAIEmbedderOptions) {
    this.prefixes = { query: opts.prefixes?.query ?? '', document: opts.prefixes?.document ?? '' };
    this.batchSize = opts.batchSize ?? 32;
    this.maxChars = opts.maxChars ?? 16_000;
    this.id = `openai:${opts.url}#${opts.model}|q=${this.prefixes.query}|d=${this.prefixes.document}|c=${this.maxChars}`;
  }

  /** @throws IssuelocError naming the URL when the server fails or answers without one vector per text. */
  async embed(texts: readonly string[], role: EmbedRole): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const input = withPrefix(texts, role, this.prefixes).map((t) => (t.length > this.maxChars ? t.slice(0, this.maxChars) : t));
    const url = joinUrl(this.opts.url, 'embeddings');
    const answer = await postJson(url, { model: this.opts.model, input, encoding_format: 'float' }, this.opts) as {
      data?: { index?: number; embedding?: unknown }[];
    };
    const data = answer?.data;
    if (!Array.isArray(data) || data.length !== texts.length) {
      throw new IssuelocError(`${url} answered ${Array.isArray(data) ? data.length : 'no'} embeddings for ${texts.length} texts (model ${this.opts.model})`);
    }
    const out: Float32Array[] = new Array(texts.length);
    data.forEach((d, i) => {
      const at = typeof d.index === 'number' ? d.index : i;
      if (!Array.isArray(d.embedding) || at < 0 || at >= texts.length || out[at]) {
        throw new IssuelocError(`${url} answered a malformed embedding (item ${i}, model ${this.opts.model})`);
      }
      out[at] = Float32Array.from(d.embedding as number[]);
    });
    return out;
  }
}
