/**
 * A tiny ONNX embedding model folder, written by the tests themselves (no download, no Python):
 *
 *   - `onnx/model.onnx`: an ONNX graph (opset 13) encoded here by hand as protobuf (onnx.proto3
 *     field numbers): last_hidden_state = Gather(E, input_ids) · Unsqueeze(Cast(attention_mask)),
 *     where E is a [vocab × 8] float table; mean pooling is done by the embedder. A few KB.
 *   - `tokenizer.json`: a BERT-style WordPiece tokenizer (lower-casing, whitespace/punctuation
 *     split, [CLS] … [SEP] template) over the vocabulary below, as @huggingface/tokenizers reads it.
 *   - `tokenizer_config.json`, `config.json` (model_type bert), `1_Pooling/config.json` (mean),
 *     `config_sentence_transformers.json` (query prompt), as a sentence-transformers export has.
 *
 * E's rows are chosen so that words of one topic point the same way: row of a word in topic t is
 * the unit vector e_t (plus a small per-word offset), so texts about the same topic have high
 * cosine and the ranking of a query is predictable.
 *
 * The `contextual` variant makes each token's vector depend on the whole text, as a real encoder's
 * does: last_hidden_state[t] = (E[id_t] + Σ_u E[id_u] · mask_u) · mask_t, with a non-zero [CLS]
 * row (2 · e_7). Its CLS vector is then E[CLS] + the sum of the text's rows: distinct from the
 * mean, and changed by every word of the text (a prefix included).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DIM = 8;
const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
/** Topic of each word (index of the embedding axis it points along). */
export const TOPICS: Record<string, number> = {
  parse: 0, parser: 0, json: 0, decode: 0, syntax: 0,
  socket: 1, network: 1, timeout: 1, connect: 1, retry: 1,
  render: 2, html: 2, template: 2, page: 2,
  cache: 3, store: 3, evict: 3, memory: 3,
  def: 4, return: 4, self: 4, class: 4,
  represent: 5, query: 5, searching: 5, relevant: 5, code: 5, for: 5, this: 5,
  py: 6, src: 6, pkg: 6,
};
export const VOCAB = [...SPECIAL, ...Object.keys(TOPICS), '(', ')', ':', '.', ',', '/', '=', '_'];

// ---- protobuf writer (proto3 wire format: varint = 0, length-delimited = 2) ----
type Field = [number, number | bigint | string | Uint8Array | Field[]];

function varint(n: bigint): number[] {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}

function encode(fields: Field[]): Uint8Array {
  const parts: number[] = [];
  for (const [no, value] of fields) {
    if (typeof value === 'number' || typeof value === 'bigint') {
      parts.push(...varint(BigInt(no << 3)), ...varint(BigInt(value)));
      continue;
    }
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value instanceof Uint8Array ? value : encode(value);
    parts.push(...varint(BigInt((no << 3) | 2)), ...varint(BigInt(bytes.length)), ...bytes);
  }
  return Uint8Array.from(parts);
}

// onnx.proto field numbers
const FLOAT = 1, INT64 = 7;
const tensor = (name: string, type: number, dims: number[], raw: Uint8Array): Field[] =>
  [...dims.map((d): Field => [1, d]), [2, type], [8, name], [9, raw]];
const valueInfo = (name: string, type: number, dims: (number | string)[]): Field[] => [
  [1, name],
  [2, [[1, [[1, type], [2, dims.map((d): Field => [1, typeof d === 'number' ? [[1, d]] : [[2, d]]])]]]]],
];
const node = (op: string, inputs: string[], outputs: string[], attrs: Field[][] = []): Field[] =>
  [...inputs.map((i): Field => [1, i]), ...outputs.map((o): Field => [2, o]), [3, `${op}_${outputs[0]}`], [4, op], ...attrs.map((a): Field => [5, a])];

/** Row of [CLS] in the contextual variant. */
export const CLS_AXIS = 7;

/**
 * The embedding table: row of word w = e_topic(w) + 0.05 · e_((topic+1+i) mod DIM). Special rows
 * are 0, but for [CLS] = 2 · e_7 when `contextual`.
 */
