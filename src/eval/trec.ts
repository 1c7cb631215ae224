/**
 * TREC run and qrels files, so our numbers can be cross-checked with trec_eval
 * (`trec_eval -m all_trec qrels.txt run.txt`).
 *
 * Formats (one record a line, fields separated by one space):
 * - run:   `qid Q0 docid rank score tag` (rank 1-based, score: higher is better)
 * - qrels: `qid 0 docid 1` (binary relevance: only positives are listed)
 *
 * Identifier encoding: trec_eval splits lines on white space, so file paths or function ids with
 * spaces would break a line. Every `%` and every white-space character (JavaScript `\s`: space,
 * tab, newlines, no-break space, …) in a qid or docid is written as its UTF-8 percent-encoding
 * (`' '` → `%20`, `'%'` → `%25`, `'\t'` → `%09`); nothing else changes, so ordinary paths are
 * written verbatim. Run and qrels use the same encoding, so trec_eval matches them; {@link
 * decodeTrecId} is the exact inverse.
 *
 * trec_eval ignores the rank column: it sorts each query by score (descending) and breaks ties by
 * docid. Rankings with tied scores can therefore be evaluated in a different order than ours;
 * `scores: 'rank'` writes `n − rank + 1` instead of the raw score so trec_eval sees our order.
 */
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';

/** One query of a run: its ranking, best first (the shape of `Ranking.items`). */
export interface RunQuery {
  readonly qid: string;
  readonly ranking: readonly { readonly id: string; readonly score: number }[];
}

/** One query of the qrels: the ids it needed changed. */
export interface QrelsQuery {
  readonly qid: string;
  readonly positives: Iterable<string>;
}

/** Options of {@link formatRun} / {@link writeRun}. */
export interface RunOptions {
  /**
   * `'raw'` (default) writes each item's score; `'rank'` writes `n − rank + 1`, strictly
   * decreasing, so trec_eval evaluates exactly our order even where scores tie.
   */
  readonly scores?: 'raw' | 'rank';
  /** Write at most this many items per query (TREC runs often use 1000); default: all. */
  readonly depth?: number;
}

/** What {@link formatRun} / {@link writeRun} wrote. */
export interface RunWriteSummary {
  readonly lines: number;
  readonly queries: number;
  /** Queries whose written scores are not strictly decreasing (trec_eval may reorder them). */
  readonly queriesWithTies: number;
}

/**
 * Encodes a qid or docid for a TREC file: `%` and white space become UTF-8 percent escapes.
 * @throws IssuelocError for an empty id.
 */
export function encodeTrecId(id: string): string {
  if (id.length === 0) throw new IssuelocError('TREC ids must not be empty');
  return id.replace(/[%\s]/gu, (c) => encodeURIComponent(c));
}

/**
 * Inverse of {@link encodeTrecId}.
 * @throws IssuelocError when the token holds a malformed percent escape.
 */
export function decodeTrecId(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    throw new IssuelocError(`malformed percent escape in TREC id '${token}'`);
  }
}

function checkTag(tag: string): void {
  if (!/^\S+$/u.test(tag)) throw new IssuelocError(`run tag must be one word without white space, got '${tag}'`);
}

/**
 * Formats a run in TREC format (see module doc).
 * @param tag the run name in the last column (one word, e.g. `bm25f`).
 * @throws IssuelocError for a bad tag, an empty id, a non-finite score, an id ranked twice in a
 *   query, or a depth that is not a positive integer.
 */
