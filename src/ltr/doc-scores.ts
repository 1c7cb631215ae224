/**
 * BM25F and per-field BM25 scores of a few chosen documents (the candidates of a ranking), found
 * by searching each query term's postings for them instead of scoring the whole index.
 */
import { defaultBm25fParams, type Bm25fParams, type QueryTerms } from '../retrieve/bm25f.js';
import { averageFieldLengths, type InvertedIndex } from '../index/inverted-index.js';
import { DocRows, firstAtLeast, passAlongPostings, rowsByDocument } from '../util/sorted-search.js';
import { resolveQuery } from '../retrieve/resolved-query.js';

/** A query term present in the index, with qw(t) · idf(t). */
export interface PreparedTerm {
  termId: number;
  weight: number;
}

/**
 * Scores single documents of an index.
 *
 * - Combined: BM25F+ exactly as `Bm25fScorer` (Robertson, Zaragoza & Taylor 2004, field tfs
 *   normalised and weighted before saturation; Lv & Zhai 2011's δ per matched term), so a
 *   candidate's combined score equals its score in the full ranking with the same parameters.
 * - Per field f: BM25 on that field alone (Robertson & Zaragoza 2009, "The probabilistic
 *   relevance framework: BM25 and beyond", Eq. 3.15 with the field's own length normalisation
 *   b_f, weight 1, δ = 0), the per-field evidence a learned ranker can weigh.
 *
 * idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)) as in `Bm25fScorer`.
 */
export class DocFieldScorer {
  private readonly params: Bm25fParams;
  private readonly avg: Float64Array;
  private readonly bs: number[];
  readonly fields: number;

  constructor(readonly index: InvertedIndex, params: Partial<Bm25fParams> = {}) {
    this.fields = index.fieldNames.length;
    this.params = { ...defaultBm25fParams(this.fields), ...params };
    this.avg = averageFieldLengths(index);
    const b = this.params.b;
    this.bs = typeof b === 'number' ? new Array<number>(this.fields).fill(b) : [...b];
    this.rows = new DocRows(index.docCount);
  }

  /** The query's terms that occur in the index, each with qw · idf. */
  prepare(query: QueryTerms): PreparedTerm[] {
    const { ids, weights, idf } = resolveQuery(this.index, query);
    const out: PreparedTerm[] = [];
    for (let i = 0; i < ids.length; i++) {
      if (ids[i] < 0 || weights[i] <= 0) continue;
      out.push({ termId: ids[i], weight: weights[i] * idf[i] });
    }
    return out;
  }

  /**
   * Scores of documents `docs` for each query of `queries`: for query q, row i of `out[q]` (1 + F
   * numbers from i · (1 + F)) holds document docs[i]'s BM25F+ (column 0) and its BM25 of each
   * field f alone (column 1 + f). The documents holding a term, with their positions in its
   * postings, are found once for all the queries holding the term: by one pass along short
   * postings, else by a galloping search along them in document order; O(terms ×
   * min(postings, documents × log(postings / documents))); each query then visits only those
   * (row, posting) pairs.
   */
  scoreDocs(docs: ArrayLike<number>, queries: readonly (readonly PreparedTerm[])[]): Float64Array[] {
    const { fieldLength } = this.index;
    const F = this.fields;
    const W = F + 1;
    const n = docs.length;
    const { k1, delta, weights } = this.params;
    const norm = new Float64Array(n * F);
    for (let i = 0; i < n; i++) {
      const doc = docs[i];
      for (let f = 0; f < F; f++) {
        norm[i * F + f] = this.avg[f] > 0 ? 1 - this.bs[f] + (this.bs[f] * fieldLength[doc * F + f]) / this.avg[f] : 1;
      }
    }
    const matches = this.matches.clear();
    const rows = this.rows.mark(docs) ? this.rows : undefined;
    // the documents in ascending order (their rows), for a gallop along a term's postings
    let order: Int32Array | undefined;
    const spanOf = new Map<number, number>();
    const out = queries.map(() => new Float64Array(n * W));
    for (let q = 0; q < queries.length; q++) {
      const scores = out[q];
      const terms = queries[q];
      for (let t = 0; t < terms.length; t++) {
        const { termId, weight } = terms[t];
        const { doc, tf: postingTf } = this.index.postings(termId);
        let s = spanOf.get(termId);
        if (s === undefined) {
          s = rows && passAlongPostings(doc.length, n) ? matches.addByPass(doc, rows, n) : matches.addByGallop(doc, docs, (order ??= rows ? rows.order() : rowsByDocument(docs)));
          spanOf.set(termId, s);
        }
        const { row, position } = matches;
        for (let k = matches.start[s], end = matches.start[s + 1]; k < end; k++) {
          const i = row[k];
          const p = position[k];
          let tf = 0;
          for (let f = 0; f < F; f++) {
            const raw = postingTf[p * F + f];
            if (raw === 0) continue;
            const tff = raw / norm[i * F + f];
            tf += weights[f] * tff;
            scores[i * W + 1 + f] += weight * (((k1 + 1) * tff) / (k1 + tff));
          }
          if (tf > 0) scores[i * W] += weight * (((k1 + 1) * tf) / (k1 + tf) + delta);
        }
      }
    }
    return out;
  }

