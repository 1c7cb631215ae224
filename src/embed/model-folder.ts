import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import type { EmbedPrefixes } from './embedder.js';

/** How token vectors become one text vector (sentence-transformers `1_Pooling/config.json`). */
export type Pooling = 'mean' | 'cls' | 'last';

/** ONNX file suffix → the `dtype` @huggingface/transformers loads it with. */
const DTYPE_OF_SUFFIX: [string, string][] = [
  ['', 'fp32'], ['_fp16', 'fp16'], ['_quantized', 'q8'], ['_int8', 'int8'], ['_uint8', 'uint8'],
  ['_q4', 'q4'], ['_q4f16', 'q4f16'], ['_bnb4', 'bnb4'],
];

/** What a local model folder holds, read from its files (nothing is loaded yet). */
export interface ModelFolder {
  dir: string;
  /** `onnx` when the model file sits in `onnx/` (transformers.js layout), `''` when at the top. */
  subfolder: string;
  /** The ONNX file chosen (relative to `dir`). */
  onnxFile: string;
  /** dtype matching the file's suffix (`fp32` for `model.onnx`, `q8` for `model_quantized.onnx`, …). */
  dtype: string;
  /** Whether the weights are in external data files (`model.onnx_data`). */
  externalData: boolean;
  pooling: Pooling;
  /** Prompts of `config_sentence_transformers.json` (`query`, and `document`/`passage`), else empty. */
  prefixes: EmbedPrefixes;
  /** Token limit: `sentence_bert_config.json` max_seq_length, else tokenizer `model_max_length` (≤ 8192), else 512. */
  maxTokens: number;
  /**
   * Which of the settings above the folder's files state (false: the default was taken):
   * pooling from `1_Pooling/config.json`, prefixes from `config_sentence_transformers.json`
   * prompts, the token limit from `sentence_bert_config.json` or the tokenizer config.
   */
  states: { pooling: boolean; prefixes: boolean; maxTokens: boolean };
  /** The model id `config.json` records (`_name_or_path`, e.g. `nomic-ai/CodeRankEmbed`), if any. */
  modelName?: string;
  /** Digest of the configuration files and the ONNX file's size: changes when the model does. */
  fingerprint: string;
}

function readJson(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    throw new IssuelocError(`model folder: ${path} is not valid JSON`);
  }
}

/**
 * Reads the layout of a local model folder as exported for transformers.js or by Optimum
 * (`config.json`, `tokenizer.json`, `tokenizer_config.json`, `onnx/model*.onnx` or `model*.onnx`)
 * and the sentence-transformers files beside it (`1_Pooling/config.json`,
 * `config_sentence_transformers.json`, `sentence_bert_config.json`).
 *
 * @param prefer ONNX dtype to pick when several files exist (default: fp32, else the first found
 *   in the order fp32, fp16, q8, int8, uint8, q4, q4f16, bnb4).
 * @throws IssuelocError naming the folder and every missing file when it is not a model folder.
 */
export function readModelFolder(dir: string, prefer?: string): ModelFolder {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new IssuelocError(`model folder not found: ${dir}`);
  const missing: string[] = [];
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) if (!existsSync(join(dir, f))) missing.push(f);
  const found = findOnnx(dir, prefer);
  if (!found) missing.push('onnx/model.onnx (or another model*.onnx)');
  if (missing.length > 0) {
    throw new IssuelocError(`model folder ${dir} is incomplete: missing ${missing.join(', ')} (export it with \`optimum-cli export onnx\` or use a transformers.js model folder)`);
  }
  const { subfolder, file, dtype } = found!;
  const onnxPath = join(dir, subfolder, file);
  const pool = readJson(join(dir, '1_Pooling', 'config.json'));
  const pooling: Pooling = pool?.pooling_mode_cls_token ? 'cls' : pool?.pooling_mode_lasttoken ? 'last' : 'mean';
  const st = readJson(join(dir, 'config_sentence_transformers.json'));
  const prompts = (st?.prompts ?? {}) as Record<string, string>;
  const sbert = readJson(join(dir, 'sentence_bert_config.json'));
  const tok = readJson(join(dir, 'tokenizer_config.json'));
  const tokMax = Number(tok?.model_max_length);
  const sbertMax = Number(sbert?.max_seq_length);
  const statedMax = sbertMax > 0 ? sbertMax : tokMax > 0 && tokMax <= 8192 ? tokMax : undefined;
  const config = readJson(join(dir, 'config.json'));
  const hash = createHash('sha1');
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', '1_Pooling/config.json', 'config_sentence_transformers.json']) {
    const p = join(dir, f);
    if (existsSync(p)) hash.update(f).update(readFileSync(p));
  }
  hash.update(`${subfolder}/${file}:${statSync(onnxPath).size}`);
  return {
    dir, subfolder, onnxFile: join(subfolder, file), dtype,
    externalData: existsSync(`${onnxPath}_data`),
    pooling,
    prefixes: { query: prompts.query ?? '', document: prompts.document ?? prompts.passage ?? '' },
    maxTokens: statedMax ?? 512,
    states: { pooling: pool !== undefined, prefixes: st?.prompts !== undefined, maxTokens: statedMax !== undefined },
    ...(typeof config?._name_or_path === 'string' && config._name_or_path !== '' ? { modelName: config._name_or_path } : {}),
    fingerprint: hash.digest('hex').slice(0, 16),
  };
}

function findOnnx(dir: string, prefer?: string): { subfolder: string; file: string; dtype: string } | undefined {
  for (const subfolder of ['onnx', '']) {
    const at = join(dir, subfolder);
    if (!existsSync(at) || !statSync(at).isDirectory()) continue;
    const names = new Set(readdirSync(at));
    const options = DTYPE_OF_SUFFIX.filter(([suffix]) => names.has(`model${suffix}.onnx`));
    const pick = options.find(([, d]) => d === prefer) ?? options[0];
    if (pick) return { subfolder, file: `model${pick[0]}.onnx`, dtype: pick[1] };
  }
  return undefined;
}
