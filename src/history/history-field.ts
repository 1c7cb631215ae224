/**
 * History-expanded file documents: per file, the messages of the most recent earlier commits that
 * changed it (a field of the file's history), and the BM25 score of an issue against that field.
 * Earlier = ancestors of the base commit (itself included), so a later commit never enters a
 * base commit's field.
 */
import type { ParsedIssue } from '../text/parsed-issue.js';
import type { HistoryLog } from './history-log.js';
import type { RepoHistory } from './repo-history.js';

/** Options of {@link HistoryField}. */
export interface HistoryFieldOptions {
  /** Messages per file, most recent first (default 20). */
  commits?: number;
  /** Commits changing more files than this count for nothing (default 100, as `RepoHistory`). */
  maxFiles?: number;
  /** BM25 k1 and b (default 1.2, 0.75). */
  k1?: number;
  b?: number;
}

/** The words of every commit message of the log, as postings (built once per log). */
interface MessagePostings {
  /** term → parallel lists of commit (index into the log) and the term's count in its message. */
  postings: Map<string, { commits: Int32Array; tfs: Int32Array }>;
  /** Per commit: its message's length in words. */
  lengths: Int32Array;
}

/** The history fields of one base commit. */
interface FieldAt {
  /** Per commit (index into the log): the files in whose field its message is (absent: none). */
  filesOf: (readonly number[] | undefined)[];
  /** Per file (index into the log's paths): its field's length in words (0: no field). */
  lengths: Float64Array;
  /** Files with a field (N), and their mean field length. */
  size: number;
  avgLength: number;
}

/**
 * The history fields of one repository's files, per base commit (the last 4 kept).
 *
 * Field of file f at base commit B: the message words ({@link HistoryLog.wordsOf}) of the
 * `commits` most recent ancestors of B (committer time, then SHA: the log's canonical order)
 * that changed f and 1 … maxFiles files in all. Cost: the log's message postings once (one pass
 * over its messages); per base commit, one pass over its ancestors' changed files (no word is
 * read); per query, the commit postings of the issue's distinct words. Words in the fields of
 * more than 25% of the files (and more than 50) count for nothing: their idf is near 0.
 */
export class HistoryField {
  private readonly memo = new Map<string, FieldAt>();
  private messages: MessagePostings | undefined;
  /** Per file: the current word's count over its field (0 between words). */
  private scratch: Int32Array | undefined;
  private readonly commits: number;
  private readonly maxFiles: number;
  private readonly k1: number;
  private readonly b: number;

  constructor(private readonly log: HistoryLog, private readonly ancestorsOf: (commit: string) => Uint8Array, opts: HistoryFieldOptions = {}) {
    this.commits = opts.commits ?? 20;
    this.maxFiles = opts.maxFiles ?? 100;
    this.k1 = opts.k1 ?? 1.2;
    this.b = opts.b ?? 0.75;
  }

  private messagePostings(): MessagePostings {
    if (this.messages) return this.messages;
    const lists = new Map<string, { commits: number[]; tfs: number[] }>();
    const lengths = new Int32Array(this.log.size);
    for (let i = 0; i < this.log.size; i++) {
      const words = this.log.wordsOf(i);
      lengths[i] = words.length;
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const [w, n] of tf) {
        let p = lists.get(w);
        if (!p) lists.set(w, (p = { commits: [], tfs: [] }));
        p.commits.push(i);
        p.tfs.push(n);
      }
    }
    const postings = new Map<string, { commits: Int32Array; tfs: Int32Array }>();
    for (const [w, p] of lists) postings.set(w, { commits: Int32Array.from(p.commits), tfs: Int32Array.from(p.tfs) });
    return (this.messages = { postings, lengths });
  }

  private fieldAt(commit: string): FieldAt {
    let f = this.memo.get(commit);
    if (f) return f;
    const ancestors = this.ancestorsOf(commit);
    const { lengths: messageLengths } = this.messagePostings();
    const order = this.log.canonicalOrder();
    const count = new Int32Array(this.log.paths.length);
    const lengths = new Float64Array(this.log.paths.length);
    const filesOf: (number[] | undefined)[] = new Array(this.log.size);
    let size = 0, total = 0;
    for (let k = order.length - 1; k >= 0; k--) {
      const i = order[k];
      if (ancestors[i] !== 1) continue;
      const files = this.log.filesOf(i);
      if (files.length === 0 || files.length > this.maxFiles) continue;
      for (const file of files) {
        if (count[file] >= this.commits) continue;
        if (count[file]++ === 0) size++;
        (filesOf[i] ??= []).push(file);
        lengths[file] += messageLengths[i];
        total += messageLengths[i];
      }
    }
    f = { filesOf, lengths, size, avgLength: size > 0 ? total / size : 0 };
    if (this.memo.size >= 4) this.memo.delete(this.memo.keys().next().value!);
    this.memo.set(commit, f);
    return f;
  }

  /**
   * BM25 (k1, b; idf ln(1 + (N − df + 0.5) / (df + 0.5)), N = files with a field, df = those whose
   * field holds the word) of the issue's distinct words against each file's history field at
   * `commit`; words with df > max(50, N / 4) are left out.
   * @returns path → score (absent = 0).
   * @throws IssuelocError when `commit` is not in the log.
   */
  scores(commit: string, issue: ParsedIssue): Map<string, number> {
    const { filesOf, lengths, size: N, avgLength } = this.fieldAt(commit);
    const { postings } = this.messagePostings();
    const acc = new Map<number, number>();
    const tf = (this.scratch ??= new Int32Array(this.log.paths.length));
    const touched: number[] = [];
    for (const w of new Set(issue.tokens(false))) {
      const p = postings.get(w);
      if (!p) continue;
      for (let j = 0; j < p.commits.length; j++) {
        const files = filesOf[p.commits[j]];
        if (!files) continue;
        for (const file of files) {
          if (tf[file] === 0) touched.push(file);
          tf[file] += p.tfs[j];
        }
      }
      const df = touched.length;
      if (df <= Math.max(50, 0.25 * N)) {
        const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
        for (const file of touched) {
          const t = tf[file];
          const norm = this.k1 * (1 - this.b + (this.b * lengths[file]) / avgLength);
          acc.set(file, (acc.get(file) ?? 0) + (idf * t * (this.k1 + 1)) / (t + norm));
        }
      }
      for (const file of touched) tf[file] = 0;
      touched.length = 0;
    }
    const paths = this.log.paths;
    return new Map([...acc].map(([file, s]) => [paths[file], s]));
  }
}

const fields = new WeakMap<RepoHistory, HistoryField>();

/**
 * {@link HistoryField.scores} over a repository's history (one field set per `RepoHistory`,
 * sharing its per-commit ancestors).
 */
export function historyFieldScores(history: RepoHistory, commit: string, issue: ParsedIssue): Map<string, number> {
  let f = fields.get(history);
  if (!f) fields.set(history, (f = new HistoryField(history.log, (c) => history.at(c).ancestors)));
  return f.scores(commit, issue);
}