  /** The (row, posting position) pairs of the terms of the last {@link scoreDocs}, in arrays reused by the next. */
  private readonly matches = new TermMatches();
  /** The documents of the last {@link scoreDocs} by document. */
  private readonly rows: DocRows;
}

/**
 * Per term, the rows i of a list of documents whose document docs[i] the term's postings hold,
 * each with its position there: span s is pairs start[s] … start[s + 1] − 1 of `row` and
 * `position`. The arrays grow as needed and are reused from one set of terms to the next.
 */
class TermMatches {
  row = new Int32Array(1024);
  position = new Int32Array(1024);
  /** Span s: pairs start[s] … start[s + 1] − 1 (the first `spans` spans are set). */
  start = new Int32Array(64);
  private spans = 0;

  clear(): this {
    this.spans = 0;
    return this;
  }

  /**
   * Adds the span of a term of postings `postingDoc` (ascending) for `docs`, whose rows `order`
   * lists by ascending document; returns its number. Each search starts where the last one
   * ended and gallops (steps of 1, 2, 4 …) before a binary search.
   */
  addByGallop(postingDoc: ArrayLike<number>, docs: ArrayLike<number>, order: Int32Array): number {
    const s = this.spans;
    let next = this.start[s];
    if (this.row.length < next + order.length) this.grow(next + order.length);
    const { row, position } = this;
    const P = postingDoc.length;
    let lo = 0;
    for (let k = 0; k < order.length && lo < P; k++) {
      const i = order[k];
      const doc = docs[i];
      lo = firstAtLeast(postingDoc, lo, P, doc);
      if (lo < P && postingDoc[lo] === doc) {
        row[next] = i;
        position[next++] = lo;
      }
    }
    return this.close(next);
  }

  /**
   * {@link addByGallop} by one pass along the postings, the `n` documents marked in `rows` (the
   * same pairs in the same order: by ascending document).
   */
  addByPass(postingDoc: ArrayLike<number>, rows: DocRows, n: number): number {
    let next = this.start[this.spans];
    if (this.row.length < next + n) this.grow(next + n);
    const { row, position } = this;
    for (let p = 0; p < postingDoc.length; p++) {
      const i = rows.row(postingDoc[p]);
      if (i < 0) continue;
      row[next] = i;
      position[next++] = p;
    }
    return this.close(next);
  }

  /** Ends the span being added at pair `end`; returns its number. */
  private close(end: number): number {
    const s = this.spans++;
    if (this.start.length < s + 2) {
      const start = new Int32Array(2 * (s + 2));
      start.set(this.start);
      this.start = start;
    }
    this.start[s + 1] = end;
    return s;
  }

  private grow(size: number): void {
    const row = new Int32Array(2 * size);
    row.set(this.row);
    const position = new Int32Array(2 * size);
    position.set(this.position);
    this.row = row;
    this.position = position;
  }
}