export function embeddingTable(contextual = false): Float32Array {
  const e = new Float32Array(VOCAB.length * DIM);
  if (contextual) e[VOCAB.indexOf('[CLS]') * DIM + CLS_AXIS] = 2;
  VOCAB.forEach((w, i) => {
    const t = TOPICS[w];
    if (t === undefined) return;
    e[i * DIM + t] = 1;
    e[i * DIM + ((t + 1 + (i % 3)) % DIM)] += 0.05;
  });
  return e;
}

/** The ONNX model bytes (the contextual variant: see the module comment). */
export function onnxModelBytes(contextual = false): Uint8Array {
  const table = embeddingTable(contextual);
  const axes = new BigInt64Array([-1n]);
  const seqAxis = new BigInt64Array([1n]);
  const output = contextual
    ? [
      [1, node('Mul', ['gathered', 'mask_3d'], ['masked'])],
      [1, node('ReduceSum', ['masked', 'seq_axis'], ['total'], [[[1, 'keepdims'], [3, 1], [20, 2]]])],
      [1, node('Add', ['masked', 'total'], ['context'])],
      [1, node('Mul', ['context', 'mask_3d'], ['last_hidden_state'])],
    ] satisfies Field[]
    : [[1, node('Mul', ['gathered', 'mask_3d'], ['last_hidden_state'])]] satisfies Field[];
  const graph: Field[] = [
    [1, node('Gather', ['embeddings', 'input_ids'], ['gathered'])],
    [1, node('Cast', ['attention_mask'], ['mask_f'], [[[1, 'to'], [3, FLOAT], [20, 2]]])],
    [1, node('Unsqueeze', ['mask_f', 'axes'], ['mask_3d'])],
    ...output,
    [2, 'tiny-embedder'],
    [5, tensor('embeddings', FLOAT, [VOCAB.length, DIM], new Uint8Array(table.buffer))],
    [5, tensor('axes', INT64, [1], new Uint8Array(axes.buffer))],
    ...(contextual ? [[5, tensor('seq_axis', INT64, [1], new Uint8Array(seqAxis.buffer))]] satisfies Field[] : []),
    [11, valueInfo('input_ids', INT64, ['batch', 'sequence'])],
    [11, valueInfo('attention_mask', INT64, ['batch', 'sequence'])],
    [12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', DIM])],
  ];
  return encode([[1, 8], [2, 'issueloc-test'], [7, graph], [8, [[1, ''], [2, 13]]]]);
}

/** The tokenizer.json text (WordPiece, BERT normaliser and pre-tokenizer, [CLS] $A [SEP]). */
export function tokenizerJson(): string {
  const vocab = Object.fromEntries(VOCAB.map((w, i) => [w, i]));
  return JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  });
}

export const QUERY_PROMPT = 'Represent this query for searching relevant code: ';

/**
 * Writes the model folder under `dir` (created) and returns it.
 * @param omit files to leave out (to test the "incomplete folder" message, or a folder without
 *   the sentence-transformers files).
 * @param opts `contextual`: the contextual variant; `modelName`: `_name_or_path` in config.json.
 */
export function writeTinyModel(dir: string, omit: string[] = [], opts: { contextual?: boolean; modelName?: string } = {}): string {
  const files: Record<string, string | Uint8Array> = {
    'onnx/model.onnx': onnxModelBytes(opts.contextual),
    'tokenizer.json': tokenizerJson(),
    'tokenizer_config.json': JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 64, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]' }),
    'config.json': JSON.stringify({ ...(opts.modelName ? { _name_or_path: opts.modelName } : {}), model_type: 'bert', hidden_size: DIM, vocab_size: VOCAB.length, max_position_embeddings: 64 }),
    '1_Pooling/config.json': JSON.stringify({ word_embedding_dimension: DIM, pooling_mode_cls_token: false, pooling_mode_mean_tokens: true }),
    'config_sentence_transformers.json': JSON.stringify({ prompts: { query: QUERY_PROMPT, document: '' } }),
  };
  for (const [name, content] of Object.entries(files)) {
    if (omit.includes(name)) continue;
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}