export function formatRun(queries: Iterable<RunQuery>, tag: string, options: RunOptions = {}): { text: string; summary: RunWriteSummary } {
  checkTag(tag);
  const depth = options.depth ?? Number.POSITIVE_INFINITY;
  if (depth !== Number.POSITIVE_INFINITY && (!Number.isInteger(depth) || depth < 1)) {
    throw new IssuelocError(`run depth must be a positive integer, got ${depth}`);
  }
  const out: string[] = [];
  let nQueries = 0;
  let queriesWithTies = 0;
  for (const q of queries) {
    nQueries++;
    const qid = encodeTrecId(q.qid);
    const n = Math.min(q.ranking.length, depth);
    const seen = new Set<string>();
    let prev = Number.POSITIVE_INFINITY;
    let tied = false;
    for (let i = 0; i < n; i++) {
      const { id, score } = q.ranking[i];
      if (!Number.isFinite(score)) throw new IssuelocError(`query ${q.qid}: score of '${id}' is ${score}`);
      if (seen.has(id)) throw new IssuelocError(`query ${q.qid}: '${id}' ranked twice`);
      seen.add(id);
      const written = options.scores === 'rank' ? n - i : score;
      if (!(written < prev)) tied = true;
      prev = written;
      out.push(`${qid} Q0 ${encodeTrecId(id)} ${i + 1} ${written} ${tag}\n`);
    }
    if (tied) queriesWithTies++;
  }
  return { text: out.join(''), summary: { lines: out.length, queries: nQueries, queriesWithTies } };
}

/**
 * Writes a run file atomically (temporary file in the same folder, then rename).
 * @throws IssuelocError as {@link formatRun}; fs errors as thrown by node:fs.
 */
export function writeRun(path: string, queries: Iterable<RunQuery>, tag: string, options: RunOptions = {}): RunWriteSummary {
  const { text, summary } = formatRun(queries, tag, options);
  writeFileAtomic(path, [text]);
  return summary;
}

/**
 * Formats qrels (`qid 0 docid 1`, positives only, duplicates dropped). Queries without
 * positives write no line, so trec_eval skips them as our metrics leave them undefined.
 * @returns the text and the number of queries without positives.
 * @throws IssuelocError for an empty id.
 */
export function formatQrels(queries: Iterable<QrelsQuery>): { text: string; queriesWithoutPositives: number } {
  const out: string[] = [];
  let empty = 0;
  for (const q of queries) {
    const qid = encodeTrecId(q.qid);
    const ids = new Set(q.positives);
    if (ids.size === 0) empty++;
    for (const id of ids) out.push(`${qid} 0 ${encodeTrecId(id)} 1\n`);
  }
  return { text: out.join(''), queriesWithoutPositives: empty };
}

/**
 * Writes a qrels file atomically.
 * @returns the number of queries without positives (written as no line).
 */
export function writeQrels(path: string, queries: Iterable<QrelsQuery>): { queriesWithoutPositives: number } {
  const { text, queriesWithoutPositives } = formatQrels(queries);
  writeFileAtomic(path, [text]);
  return { queriesWithoutPositives };
}

function fields(line: string, n: number, what: string, lineNo: number): string[] {
  const f = line.trim().split(/[ \t]+/);
  if (f.length !== n) throw new IssuelocError(`${what} line ${lineNo}: expected ${n} fields, got ${f.length}`);
  return f;
}

/**
 * Parses a run file's text back into queries (ids decoded, order as in the file).
 * @throws IssuelocError naming the line for a malformed line or score.
 */
export function parseRun(text: string): { tag: string | null; queries: RunQuery[] } {
  const byQid = new Map<string, { id: string; score: number }[]>();
  let tag: string | null = null;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const [qid, , doc, , score, t] = fields(line, 6, 'run', i + 1);
    const s = Number(score);
    if (!Number.isFinite(s)) throw new IssuelocError(`run line ${i + 1}: score '${score}' is not a number`);
    tag ??= t;
    const q = decodeTrecId(qid);
    let list = byQid.get(q);
    if (!list) byQid.set(q, list = []);
    list.push({ id: decodeTrecId(doc), score: s });
  });
  return { tag, queries: [...byQid].map(([qid, ranking]) => ({ qid, ranking })) };
}

/**
 * Parses qrels text into qid → positive ids (lines with relevance ≤ 0 are ignored).
 * @throws IssuelocError naming the line for a malformed line.
 */
export function parseQrels(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const [qid, , doc, rel] = fields(line, 4, 'qrels', i + 1);
    const r = Number(rel);
    if (!Number.isFinite(r)) throw new IssuelocError(`qrels line ${i + 1}: relevance '${rel}' is not a number`);
    if (r <= 0) return;
    const q = decodeTrecId(qid);
    let set = out.get(q);
    if (!set) out.set(q, set = new Set());
    set.add(decodeTrecId(doc));
  });
  return out;
}
