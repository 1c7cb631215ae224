import { basename, dirname, resolve } from 'node:path';
import { IssuelocError } from '../errors.js';
import { requireParts } from '../util/optional-packages.js';
import { normalize, withPrefix, type EmbedCallOptions, type EmbedPrefixes, type EmbedRole, type Embedder } from './embedder.js';
import { halfToFloat } from './float16.js';
import { readModelFolder, type ModelFolder, type Pooling } from './model-folder.js';
import { detectPreset, GENERIC_PRESET, type EmbedderPreset } from './presets.js';

/** Options of {@link OnnxEmbedder.load}. */
export interface OnnxEmbedderOptions {
  /**
   * The model's conventions (src/embed/presets.ts). A preset given here sets prefixes, pooling,
   * normalisation and token limit over the folder's files; `generic` means the folder's files
   * only. Default: the preset the folder names ({@link detectPreset} on the folder's name and
   * its `config.json` model id), filling only what the folder's files do not state — a
   * CodeRankEmbed export without `1_Pooling/` gets CLS pooling and the query prefix.
   */
  preset?: EmbedderPreset | typeof GENERIC_PRESET;
  /** Prefixes per role (over the preset's); default: the prompts of the folder's `config_sentence_transformers.json`. */
  prefixes?: Partial<EmbedPrefixes>;
  /** Pooling; default: the folder's `1_Pooling/config.json` (mean when absent and no preset). */
  pooling?: Pooling;
  /**
   * Tokens per text, prefix and special tokens included; longer texts are cut by the tokenizer
   * (token-exact). Default: the preset's limit (at most the folder's stated one), else
   * min(folder's limit, 1024).
   */
  maxTokens?: number;
  /** Texts per forward pass (default 16). */
  batchSize?: number;
  /** ONNX variant when the folder has several (`fp32`, `q8`, `fp16`, …). */
  dtype?: string;
}

/** The parts of @huggingface/transformers used here (the package is optional, so typed locally). */
interface TensorLike { dims: number[]; data: ArrayLike<number | bigint>; type?: string }
interface Tokenizer {
  /** One text's encoding, special tokens added, as arrays (`return_tensor: false`). */
  (text: string, o: { return_tensor: false; padding: false; truncation: false }): Record<string, number[]>;
  /** The ids of a text, without special tokens when asked. */
  encode(text: string, o: { add_special_tokens: boolean }): number[];
  pad_token_id?: number | null;
  padding_side?: string;
}
type TensorConstructor = new (type: 'int64', data: BigInt64Array, dims: number[]) => TensorLike;
interface Model { (inputs: Record<string, TensorLike>): Promise<Record<string, TensorLike>>; dispose?: () => Promise<void> }
interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  AutoTokenizer: { from_pretrained(name: string, o?: object): Promise<Tokenizer> };
  AutoModel: { from_pretrained(name: string, o?: object): Promise<Model> };
  Tensor: TensorConstructor;
}

/**
 * Loads @huggingface/transformers on first use (an optional dependency).
 * @throws IssuelocError telling how to install it when it is absent.
 */
