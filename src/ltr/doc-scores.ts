/**
 * BM25F and per-field BM25 scores of a few chosen documents (the candidates of a ranking), found
 * by searching each query term's postings for them instead of scoring the whole index.
 */
import { defaultBm25fParams, type Bm25fParams, type QueryTerms } from '../retrieve/bm25f.js';
import { averageFieldLengths, type InvertedIndex } from '../index/inverted-index.js';
import { firstAtLeast } from '../util/sorted-search.js';

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
  }

  /** The query's terms that occur in the index, each with qw · idf. */
  prepare(query: QueryTerms): PreparedTerm[] {
    const { termIds, docCount } = this.index;
    const out: PreparedTerm[] = [];
    for (const [term, qw] of query) {
      const t = termIds.get(term);
      if (t === undefined || qw <= 0) continue;
      const df = this.index.documentFrequency(t);
      out.push({ termId: t, weight: qw * Math.log(1 + (docCount - df + 0.5) / (df + 0.5)) });
    }
    return out;
  }

  /**
   * Scores of documents `docs` for each query of `queries`: for query q, row i of `out[q]` (1 + F
   * numbers from i · (1 + F)) holds document docs[i]'s BM25F+ (column 0) and its BM25 of each
   * field f alone (column 1 + f). The position of a document in a term's postings is found once
   * for all the queries holding the term, by a galloping search along the postings in document
   * order: O(terms × documents × log(postings / documents)).
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
    // the documents in ascending order (their rows), for the walk along each term's postings
    const order = rowsByDocument(docs);
    const positions = new Map<number, Int32Array>();
    const positionsOf = (termId: number): Int32Array => {
      let at = positions.get(termId);
      if (!at) positions.set(termId, (at = postingPositions(this.index.postings(termId).doc, docs, order)));
      return at;
    };
    return queries.map((terms) => {
      const out = new Float64Array(n * W);
      for (const { termId, weight } of terms) {
        const at = positionsOf(termId);
        const postingTf = this.index.postings(termId).tf;
        for (let i = 0; i < n; i++) {
          const p = at[i];
          if (p < 0) continue;
          let tf = 0;
          for (let f = 0; f < F; f++) {
            const raw = postingTf[p * F + f];
            if (raw === 0) continue;
            const tff = raw / norm[i * F + f];
            tf += weights[f] * tff;
            out[i * W + 1 + f] += weight * (((k1 + 1) * tff) / (k1 + tff));
          }
          if (tf > 0) out[i * W] += weight * (((k1 + 1) * tf) / (k1 + tf) + delta);
        }
      }
      return out;
    });
  }
}

/**
 * The rows i of `docs` by ascending docs[i] (at equal documents, ascending i): one numeric sort of
 * docs[i] · n + i (exact below 2^53), not a sort with a comparator.
 */
export function rowsByDocument(docs: ArrayLike<number>): Int32Array {
  const n = docs.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = docs[i] * n + i;
  keys.sort();
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = keys[k] % n;
  return order;
}

/**
 * Per document docs[i], its position in a term's postings `postingDoc` (ascending), −1 when
 * absent; `order` lists the documents' rows by ascending document. Each search starts where the
 * last one ended and gallops (steps of 1, 2, 4 …) before a binary search.
 */
function postingPositions(postingDoc: ArrayLike<number>, docs: ArrayLike<number>, order: Int32Array): Int32Array {
  const at = new Int32Array(docs.length).fill(-1);
  const P = postingDoc.length;
  let lo = 0;
  for (let k = 0; k < order.length && lo < P; k++) {
    const i = order[k];
    const doc = docs[i];
    lo = firstAtLeast(postingDoc, lo, P, doc);
    if (lo < P && postingDoc[lo] === doc) at[i] = lo;
  }
  return at;
}
