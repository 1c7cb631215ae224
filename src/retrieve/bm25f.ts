import { averageFieldLengths, type InvertedIndex } from '../index/inverted-index.js';

/**
 * Parameters of BM25F+.
 * - `k1`: term-frequency saturation (default 1.2).
 * - `b`: length normalisation per field, 0 (none) … 1 (full); one number for all fields or one per
 *   field in the index's field order (default 0.75).
 * - `delta`: the BM25+ lower bound δ added for every matched term (default 1.0; 0 gives BM25F).
 * - `weights`: boost of each field, in field order (default 1 each).
 */
export interface Bm25fParams {
  k1: number;
  b: number | readonly number[];
  delta: number;
  weights: readonly number[];
}

/** The textbook BM25+ parameters: k1 = 1.2, b = 0.75, δ = 1.0 (Lv & Zhai 2011), equal weights. */
export function defaultBm25fParams(fieldCount: number): Bm25fParams {
  return { k1: 1.2, b: 0.75, delta: 1.0, weights: new Array<number>(fieldCount).fill(1) };
}

/** A query: term → weight (usually the term's frequency in the issue text). */
export type QueryTerms = ReadonlyMap<string, number>;

/**
 * BM25F+ scorer over an {@link InvertedIndex}.
 *
 * Follows Robertson, Zaragoza & Taylor (2004), "Simple BM25 extension to multiple weighted
 * fields": term frequencies are normalised per field and combined BEFORE saturation,
 *
 *   tf̃(t,d) = Σ_f w_f · tf_f(t,d) / (1 − b_f + b_f · len_f(d) / avglen_f)
 *
 * and the lower bound δ of BM25+ (Lv & Zhai 2011, "Lower-bounding term frequency normalization",
 * Eq. 7) is added for every matched term:
 *
 *   score(d, q) = Σ_{t ∈ q, tf̃ > 0} qw(t) · idf(t) · ( (k1 + 1) · tf̃ / (k1 + tf̃) + δ )
 *
 * with idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)) (the non-negative Lucene form).
 * qw(t) is the query weight (the term's count in the issue, as in a Lucene bag-of-words query).
 *
 * Scores are accumulated term by term into one Float32Array over all documents; cost is linear
 * in the postings of the query terms.
 */
export class Bm25fScorer {
  readonly index: InvertedIndex;
  readonly params: Bm25fParams;
  /** inverse of the per-field length norm, per document: w_f / (1 − b + b · len / avglen), D × F. */
  private readonly fieldFactor: Float32Array;
  private readonly scratch: Float32Array;

  constructor(index: InvertedIndex, params: Partial<Bm25fParams> = {}) {
    const F = index.fieldNames.length;
    this.index = index;
    this.params = { ...defaultBm25fParams(F), ...params };
    if (this.params.weights.length !== F) {
      throw new Error(`BM25F needs ${F} field weights (${index.fieldNames.join(', ')}), got ${this.params.weights.length}`);
    }
    const bs = typeof this.params.b === 'number' ? new Array<number>(F).fill(this.params.b) : this.params.b;
    const avg = averageFieldLengths(index);
    const D = index.docCount;
    this.fieldFactor = new Float32Array(D * F);
    for (let d = 0; d < D; d++) {
      for (let f = 0; f < F; f++) {
        const norm = avg[f] > 0 ? 1 - bs[f] + (bs[f] * index.fieldLength[d * F + f]) / avg[f] : 1;
        this.fieldFactor[d * F + f] = this.params.weights[f] / norm;
      }
    }
    this.scratch = new Float32Array(D);
  }

  /** idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf(termId: number): number {
    return idfOf(this.index.documentFrequency(termId), this.index.docCount);
  }

  /**
   * Scores every document for `query`.
   * @returns a Float32Array of length docCount (0 for documents matching no query term). The
   *   array is reused by the next call: copy it to keep it.
   */
  scoreAll(query: QueryTerms): Float32Array {
    const { termIds } = this.index;
    const F = this.index.fieldNames.length;
    const { k1, delta } = this.params;
    const scores = this.scratch;
    scores.fill(0);
    const factor = this.fieldFactor;
    for (const [term, qw] of query) {
      const t = termIds.get(term);
      if (t === undefined || qw <= 0) continue;
      const w = qw * this.idf(t);
      const { doc, tf: postingTf } = this.index.postings(t);
      for (let p = 0; p < doc.length; p++) {
        const d = doc[p];
        let tf = 0;
        const base = p * F;
        const fb = d * F;
        for (let f = 0; f < F; f++) tf += postingTf[base + f] * factor[fb + f];
        if (tf > 0) scores[d] += w * (((k1 + 1) * tf) / (k1 + tf) + delta);
      }
    }
    return scores;
  }
}

