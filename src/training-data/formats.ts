/**
 * The files `export-training` writes, one layout per training library, each with a validator that
 * every row passes before the file is renamed into place.
 *
 * - `issueloc` (the default): {@link ContrastiveExample} as mined, with ids, commit and rank beside
 *   the texts; our own record, not any library's input (its id keys would be read as texts).
 * - `sentence-transformers` (v3+, `SentenceTransformerTrainer` + `MultipleNegativesRankingLoss`):
 *   string columns only, `anchor, positive, negative_1 … negative_n` (`negative` when n = 1). The
 *   trainer takes columns by position, every column not named `label` or `score` being an input
 *   (docs/sentence_transformer/training_overview.md, "Dataset Format", of
 *   github.com/UKPLab/sentence-transformers), so a row holds nothing else. The loss accepts pairs,
 *   triplets and `(anchor, positive, negative_1, …, negative_n)` n-tuples (its docstring, and
 *   docs/sentence_transformer/loss_overview.md); we write n-tuples, one row per positive, all of the
 *   issue's hard negatives in the row: each step then scores the positive against every mined
 *   negative of its issue (SweRank's InfoNCE over mined negatives), where triplets (one row per
 *   positive × negative) would, under the recommended `BatchSamplers.NO_DUPLICATES` sampler, put
 *   the rows of one issue in different batches and show one hard negative per step. The loss's
 *   docstring recommends its default (query → document) form for n-tuples. It is also the layout of
 *   `sentence_transformers.util.mine_hard_negatives(output_format="n-tuple")`. Every row must have
 *   the same columns (one Arrow table), so an issue with fewer than n hard negatives is dropped.
 * - `flagembedding` (FlagEmbedding's `finetune.embedder` data): one row per issue,
 *   `{"query": str, "pos": [str], "neg": [str]}`; the optional `pos_scores`, `neg_scores` (teacher
 *   scores for distillation), `prompt` (overrides `--query_instruction_for_retrieval`) and `type`
 *   (bge-en-icl) are not written (examples/finetune/embedder/README.md, "Data format", of
 *   github.com/FlagOpen/FlagEmbedding). Its loader samples `train_group_size - 1` negatives from
 *   `neg`, repeating them when there are fewer, and fails on an empty `neg`
 *   (FlagEmbedding/abc/finetune/embedder/AbsDataset.py), so an issue without one is dropped.
 *
 * Texts, for both libraries: the query is the issue text without any prefix (both libraries add
 * the model's query instruction themselves: sentence-transformers' `prompts={"anchor": …}`
 * training argument, FlagEmbedding's `--query_instruction_for_retrieval`; written into the data
 * it would be added twice), and each document is the function's text exactly as the retriever
 * embeds it (`path\ncode`, cut at the same length). Strings are made well-formed UTF-16 (a lone
 * surrogate, left by a cut inside a pair, becomes U+FFFD): Arrow's JSON reader, under `datasets.load_dataset('json')`, is built on
 * RapidJSON, which refuses the escape `\ud83d` without its pair ("The surrogate pair in string is
 * invalid"), and a lone low surrogate is not UTF-8.
 *
 * SweRank's own mined data (SweLoc), for comparison: one row per (issue, positive function),
 * `{query, positive_code, negative_codes: [str], negative_code_rank, positive_code_rank, …}`
 * (src/repo_negative_mining.py of the SweRank code), a layout only its own scripts read.
 */
import type { ContrastiveExample, DroppedIssue, ListwiseExample } from './examples.js';

/** The layouts of the contrastive file (`--format`). */
export const CONTRASTIVE_FORMATS = ['issueloc', 'sentence-transformers', 'flagembedding'] as const;
export type ContrastiveFormat = (typeof CONTRASTIVE_FORMATS)[number];

/** A sentence-transformers row: `anchor`, `positive`, then `negative` or `negative_1 … negative_n`, all strings. */
export type SentenceTransformersRow = Record<string, string>;

/** A FlagEmbedding row. */
export interface FlagEmbeddingRow {
  query: string;
  pos: string[];
  neg: string[];
}

/** What a row of each format must hold beyond its shape. */
export interface FormatLimits {
  /** Hard negatives asked for (`--negatives`, ≥ 1): exactly this many per sentence-transformers row, 1 … this many elsewhere. */
  negatives: number;
}

