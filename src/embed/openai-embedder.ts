import { HttpRequestError, joinUrl, postJson, type PostJsonOptions } from '../util/http-json.js';
import { describeValue, EmbedderFailure, withPrefix, type EmbedCallOptions, type EmbedPrefixes, type EmbedRole, type Embedder } from './embedder.js';

/** Options of {@link OpenAIEmbedder}. */
export interface OpenAIEmbedderOptions extends Omit<PostJsonOptions, 'onRetry' | 'signal'> {
  /** Base URL ending in `/v1` (e.g. `http://localhost:8000/v1`); `/embeddings` is appended. */
  url: string;
  /** Model name the server knows (vLLM `--served-model-name`, an Ollama tag, …). */
  model: string;
  /** Prefixes per role (default none). */
  prefixes?: Partial<EmbedPrefixes>;
  /** The preset that set the prefixes (reported, see {@link Embedder.preset}). */
  preset?: { name: string; picked: boolean };
  /** Texts per request (default 32). */
  batchSize?: number;
  /** Characters of each text sent (default 16 000 ≈ 4 000 tokens; servers reject longer inputs). */
  maxChars?: number;
  /** Told of each retry. */
  onRetry?: PostJsonOptions['onRetry'];
  /** Told once per embedder when the server refused a text as too long and it was cut (see {@link OpenAIEmbedder.embed}). */
  onWarning?: (message: string) => void;
}

/** Cuts of one text the server refused as too long before the refusal stands (each cut ≥ halves the excess). */
export const MAX_CUTS = 6;

/**
 * The server's "input too long" refusal in an HTTP 400 (or 413) answer, with the token counts
 * when it gives them: vLLM (`This model's maximum context length is 2048 tokens. However, you
 * requested 3000 tokens in the input for embedding generation. Please reduce the length of the
 * input.`), OpenAI (`… however you requested 9000 tokens …`), TEI (`must have less than 512
 * tokens. Given: 600`). Undefined for any other failure.
 */
export function tooLongRefusal(e: unknown): { limit?: number; given?: number } | undefined {
  if (!(e instanceof HttpRequestError) || (e.status !== 400 && e.status !== 413)) return undefined;
  const m = e.message;
  if (!/context length|too long|too many tokens|less than \d+ tokens|max(?:imum)? context|reduce the length/i.test(m)) return undefined;
  const limit = /(?:context length is|max context|less than|limit of)\s*(\d+)/i.exec(m)?.[1];
  const given = /(?:requested|request has|had at least|given:)\s*(\d+)/i.exec(m)?.[1];
  return { limit: limit ? Number(limit) : undefined, given: given ? Number(given) : undefined };
}

/**
 * `text` cut after a too-long refusal: to the share of its characters the refusal's token counts
 * allow, less 10 % (tokenizers count words and specials unevenly), or to half when the server
 * gave no counts; always shorter than `text`. A pure function of the text and the refusal.
 */
export function cutForRefusal(text: string, refusal: { limit?: number; given?: number }): string {
  const { limit, given } = refusal;
  const share = limit && given && given > limit ? (limit / given) * 0.9 : 0.5;
  return text.slice(0, Math.min(text.length - 1, Math.floor(text.length * share)));
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
  readonly preset?: { name: string; picked: boolean };
  private readonly prefixes: EmbedPrefixes;
  private readonly maxChars: number;
  private warnedCut = false;

  constructor(private readonly opts: OpenAIEmbedderOptions) {
    this.prefixes = { query: opts.prefixes?.query ?? '', document: opts.prefixes?.document ?? '' };
    this.batchSize = opts.batchSize ?? 32;
    this.maxChars = opts.maxChars ?? 16_000;
    this.id = `openai:${opts.url}#${opts.model}|q=${this.prefixes.query}|d=${this.prefixes.document}|c=${this.maxChars}`;
    this.name = `${joinUrl(opts.url, 'embeddings')} (model ${opts.model})`;
    if (opts.preset) this.preset = opts.preset;
  }

  /**
   * Vectors of `texts`, in order. A text the server refuses as too long ({@link tooLongRefusal}:
   * vLLM's HTTP 400 beyond `max_model_len`) is cut ({@link cutForRefusal}) and sent again, up to
   * {@link MAX_CUTS} times, the batch split in halves first to find it; `onWarning` is told once
   * per embedder. The cut depends only on the text and the server's answers, never on the batch
   * it came in, so a text's vector is the same whatever else the cache held.
   * @throws HttpRequestError naming the URL when the server fails (a text still refused after
   *   {@link MAX_CUTS} cuts included); EmbedderFailure when it answers without one list of
   *   numbers per text (null, a string, a non-number inside, a repeated index).
   */
  async embed(texts: readonly string[], role: EmbedRole, call: EmbedCallOptions = {}): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const input = withPrefix(texts, role, this.prefixes).map((t) => (t.length > this.maxChars ? t.slice(0, this.maxChars) : t));
    return this.embedFitting(input, call);
  }

  /** {@link request}, splitting the batch and cutting a refused text as {@link embed} says. */
  private async embedFitting(input: string[], call: EmbedCallOptions): Promise<Float32Array[]> {
    try {
      return await this.request(input, call);
    } catch (e) {
      let refusal = tooLongRefusal(e);
      if (!refusal) throw e;
      if (input.length > 1) {
        const half = Math.ceil(input.length / 2);
        const head = await this.embedFitting(input.slice(0, half), call);
        return [...head, ...await this.embedFitting(input.slice(half), call)];
      }
      let text = input[0];
      let last = e;
      for (let cut = 1; cut <= MAX_CUTS && text.length > 1; cut++) {
        const shorter = cutForRefusal(text, refusal);
        try {
          const vectors = await this.request([shorter], call);
          this.warnCut(text.length, shorter.length, cut);
          return vectors;
        } catch (e2) {
          refusal = tooLongRefusal(e2);
          if (!refusal) throw e2;
          last = e2;
          text = shorter;
        }
      }
      throw last;
    }
  }

  private warnCut(from: number, to: number, cuts: number): void {
    if (this.warnedCut) return;
    this.warnedCut = true;
    this.opts.onWarning?.(
      `embedder ${this.name} refused a text of ${from} characters as longer than the model accepts; ` +
      `texts it refuses are cut (this one to ${to} characters after ${cuts} ${cuts === 1 ? 'cut' : 'cuts'}) and sent again`,
    );
  }

  /** One request for `texts` (prefixed and cut as sent); the vectors in their order. */
  private async request(texts: string[], call: EmbedCallOptions): Promise<Float32Array[]> {
    const url = joinUrl(this.opts.url, 'embeddings');
    const answer = await postJson(url, { model: this.opts.model, input: texts, encoding_format: 'float' }, { ...this.opts, signal: call.signal }) as {
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