/** idf = ln(1 + (N − df + 0.5) / (df + 0.5)) of a term held by `df` of `docCount` (N) documents. */
export function idfOf(df: number, docCount: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/** One scored document. */
export interface Hit {
  doc: number;
  score: number;
}

/**
 * The `k` highest-scoring documents with score > 0, best first; ties keep document order
 * (lower id first, i.e. corpus order: path, then line). A `k` above the number of documents
 * means all of them.
 * The k-th best score is found by selection (O(D) expected), then the documents above it and
 * the first ones at it are kept and sorted: O(D + k log k), the same list a bounded heap gives.
 */
export function topK(scores: Float32Array, k: number): Hit[] {
  k = Math.min(Math.floor(k), scores.length);
  if (!(k > 0)) return [];
  let n = 0;
  for (let d = 0; d < scores.length; d++) {
    const s = scores[d];
    if (s > 0) n++;
    else if (s !== s) return topKByHeap(scores, k); // NaN: no order to select by
  }
  const out: Hit[] = [];
  if (n <= k) {
    for (let d = 0; d < scores.length; d++) if (scores[d] > 0) out.push({ doc: d, score: scores[d] });
  } else {
    const positive = new Float64Array(n);
    for (let d = 0, i = 0; d < scores.length; d++) if (scores[d] > 0) positive[i++] = scores[d];
    const kth = kthLargest(positive, k);
    let atKth = k;
    for (let d = 0; d < scores.length; d++) if (scores[d] > kth) atKth--;
    for (let d = 0; d < scores.length; d++) {
      const s = scores[d];
      if (s > kth) out.push({ doc: d, score: s });
      else if (s === kth && atKth > 0) {
        out.push({ doc: d, score: s });
        atKth--;
      }
    }
  }
  out.sort((a, c) => c.score - a.score || a.doc - c.doc);
  return out;
}

/** The k-th largest value of `xs` (1 ≤ k ≤ length; reorders xs): quickselect, three-way partitions. */
function kthLargest(xs: Float64Array, k: number): number {
  let lo = 0, hi = xs.length - 1;
  const want = k - 1; // index in descending order
  for (;;) {
    if (lo === hi) return xs[lo];
    const a = xs[lo], b = xs[(lo + hi) >> 1], c = xs[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    // [lo, gt) > pivot, [gt, i) === pivot, (lt, hi] < pivot
    let gt = lo, i = lo, lt = hi;
    while (i <= lt) {
      const x = xs[i];
      if (x > pivot) { xs[i] = xs[gt]; xs[gt] = x; gt++; i++; }
      else if (x < pivot) { xs[i] = xs[lt]; xs[lt] = x; lt--; }
      else i++;
    }
    if (want < gt) hi = gt - 1;
    else if (want <= lt) return pivot;
    else lo = lt + 1;
  }
}

/** {@link topK} by a bounded min-heap (O(D log k)): for scores with a NaN, which selection cannot order. */
function topKByHeap(scores: Float32Array, k: number): Hit[] {
  const heapDoc = new Int32Array(k);
  const heapScore = new Float64Array(k);
  let size = 0;
  // "worse" = lower score, or equal score and higher doc id.
  const worse = (i: number, j: number) =>
    heapScore[i] < heapScore[j] || (heapScore[i] === heapScore[j] && heapDoc[i] > heapDoc[j]);
  const swap = (i: number, j: number) => {
    const d = heapDoc[i]; heapDoc[i] = heapDoc[j]; heapDoc[j] = d;
    const s = heapScore[i]; heapScore[i] = heapScore[j]; heapScore[j] = s;
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < size && worse(l, m)) m = l;
      if (r < size && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let d = 0; d < scores.length; d++) {
    const s = scores[d];
    if (s <= 0) continue;
    if (size < k) {
      heapDoc[size] = d; heapScore[size] = s;
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (s > heapScore[0]) {
      heapDoc[0] = d; heapScore[0] = s;
      siftDown(0);
    }
  }
  const out: Hit[] = [];
  for (let i = 0; i < size; i++) out.push({ doc: heapDoc[i], score: heapScore[i] });
  out.sort((a, c) => c.score - a.score || a.doc - c.doc);
  return out;
}
