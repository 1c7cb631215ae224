/**
 * BM25F and per-field BM25 scores of a few chosen documents (the candidates of a ranking), found
 * by binary search in each query term's postings instead of scoring the whole index.
 */
import { defaultBm25fParams, type Bm25fParams, type QueryTerms } from '../retrieve/bm25f.js';
import { averageFieldLengths, type InvertedIndex } from '../index/inverted-index.js';

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
  private readonly norm: Float64Array;
  readonly fields: number;

  constructor(readonly index: InvertedIndex, params: Partial<Bm25fParams> = {}) {
    this.fields = index.fieldNames.length;
    this.params = { ...defaultBm25fParams(this.fields), ...params };
    this.avg = averageFieldLengths(index);
    const b = this.params.b;
    this.bs = typeof b === 'number' ? new Array<number>(this.fields).fill(b) : [...b];
    this.norm = new Float64Array(this.fields);
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
   * Scores document `doc`: out[0] = BM25F+, out[1 + f] = BM25 of field f alone.
   * @param out an array of at least 1 + fields numbers, overwritten.
   */
  score(doc: number, terms: readonly PreparedTerm[], out: Float64Array): void {
    const { fieldLength } = this.index;
    const F = this.fields;
    const { k1, delta, weights } = this.params;
    out.fill(0, 0, F + 1);
    const norm = this.norm;
    for (let f = 0; f < F; f++) {
      norm[f] = this.avg[f] > 0 ? 1 - this.bs[f] + (this.bs[f] * fieldLength[doc * F + f]) / this.avg[f] : 1;
    }
    for (const { termId, weight } of terms) {
      const { doc: postingDoc, tf: postingTf } = this.index.postings(termId);
      let lo = 0, hi = postingDoc.length - 1;
      let p = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const d = postingDoc[mid];
        if (d === doc) { p = mid; break; }
        if (d < doc) lo = mid + 1; else hi = mid - 1;
      }
      if (p < 0) continue;
      let tf = 0;
      for (let f = 0; f < F; f++) {
        const raw = postingTf[p * F + f];
        if (raw === 0) continue;
        const tff = raw / norm[f];
        tf += weights[f] * tff;
        out[1 + f] += weight * (((k1 + 1) * tff) / (k1 + tff));
      }
      if (tf > 0) out[0] += weight * (((k1 + 1) * tf) / (k1 + tf) + delta);
    }
  }
}
