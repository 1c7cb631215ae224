import { FIELDS, type CodeIndex } from '../index/code-index.js';
import { averageFieldLengths } from '../index/inverted-index.js';
import type { Bm25fParams, QueryTerms } from './bm25f.js';
import { idfOf, resolveQuery, type ResolvedQuery } from './resolved-query.js';

const PATH = FIELDS.indexOf('path');
const NAME = FIELDS.indexOf('name');
const BODY = FIELDS.indexOf('body');

/**
 * The function part of function-less files (files of top-level code only, classes of fields
 * only: file-level documents without any function-level document, src/index/code-index.ts): the
 * BM25F+ score, on the function level's scale, of the file's whole-file document without its
 * text — the fields every function of a file shares: path, name = the file name (as a file in a
 * language without a grammar is named), body = the path (a function's body starts with its path).
 *
 * That document is not in the function-level index; it is scored with that index's statistics
 * (idf, average field lengths, which it leaves unchanged) and parameters, from the path and name
 * fields of the file-level postings. So a file the issue names by path gets from its path what
 * each function of a named file gets from its own, whether it has functions or not. Its text is
 * counted once, by the file prior: counting it here too (the text cut at 1024 words in the body)
 * cost 1.5 / 2.5 / 0.7 points of file Acc@1/3/5 on SWE-bench Lite (django's migration files, all
 * class attributes, took the top places again: docs/results.md).
 *
 * Cost: per query term, its function-less files; the postings of a term in the file-level index
 * are read on its first query only (its files and gains kept, as the scorers keep theirs).
 */
export class WholeFileScorer {
  private readonly at: Int32Array;
  /** Per function-less file and field: w_f / (1 − b_f + b_f · len_f / avglen_f) of its document. */
  private readonly factor: Float32Array;
  private readonly scores: Float32Array;

  /**
   * @param files the function-less file-level documents (ascending).
   * @param params the function-level BM25F+ parameters (field weights in `FIELDS` order).
   */
  constructor(private readonly codeIndex: CodeIndex, files: Uint32Array, private readonly params: Bm25fParams) {
    const F = FIELDS.length;
    const { fieldLength } = codeIndex.fileIndex;
    const avg = averageFieldLengths(codeIndex.index);
    const bs = typeof params.b === 'number' ? new Array<number>(F).fill(params.b) : params.b;
    this.at = new Int32Array(codeIndex.filePaths.length).fill(-1);
    this.factor = new Float32Array(files.length * F);
    files.forEach((file, i) => {
      this.at[file] = i;
      const pathLength = fieldLength[file * F + PATH];
      const lengths = [];
      lengths[PATH] = pathLength;
      lengths[NAME] = fieldLength[file * F + NAME];
      lengths[BODY] = pathLength;
      for (let f = 0; f < F; f++) {
        const norm = avg[f] > 0 ? 1 - bs[f] + (bs[f] * lengths[f]) / avg[f] : 1;
        this.factor[i * F + f] = params.weights[f] / norm;
      }
    });
    this.scores = new Float32Array(files.length);
  }

  /** Score of each function-less file, in the order given to the constructor (a reused array). */
  scoreAll(query: QueryTerms): Float32Array {
    const { fileIndex, index } = this.codeIndex;
    const scores = this.scores;
    scores.fill(0);
    if (scores.length === 0) return scores;
    const { ids, weights } = resolveQuery(fileIndex, query);
    let fn: ResolvedQuery | undefined;
    for (let i = 0; i < ids.length; i++) {
      const t = ids[i];
      const qw = weights[i];
      if (t < 0 || qw <= 0) continue;
      const { files, gain } = this.gainsOf(t);
      if (files.length === 0) continue;
      // the function level's idf (a term it lacks: df 0)
      fn ??= resolveQuery(index, query);
      const w = qw * (fn.ids[i] >= 0 ? fn.idf[i] : idfOf(0, index.docCount));
      for (let k = 0; k < files.length; k++) scores[files[k]] += w * gain[k];
    }
    return scores;
  }

  /** Per file-level term, its function-less files (their order) and gains, made on the term's first query. */
  private readonly gains = new Map<number, TermGains>();

  /**
   * The function-less files of file-level term `t`'s postings with tf̃ > 0 (as `at` numbers them,
   * in postings order) and each one's (k1 + 1) · tf̃ / (k1 + tf̃) + δ: the query-independent part.
   */
  private gainsOf(t: number): TermGains {
    let g = this.gains.get(t);
    if (g) return g;
    const F = FIELDS.length;
    const { k1, delta } = this.params;
    const { doc, tf: postingTf } = this.codeIndex.fileIndex.postings(t);
    const files: number[] = [];
    const gain: number[] = [];
    for (let p = 0; p < doc.length; p++) {
      const i = this.at[doc[p]];
      if (i < 0) continue;
      const inPath = postingTf[p * F + PATH];
      const tf = inPath * (this.factor[i * F + PATH] + this.factor[i * F + BODY]) + postingTf[p * F + NAME] * this.factor[i * F + NAME];
      if (tf > 0) { files.push(i); gain.push(((k1 + 1) * tf) / (k1 + tf) + delta); }
    }
    this.gains.set(t, (g = { files: Int32Array.from(files), gain: Float64Array.from(gain) }));
    return g;
  }
}

/** A term's function-less files and their gains ({@link WholeFileScorer}). */
interface TermGains {
  files: Int32Array;
  gain: Float64Array;
}