/** The negative columns of a sentence-transformers row with `n` hard negatives, in order. */
export function negativeColumns(n: number): string[] {
  return n === 1 ? ['negative'] : Array.from({ length: n }, (_, k) => `negative_${k + 1}`);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `s` with every lone surrogate replaced by U+FFFD (what a UTF-8 encoder writes for it). */
export function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * The rows of the contrastive file in `format`, in example order, and the issues the format
 * cannot hold (sentence-transformers: fewer hard negatives than `limits.negatives`; FlagEmbedding
 * and sentence-transformers: none at all), with the reason. Texts are taken as they are
 * (`exportTraining` makes them well-formed).
 */
export function contrastiveRows(
  examples: readonly ContrastiveExample[],
  format: ContrastiveFormat,
  limits: FormatLimits,
): { rows: object[]; dropped: DroppedIssue[] } {
  if (format === 'issueloc') return { rows: [...examples], dropped: [] };
  const rows: object[] = [];
  const dropped: DroppedIssue[] = [];
  for (const e of examples) {
    if (e.neg.length === 0) {
      dropped.push({ issue_id: e.issue_id, reason: `${format}: no hard negative (the retriever ranked no other function)` });
      continue;
    }
    if (format === 'flagembedding') {
      rows.push({ query: e.query, pos: [...e.pos], neg: [...e.neg] } satisfies FlagEmbeddingRow);
      continue;
    }
    if (e.neg.length < limits.negatives) {
      dropped.push({ issue_id: e.issue_id, reason: `sentence-transformers: ${e.neg.length} hard negatives, every row needs ${limits.negatives} (--negatives)` });
      continue;
    }
    const columns = negativeColumns(limits.negatives);
    for (const pos of e.pos) {
      const row: SentenceTransformersRow = { anchor: e.query, positive: pos };
      columns.forEach((c, k) => { row[c] = e.neg[k]; });
      rows.push(row);
    }
  }
  return { rows, dropped };
}

/** A row that breaks its format: thrown by the validators (a bug of the export, never bad input). */
export class TrainingFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrainingFormatError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks one row: its keys exactly `keys` (in order when `ordered`), with `optional` ones allowed. */
function checkKeys(row: unknown, keys: readonly string[], where: string, opts: { ordered?: boolean; optional?: readonly string[] } = {}): Record<string, unknown> {
  if (!isObject(row)) throw new TrainingFormatError(`${where}: not a JSON object`);
  const got = Object.keys(row);
  const optional = opts.optional ?? [];
  const extra = got.filter((k) => !keys.includes(k) && !optional.includes(k));
  const missing = keys.filter((k) => !got.includes(k));
  if (extra.length || missing.length) {
    throw new TrainingFormatError(`${where}: keys ${JSON.stringify(got)}, expected ${JSON.stringify(keys)}${optional.length ? ` (optional ${JSON.stringify(optional)})` : ''}`);
  }
  if (opts.ordered && got.join('\0') !== keys.join('\0')) throw new TrainingFormatError(`${where}: columns ${JSON.stringify(got)} out of order, expected ${JSON.stringify(keys)}`);
  return row;
}

function checkText(v: unknown, where: string): void {
  if (typeof v !== 'string') throw new TrainingFormatError(`${where}: not a string`);
  if (v.trim() === '') throw new TrainingFormatError(`${where}: empty string`);
  if (wellFormed(v) !== v) throw new TrainingFormatError(`${where}: lone surrogate (not well-formed UTF-16)`);
}

function checkTexts(v: unknown, where: string, min: number, max = Infinity): string[] {
  if (!Array.isArray(v)) throw new TrainingFormatError(`${where}: not a list`);
  if (v.length < min || v.length > max) throw new TrainingFormatError(`${where}: ${v.length} entries, expected ${min === max ? min : `${min} to ${max}`}`);
  v.forEach((s, k) => checkText(s, `${where}[${k}]`));
  return v as string[];
}

const ISSUELOC_KEYS = ['query', 'pos', 'neg', 'pos_ids', 'neg_ids', 'issue_id', 'commit', 'positive_rank'];

/**
 * Checks one row of the contrastive file in `format` (`where` names it in the message).
 *
 * - sentence-transformers: the keys are `anchor, positive, negative…` in that order, exactly
 *   `limits.negatives` negatives, all non-empty well-formed strings;
 * - flagembedding: the keys are `query, pos, neg`; `query` a non-empty string; `pos` and `neg` lists
 *   of non-empty strings, at least one positive, 1 … `limits.negatives` negatives;
 * - issueloc: the keys of {@link ContrastiveExample} (`repo` optional), texts and ids as lists of
 *   non-empty strings of matching lengths, at most `limits.negatives` negatives, a rank ≥ 1.
 *
 * @throws TrainingFormatError naming the row and the key at fault.
 */
export function validateContrastiveRow(row: unknown, format: ContrastiveFormat, limits: FormatLimits, where = 'row'): void {
  const at = `${format} ${where}`;
  if (format === 'sentence-transformers') {
    const r = checkKeys(row, ['anchor', 'positive', ...negativeColumns(limits.negatives)], at, { ordered: true });
    for (const [k, v] of Object.entries(r)) checkText(v, `${at}: ${k}`);
    return;
  }
  if (format === 'flagembedding') {
    const r = checkKeys(row, ['query', 'pos', 'neg'], at);
    checkText(r.query, `${at}: query`);
    checkTexts(r.pos, `${at}: pos`, 1);
    checkTexts(r.neg, `${at}: neg`, 1, limits.negatives);
    return;
  }
  const r = checkKeys(row, ISSUELOC_KEYS, at, { optional: ['repo'] });
  checkText(r.query, `${at}: query`);
  const pos = checkTexts(r.pos, `${at}: pos`, 1);
  const neg = checkTexts(r.neg, `${at}: neg`, 0, limits.negatives);
  checkTexts(r.pos_ids, `${at}: pos_ids`, pos.length, pos.length);
  checkTexts(r.neg_ids, `${at}: neg_ids`, neg.length, neg.length);
  checkText(r.issue_id, `${at}: issue_id`);
  checkText(r.commit, `${at}: commit`);
  if (r.repo !== undefined) checkText(r.repo, `${at}: repo`);
  if (!Number.isInteger(r.positive_rank) || (r.positive_rank as number) < 1) throw new TrainingFormatError(`${at}: positive_rank is not a whole number ≥ 1`);
}

const LISTWISE_KEYS = ['issue_id', 'query', 'candidates', 'positive_ids', 'target', 'permutation', 'messages'];

/**
 * Checks one row of the listwise file ({@link ListwiseExample}): its keys; a non-empty window of
 * candidates `{identifier, id, text}` with distinct identifiers; positives among the candidates;
 * the target the identifier of the first positive; a permutation naming every candidate once,
 * the target first; chat messages `{role, content}` ending with the assistant's answer, the target.
 *
 * @throws TrainingFormatError naming the row and the key at fault.
 */
export function validateListwiseRow(row: unknown, where = 'row'): void {
  const at = `listwise ${where}`;
  const r = checkKeys(row, LISTWISE_KEYS, at);
  checkText(r.issue_id, `${at}: issue_id`);
  checkText(r.query, `${at}: query`);
  if (!Array.isArray(r.candidates) || r.candidates.length === 0) throw new TrainingFormatError(`${at}: candidates is not a non-empty list`);
  const candidates = r.candidates.map((c, k) => {
    const x = checkKeys(c, ['identifier', 'id', 'text'], `${at}: candidates[${k}]`);
    for (const key of ['identifier', 'id', 'text']) checkText(x[key], `${at}: candidates[${k}].${key}`);
    return x as { identifier: string; id: string; text: string };
  });
  const identifiers = candidates.map((c) => c.identifier);
  if (new Set(identifiers).size !== identifiers.length) throw new TrainingFormatError(`${at}: candidate identifiers repeat`);
  const positives = checkTexts(r.positive_ids, `${at}: positive_ids`, 1);
  const ids = candidates.map((c) => c.id);
  if (positives.some((p) => !ids.includes(p))) throw new TrainingFormatError(`${at}: a positive id is not a candidate`);
  checkText(r.target, `${at}: target`);
  const first = candidates.find((c) => positives.includes(c.id));
  if (r.target !== first?.identifier) throw new TrainingFormatError(`${at}: target ${JSON.stringify(r.target)} is not the identifier of the first positive`);
  checkText(r.permutation, `${at}: permutation`);
  const order = (r.permutation as string).split(' > ').map((s) => /^\[(.+)\]$/.exec(s)?.[1]);
  if (order[0] !== r.target || order.length !== identifiers.length || [...order].sort().join('\0') !== [...identifiers].sort().join('\0')) {
    throw new TrainingFormatError(`${at}: permutation does not name every candidate once, the target first`);
  }
  if (!Array.isArray(r.messages) || r.messages.length < 2) throw new TrainingFormatError(`${at}: messages is not a list of at least 2`);
  r.messages.forEach((m, k) => {
    const x = checkKeys(m, ['role', 'content'], `${at}: messages[${k}]`);
    if (!['system', 'user', 'assistant'].includes(x.role as string)) throw new TrainingFormatError(`${at}: messages[${k}].role ${JSON.stringify(x.role)}`);
    checkText(x.content, `${at}: messages[${k}].content`);
  });
  const last = r.messages.at(-1) as { role: string; content: string };
  if (last.role !== 'assistant' || last.content !== r.target) throw new TrainingFormatError(`${at}: the last message is not the assistant's answer, the target`);
}

/**
 * The JSONL text of `rows`, each line parsed back and checked by `check` (so what is checked is
 * what a loader reads): the text to hand to an atomic write.
 *
 * @throws TrainingFormatError from `check`, naming the 1-based line.
 */
export function checkedJsonl(rows: readonly unknown[], check: (row: unknown, where: string) => void): string {
  const lines = rows.map((r) => JSON.stringify(r));
  lines.forEach((l, i) => check(JSON.parse(l), `line ${i + 1}`));
  return lines.join('\n') + (lines.length > 0 ? '\n' : '');
}

/** {@link checkedJsonl} for the contrastive file in `format`. */
export function contrastiveJsonl(rows: readonly unknown[], format: ContrastiveFormat, limits: FormatLimits): string {
  return checkedJsonl(rows, (row, where) => validateContrastiveRow(row, format, limits, where));
}

/** {@link checkedJsonl} for the listwise file. */
export function listwiseJsonl(rows: readonly ListwiseExample[]): string {
  return checkedJsonl(rows, validateListwiseRow);
}