export async function loadTransformers(): Promise<TransformersModule> {
  requireParts('--embedder onnx', '--embedder onnx');
  const name = '@huggingface/transformers';
  try {
    return (await import(name)) as TransformersModule;
  } catch (e) {
    throw new IssuelocError(`--embedder onnx: cannot load ${name}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * A local ONNX bi-encoder run by @huggingface/transformers (onnxruntime-node, CPU) with remote
 * loading switched off: the folder is all there is. Text vector = pooling of the model's
 * `last_hidden_state` over the attention mask (mean, CLS or last token, as the folder's
 * sentence-transformers pooling config says; Reimers & Gurevych 2019). CodeRankEmbed (Suresh et
 * al. 2024, SweRank's retriever) uses CLS pooling and the query prefix
 * `Represent this query for searching relevant code: `, read from its export or, for exports
 * without the sentence-transformers files, from the `coderankembed` preset (src/embed/presets.ts).
 */
export class OnnxEmbedder implements Embedder {
  readonly id: string;
  readonly name: string;
  readonly batchSize: number;
  readonly preset?: { name: string; picked: boolean };

  private constructor(
    readonly folder: ModelFolder,
    private readonly tokenizer: Tokenizer,
    private readonly model: Model,
    private readonly Tensor: TensorConstructor,
    readonly settings: OnnxSettings,
    batchSize: number,
  ) {
    const { prefixes, pooling, maxTokens, normalize: unit } = settings;
    this.batchSize = batchSize;
    this.id = `onnx:${basename(folder.dir)}@${folder.fingerprint}|${folder.dtype}|${pooling}|t=${maxTokens}|q=${prefixes.query}|d=${prefixes.document}${unit ? '|n' : ''}`;
    this.name = `onnx:${folder.dir}`;
    if (settings.preset) this.preset = settings.preset;
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
    return new OnnxEmbedder(folder, tokenizer, model, tf.Tensor, onnxSettings(folder, opts), opts.batchSize ?? 16);
  }

  /** Vectors as pooled (checked by the caller); the signal is looked at between forward passes. */
  async embed(texts: readonly string[], role: EmbedRole, call: EmbedCallOptions = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const { prefixes, pooling, maxTokens } = this.settings;
    const input = withPrefix(texts, role, prefixes);
    for (let i = 0; i < input.length; i += this.batchSize) {
      call.signal?.throwIfAborted();
      const batch = input.slice(i, i + this.batchSize);
      const enc = this.encodeBatch(batch, maxTokens);
      const feeds: Record<string, TensorLike> = { input_ids: enc.input_ids, attention_mask: enc.attention_mask };
      if (enc.token_type_ids) feeds.token_type_ids = enc.token_type_ids;
      const res = await this.model(feeds);
      const hidden = res.last_hidden_state ?? res.token_embeddings;
      if (!hidden) throw new IssuelocError(`model in ${this.folder.dir} gives no last_hidden_state (outputs: ${Object.keys(res).join(', ')})`);
      const pooled = poolTokens(hidden, enc.attention_mask, pooling);
      out.push(...(this.settings.normalize ? pooled.map(normalize) : pooled));
    }
    return out;
  }

  /**
   * The model inputs of a batch: each text encoded ({@link truncateEncoding} to `maxTokens`),
   * then padded to the longest (pad token id, on the tokenizer's padding side), as int64 tensors
   * [batch × tokens]. Not the tokenizer's own `truncation: true`: transformers.js cuts the
   * encoding after the special tokens are added, dropping the closing [SEP] or end-of-text token
   * (the token last-token pooling reads), where sentence-transformers cuts the text's tokens only.
   */
  private encodeBatch(batch: string[], maxTokens: number): Record<string, TensorLike> {
    const rows = batch.map((t) => {
      const full = this.tokenizer(t, { return_tensor: false, padding: false, truncation: false });
      return full.input_ids.length <= maxTokens ? full : truncateEncoding(full, this.tokenizer.encode(t, { add_special_tokens: false }), maxTokens);
    });
    const width = Math.max(...rows.map((r) => r.input_ids.length));
    const left = this.tokenizer.padding_side === 'left';
    const pad = this.tokenizer.pad_token_id ?? 0;
    const out: Record<string, TensorLike> = {};
    for (const key of Object.keys(rows[0])) {
      const data = new BigInt64Array(rows.length * width).fill(BigInt(key === 'input_ids' ? pad : 0));
      rows.forEach((r, i) => {
        const values = r[key];
        const at = i * width + (left ? width - values.length : 0);
        for (let k = 0; k < values.length; k++) data[at + k] = BigInt(values[k]);
      });
      out[key] = new this.Tensor('int64', data, [rows.length, width]);
    }
    return out;
  }

  async close(): Promise<void> {
    await this.model.dispose?.();
  }
}

/**
 * A text's encoding `full` (input_ids with the special tokens, attention_mask, … of equal length)
 * cut to `maxTokens` as sentence-transformers and the Python tokenizers cut it: the text's own
 * tokens (`content`, its ids without special tokens) are cut, the special tokens around them
 * ([CLS] … [SEP], … <|endoftext|>) kept. When `content` is not found inside `full` (a template
 * that interleaves), the end is cut.
 */
export function truncateEncoding(full: Record<string, number[]>, content: readonly number[], maxTokens: number): Record<string, number[]> {
  const ids = full.input_ids;
  if (ids.length <= maxTokens) return full;
  let head = -1;
  for (let h = 0; h + content.length <= ids.length && head < 0; h++) {
    if (content.every((id, k) => ids[h + k] === id)) head = h;
  }
  const tail = head < 0 ? 0 : ids.length - head - content.length;
  const start = head < 0 ? 0 : head;
  const keep = Math.max(0, maxTokens - start - tail);
  const cut = (values: number[]) => [...values.slice(0, start + keep), ...values.slice(values.length - tail)].slice(0, maxTokens);
  return Object.fromEntries(Object.entries(full).map(([k, v]) => [k, cut(v)]));
}

/** What an {@link OnnxEmbedder} embeds with. */
export interface OnnxSettings {
  prefixes: EmbedPrefixes;
  pooling: Pooling;
  maxTokens: number;
  normalize: boolean;
  /** The preset that set them, and whether it was picked from the folder's names. */
  preset?: { name: string; picked: boolean };
}

/**
 * The settings of a folder and the options: each from the options, else a named preset, else
 * the folder's files when they state it, else the preset the folder names (picked), else the
 * defaults (no prefix, mean pooling, min(folder's limit, 1024) tokens, as pooled).
 */
export function onnxSettings(folder: ModelFolder, opts: Pick<OnnxEmbedderOptions, 'preset' | 'prefixes' | 'pooling' | 'maxTokens'> = {}): OnnxSettings {
  const named = opts.preset !== undefined && opts.preset !== GENERIC_PRESET ? opts.preset : undefined;
  const picked = opts.preset === undefined ? detectPreset([basename(folder.dir), folder.modelName]) : undefined;
  // picked presets fill only what the folder does not state; a named one goes over the folder
  const over = (stated: boolean) => named ?? (stated ? undefined : picked);
  const prefixSource = over(folder.states.prefixes);
  const poolingSource = over(folder.states.pooling);
  const preset = named ?? picked;
  return {
    prefixes: {
      query: opts.prefixes?.query ?? prefixSource?.prefixes.query ?? folder.prefixes.query,
      document: opts.prefixes?.document ?? prefixSource?.prefixes.document ?? folder.prefixes.document,
    },
    pooling: opts.pooling ?? poolingSource?.pooling ?? folder.pooling,
    maxTokens: opts.maxTokens ?? (preset
      ? Math.min(preset.maxTokens, folder.states.maxTokens ? folder.maxTokens : Infinity)
      : Math.min(folder.maxTokens, 1024)),
    normalize: preset?.normalize ?? false,
    ...(preset ? { preset: { name: preset.name, picked: !named } } : {}),
  };
}

/**
 * Text vectors from token vectors `hidden` [batch × seq × dim] and the 0/1 `mask` [batch × seq]:
 * the mean of the unmasked tokens, the first token (CLS), or the last unmasked token. A float16
 * tensor (`type` `float16`) whose data are the raw IEEE half bits in a Uint16Array — what
 * transformers.js gives where there is no Float16Array (Node 20) — is decoded first.
 */
export function poolTokens(hidden: TensorLike, mask: TensorLike, pooling: Pooling): Float32Array[] {
  const [b, s, d] = hidden.dims;
  const h = hidden.type === 'float16' && hidden.data instanceof Uint16Array
    ? Float32Array.from(hidden.data, halfToFloat)
    : hidden.data as ArrayLike<number>;
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
