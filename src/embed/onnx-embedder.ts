import { basename, dirname, resolve } from 'node:path';
import { IssuelocError } from '../errors.js';
import { withPrefix, type EmbedCallOptions, type EmbedPrefixes, type EmbedRole, type Embedder } from './embedder.js';
import { readModelFolder, type ModelFolder, type Pooling } from './model-folder.js';

/** Options of {@link OnnxEmbedder.load}. */
export interface OnnxEmbedderOptions {
  /** Prefixes per role; default: the prompts of the folder's `config_sentence_transformers.json`. */
  prefixes?: Partial<EmbedPrefixes>;
  /** Pooling; default: the folder's `1_Pooling/config.json` (mean when absent). */
  pooling?: Pooling;
  /** Tokens per text (default: min(folder's limit, 1024)); longer texts are truncated. */
  maxTokens?: number;
  /** Texts per forward pass (default 16). */
  batchSize?: number;
  /** ONNX variant when the folder has several (`fp32`, `q8`, `fp16`, …). */
  dtype?: string;
}

/** The parts of @huggingface/transformers used here (the package is optional, so typed locally). */
interface TensorLike { dims: number[]; data: ArrayLike<number | bigint> }
type Tokenizer = (texts: string[], o: { padding: boolean; truncation: boolean; max_length: number }) => Record<string, TensorLike>;
interface Model { (inputs: Record<string, TensorLike>): Promise<Record<string, TensorLike>>; dispose?: () => Promise<void> }
interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  AutoTokenizer: { from_pretrained(name: string, o?: object): Promise<Tokenizer> };
  AutoModel: { from_pretrained(name: string, o?: object): Promise<Model> };
}

/**
 * Loads @huggingface/transformers on first use (an optional dependency).
 * @throws IssuelocError telling how to install it when it is absent.
 */
export async function loadTransformers(): Promise<TransformersModule> {
  const name = '@huggingface/transformers';
  try {
    return (await import(name)) as TransformersModule;
  } catch (e) {
    throw new IssuelocError(`--embedder onnx: needs the optional package ${name} (npm install ${name}): ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * A local ONNX bi-encoder run by @huggingface/transformers (onnxruntime-node, CPU) with remote
 * loading switched off: the folder is all there is. Text vector = pooling of the model's
 * `last_hidden_state` over the attention mask (mean, CLS or last token, as the folder's
 * sentence-transformers pooling config says; Reimers & Gurevych 2019). CodeRankEmbed (Suresh et
 * al. 2024, SweRank's retriever) uses CLS pooling and the query prefix
 * `Represent this query for searching relevant code: `, both read from its export.
 */
export class OnnxEmbedder implements Embedder {
  readonly id: string;
  readonly name: string;
  readonly batchSize: number;

  private constructor(
    readonly folder: ModelFolder,
    private readonly tokenizer: Tokenizer,
    private readonly model: Model,
    private readonly prefixes: EmbedPrefixes,
    private readonly pooling: Pooling,
    private readonly maxTokens: number,
    batchSize: number,
  ) {
    this.batchSize = batchSize;
    this.id = `onnx:${basename(folder.dir)}@${folder.fingerprint}|${folder.dtype}|${pooling}|t=${maxTokens}|q=${prefixes.query}|d=${prefixes.document}`;
    this.name = `onnx:${folder.dir}`;
  }

  /**
   * Reads the folder, then loads tokenizer and model.
   * @throws IssuelocError for a missing or incomplete folder (naming what is missing), a missing
   *   optional package, or a model that onnxruntime cannot load.
   */
  static async load(dir: string, opts: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
    const abs = resolve(dir);
    const folder = readModelFolder(abs, opts.dtype);
    const tf = await loadTransformers();
    tf.env.allowRemoteModels = false;
    tf.env.allowLocalModels = true;
    tf.env.localModelPath = dirname(abs);
    const name = basename(abs);
    let tokenizer: Tokenizer, model: Model;
    try {
      tokenizer = await tf.AutoTokenizer.from_pretrained(name, { local_files_only: true });
      model = await tf.AutoModel.from_pretrained(name, {
        local_files_only: true, dtype: folder.dtype, subfolder: folder.subfolder,
        ...(folder.externalData ? { use_external_data_format: true } : {}),
      });
    } catch (e) {
      throw new IssuelocError(`cannot load the model in ${abs}: ${(e as Error).message.split('\n')[0]}`);
    }
    const prefixes = { query: opts.prefixes?.query ?? folder.prefixes.query, document: opts.prefixes?.document ?? folder.prefixes.document };
    const maxTokens = opts.maxTokens ?? Math.min(folder.maxTokens, 1024);
    return new OnnxEmbedder(folder, tokenizer, model, prefixes, opts.pooling ?? folder.pooling, maxTokens, opts.batchSize ?? 16);
  }

  /** Vectors as pooled (checked by the caller); the signal is looked at between forward passes. */
  async embed(texts: readonly string[], role: EmbedRole, call: EmbedCallOptions = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const input = withPrefix(texts, role, this.prefixes);
    for (let i = 0; i < input.length; i += this.batchSize) {
      call.signal?.throwIfAborted();
      const batch = input.slice(i, i + this.batchSize);
      const enc = this.tokenizer(batch, { padding: true, truncation: true, max_length: this.maxTokens });
      const feeds: Record<string, TensorLike> = { input_ids: enc.input_ids, attention_mask: enc.attention_mask };
      if (enc.token_type_ids) feeds.token_type_ids = enc.token_type_ids;
      const res = await this.model(feeds);
      const hidden = res.last_hidden_state ?? res.token_embeddings;
      if (!hidden) throw new IssuelocError(`model in ${this.folder.dir} gives no last_hidden_state (outputs: ${Object.keys(res).join(', ')})`);
      out.push(...poolTokens(hidden, enc.attention_mask, this.pooling));
    }
    return out;
  }

  async close(): Promise<void> {
    await this.model.dispose?.();
  }
}

/**
 * Text vectors from token vectors `hidden` [batch × seq × dim] and the 0/1 `mask` [batch × seq]:
 * the mean of the unmasked tokens, the first token (CLS), or the last unmasked token.
 */
export function poolTokens(hidden: TensorLike, mask: TensorLike, pooling: Pooling): Float32Array[] {
  const [b, s, d] = hidden.dims;
  const h = hidden.data as ArrayLike<number>;
  const m = mask.data;
  const out: Float32Array[] = [];
  for (let i = 0; i < b; i++) {
    const v = new Float32Array(d);
    if (pooling === 'cls') {
      for (let k = 0; k < d; k++) v[k] = h[i * s * d + k];
    } else if (pooling === 'last') {
      let last = 0;
      for (let t = 0; t < s; t++) if (Number(m[i * s + t]) !== 0) last = t;
      for (let k = 0; k < d; k++) v[k] = h[(i * s + last) * d + k];
    } else {
      let n = 0;
      for (let t = 0; t < s; t++) {
        if (Number(m[i * s + t]) === 0) continue;
        n++;
        const base = (i * s + t) * d;
        for (let k = 0; k < d; k++) v[k] += h[base + k];
      }
      if (n > 0) for (let k = 0; k < d; k++) v[k] /= n;
    }
    out.push(v);
  }
  return out;
}
