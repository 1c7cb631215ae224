import { averageFieldLengths, type InvertedIndex } from '../index/inverted-index.js';
import { resolveQuery } from './resolved-query.js';

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
  /** Per term scored so far, its postings' documents and {@link gainOf}. */
  private readonly gains = new Map<number, TermGains>();
  /** Calls of {@link scoreAll} so far: its array holds the scores of call number `calls`. */
  calls = 0;

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
    this.fieldFactor = fieldFactors(index.fieldLength, D, avg, bs, this.params.weights);
    this.scratch = new Float32Array(D);
  }

  /**
   * Scores every document for `query`.
   * @returns a Float32Array of length docCount (0 for documents matching no query term). The
   *   array is reused by the next call: copy it to keep it.
   */
  scoreAll(query: QueryTerms): Float32Array {
    const scores = this.scratch;
    this.calls++;
    scores.fill(0);
    const { ids, weights, idf } = resolveQuery(this.index, query);
    for (let i = 0; i < ids.length; i++) {
      const t = ids[i];
      const qw = weights[i];
      if (t < 0 || qw <= 0) continue;
      const w = qw * idf[i];
      const { doc, gain } = this.gainOf(t);
      // a posting of gain 0 (tf̃ = 0) adds 0: the score stays as it is
      for (let p = 0; p < doc.length; p++) scores[doc[p]] += w * gain[p];
    }
    return scores;
  }

  /** The array {@link scoreAll} returns (holding the scores of its last call). */
  scoreAllArray(): Float32Array {
    return this.scratch;
  }

  /**
   * The score of document `doc` for `query`, as {@link scoreAll} gives it (the same float32
   * roundings, term by term in query order): binary search in each term's postings.
   */
  scoreOne(query: QueryTerms, doc: number): number {
    const { ids, weights, idf } = resolveQuery(this.index, query);
    let score = 0;
    for (let i = 0; i < ids.length; i++) {
      const t = ids[i];
      const qw = weights[i];
      if (t < 0 || qw <= 0) continue;
      const { doc: postingDoc, gain } = this.gainOf(t);
      let lo = 0, hi = postingDoc.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (postingDoc[mid] < doc) lo = mid + 1; else hi = mid - 1;
      }
      if (lo < postingDoc.length && postingDoc[lo] === doc) score = Math.fround(score + qw * idf[i] * gain[lo]);
    }
    return score;
  }

  /**
   * The postings' documents of term `t`, and per posting its query-independent part
   * (k1 + 1) · tf̃ / (k1 + tf̃) + δ (0 where tf̃ = 0): computed on the term's first query and kept,
   * as the index keeps its decoded postings.
   */
  private gainOf(t: number): TermGains {
    const kept = this.gains.get(t);
    if (kept) return kept;
    const F = this.index.fieldNames.length;
    const { k1, delta } = this.params;
    const factor = this.fieldFactor;
    const { doc, tf: postingTf } = this.index.postings(t);
    const gain = new Float64Array(doc.length);
    for (let p = 0; p < doc.length; p++) {
      let tf = 0;
      const base = p * F;
      const fb = doc[p] * F;
      for (let f = 0; f < F; f++) tf += postingTf[base + f] * factor[fb + f];
      if (tf > 0) gain[p] = ((k1 + 1) * tf) / (k1 + tf) + delta;
    }
    const out = { doc, gain };
    this.gains.set(t, out);
    return out;
  }
}

/** A term's postings' documents and their gains ({@link Bm25fScorer}). */
interface TermGains {
  doc: Uint32Array;
  gain: Float64Array;
}

/**
 * Per document and field, w_f / (1 − b_f + b_f · len_f / avglen_f) (D × F, float32). One pass per
 * field with its constants in locals: this runs once per loaded index, mostly before the code is
 * compiled, where every property read in the loop costs.
 */
function fieldFactors(lengths: ArrayLike<number>, D: number, avg: Float64Array, bs: readonly number[], weights: readonly number[]): Float32Array {
  const F = avg.length;
  const out = new Float32Array(D * F);
  for (let f = 0; f < F; f++) {
    const a = avg[f];
    const b = bs[f];
    const w = weights[f];
    if (!(a > 0)) {
      for (let i = f; i < D * F; i += F) out[i] = w;
      continue;
    }
    const keep = 1 - b;
    for (let i = f; i < D * F; i += F) out[i] = w / (keep + (b * lengths[i]) / a);
  }
  return out;
}

/** One scored document. */
export interface Hit {
  doc: number;
  score: number;
}

/**
 * A ranking read hit by hit, without an object per hit: {@link next} moves to the next hit, whose
 * document and score `doc` and `score` then hold (until the next call).
 */
export interface HitCursor {
  /** Moves to the next hit; false when there is none left. */
  next(): boolean;
  readonly doc: number;
  readonly score: number;
}

/** A {@link HitCursor} over hits given as objects. */
export function cursorOf(hits: Iterable<Hit>): HitCursor {
  const it = hits[Symbol.iterator]();
  const cursor = {
    doc: -1,
    score: 0,
    next(): boolean {
      const n = it.next();
      if (n.done) return false;
      cursor.doc = n.value.doc;
      cursor.score = n.value.score;
      return true;
    },
  };
  return cursor;
}

/**
 * The `k` highest-scoring documents with score > 0, best first; ties keep document order
 * (lower id first, i.e. corpus order: path, then line). A `k` above the number of documents
 * means all of them.
 * For a small k (the positive scores at least {@link HEAP_RATIO} times k) the documents from the
 * bucket of scores holding the k-th best up are kept and sorted (`topKByBuckets`): O(D + k log k)
 * for scores spread over buckets; else the k-th best score is found by selection (O(D)
 * expected), then the documents above it and the first ones at it are kept and sorted:
 * O(D + k log k). Both give the same list (as the bounded heap used for scores with a NaN).
 */
export function topK(scores: Float32Array, k: number): Hit[] {
  for (let d = 0; d < scores.length; d++) if (scores[d] !== scores[d]) return topKByHeap(scores, Math.min(Math.floor(k), scores.length), Infinity, -1); // NaN: no order to select by
  return topKAfter(scores, k, Infinity, -1);
}

/**
 * {@link topK} of the documents ranked after (`score`, `doc`): a lower score, or the same score
 * and a higher document id (Infinity, −1: every document). No NaN in `scores`.
 */
function topKAfter(scores: Float32Array, k: number, score: number, doc: number): Hit[] {
  k = Math.min(Math.floor(k), scores.length);
  if (!(k > 0)) return [];
  let n = 0;
  for (let d = 0; d < scores.length; d++) {
    const s = scores[d];
    if (s > 0 && (s < score || (s === score && d > doc))) n++;
  }
  if (n > k && k * HEAP_RATIO <= n) return score === Infinity ? topKByBuckets(scores, k) : topKByHeap(scores, k, score, doc);
  return topKBySelection(scores, k, n, score, doc);
}

/**
 * {@link topK} by buckets of the scores' float32 bits (a positive float32's bits, read as an
 * unsigned integer, order as its value does; 0 and negative scores fall in buckets never kept):
 * a histogram of the top 12 bits finds the bucket holding the k-th best score, and only the
 * documents from that bucket up are sorted: two passes over the scores, then O(m log m) for the
 * m ≥ k documents kept (one more histogram, of the next 12 bits within that bucket, when it
 * holds many). No NaN in `scores`; at least k positive scores. The bounded heap's answer when
 * the k-th best score is below 2⁻¹²³ (bucket 0, which holds 0 too).
 */
function topKByBuckets(scores: Float32Array, k: number): Hit[] {
  const bits = new Uint32Array(scores.buffer, scores.byteOffset, scores.length);
  const high = new Int32Array(BUCKETS);
  for (let d = 0; d < bits.length; d++) high[bits[d] >>> 20]++;
  // the bucket holding the k-th best: the buckets above it (below the negative ones) hold fewer than k
  let b = POSITIVE_BUCKETS - 1;
  for (let above = 0; b > 0 && above + high[b] < k; b--) above += high[b];
  if (b === 0) return topKByHeap(scores, k, Infinity, -1);
  let kept: number[] = [];
  for (let d = 0; d < bits.length; d++) {
    const bucket = bits[d] >>> 20;
    if (bucket >= b && bucket < POSITIVE_BUCKETS) kept.push(d);
  }
  if (kept.length > 2 * k) {
    // the k-th bucket is crowded: split it by its next 12 bits
    const mid = new Int32Array(BUCKETS);
    let above = 0;
    for (const d of kept) {
      if (bits[d] >>> 20 > b) above++;
      else mid[(bits[d] >>> 8) & (BUCKETS - 1)]++;
    }
    let m = BUCKETS - 1;
    for (; m > 0 && above + mid[m] < k; m--) above += mid[m];
    kept = kept.filter((d) => bits[d] >>> 20 > b || ((bits[d] >>> 8) & (BUCKETS - 1)) >= m);
  }
  const out: Hit[] = [];
  if (scores.length <= DOC_SPAN) {
    // one number per document, ascending as the ranking goes (best score, then lower document
    // first): (2³¹ − 1 − bits) · 2²² + document, exact in a float64 (53 bits)
    const keys = new Float64Array(kept.length);
    for (let i = 0; i < kept.length; i++) keys[i] = (0x7fffffff - bits[kept[i]]) * DOC_SPAN + kept[i];
    keys.sort();
    for (let i = 0; i < keys.length && i < k; i++) {
      const d = keys[i] % DOC_SPAN;
      out.push({ doc: d, score: scores[d] });
    }
    return out;
  }
  const order = Int32Array.from(kept).sort((x, y) => scores[y] - scores[x] || x - y);
  for (let i = 0; i < order.length && i < k; i++) out.push({ doc: order[i], score: scores[order[i]] });
  return out;
}

/** Documents {@link topKByBuckets} orders by one float64 key each (2²²): more are sorted by a comparison. */
const DOC_SPAN = 4194304;
/** Buckets of the positive float32 scores (sign bit 0) among the 2¹² of the top 12 bits. */
const POSITIVE_BUCKETS = 2048;
/** Buckets of a histogram of 12 bits. */
const BUCKETS = 4096;

/** {@link topK} uses the buckets when the positive scores are at least this many times k. */
const HEAP_RATIO = 16;

/** {@link topKAfter} by selection of the k-th best score, for `n` positive scores ranked after (`score`, `doc`). */
function topKBySelection(scores: Float32Array, k: number, n: number, score: number, doc: number): Hit[] {
  const out: Hit[] = [];
  const after = (s: number, d: number) => s > 0 && (s < score || (s === score && d > doc));
  if (n <= k) {
    for (let d = 0; d < scores.length; d++) if (after(scores[d], d)) out.push({ doc: d, score: scores[d] });
  } else {
    const positive = new Float64Array(n);
    for (let d = 0, i = 0; d < scores.length; d++) if (after(scores[d], d)) positive[i++] = scores[d];
    const kth = kthLargest(positive, k);
    let atKth = k;
    for (let d = 0; d < scores.length; d++) if (scores[d] > kth && after(scores[d], d)) atKth--;
    for (let d = 0; d < scores.length; d++) {
      const s = scores[d];
      if (!after(s, d)) continue;
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

/**
 * The hits of {@link topK}(scores, depth), best first, found as far as they are read: the best
 * `first`, then the next three times as many as found so far each time the reader goes past
 * them (each batch the best of the documents ranked after the last hit: the order of
 * {@link topK} is total, score then document). For a reader that stops early (roll-up reads
 * until it has enough files and modules), most of `depth` is never selected or sorted.
 * Scores with a NaN get the list of depth at once.
 */
export function* hitsByRank(scores: Float32Array, depth: number, first = 64): Generator<Hit> {
  depth = Math.min(Math.floor(depth), scores.length);
  for (let d = 0; d < scores.length; d++) {
    if (scores[d] !== scores[d]) {
      yield* topK(scores, depth);
      return;
    }
  }
  let got = 0;
  let last: Hit = { score: Infinity, doc: -1 };
  for (let k = Math.min(depth, first); k > 0; k = Math.min(depth - got, 3 * got)) {
    const hits = topKAfter(scores, k, last.score, last.doc);
    for (const h of hits) yield h;
    got += hits.length;
    if (hits.length < k) return;
    last = hits[hits.length - 1];
  }
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

/**
 * {@link topKAfter} by a bounded min-heap on typed arrays (O(D log k), mostly one comparison per
 * document once the heap is full): for a `k` well below the number of positive scores, and for
 * scores with a NaN, which selection cannot order (Infinity, −1: every document). The heap's root is its worst hit: the lowest
 * score, at equal scores the highest document id; a later document at the root's score is worse
 * than the root, so it never enters, as in {@link topK}.
 */
function topKByHeap(scores: Float32Array, k: number, score: number, doc: number): Hit[] {
  if (!(k > 0)) return [];
  const heapDoc = new Int32Array(k);
  const heapScore = new Float64Array(k);
  let size = 0;
  for (let d = 0; d < scores.length; d++) {
    const s = scores[d];
    if (s <= 0 || s > score || (s === score && d <= doc)) continue;
    if (size < k) {
      // sift up: the parent moves down while the new hit is worse than it
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        const ps = heapScore[parent];
        if (!(s < ps || (s === ps && d > heapDoc[parent]))) break;
        heapDoc[i] = heapDoc[parent]; heapScore[i] = ps;
        i = parent;
      }
      heapDoc[i] = d; heapScore[i] = s;
    } else if (s > heapScore[0]) {
      // sift down from the root: the worse child moves up while it is worse than the new hit
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        let m = l;
        const r = l + 1;
        if (r < size && (heapScore[r] < heapScore[l] || (heapScore[r] === heapScore[l] && heapDoc[r] > heapDoc[l]))) m = r;
        const ms = heapScore[m];
        if (!(ms < s || (ms === s && heapDoc[m] > d))) break;
        heapDoc[i] = heapDoc[m]; heapScore[i] = ms;
        i = m;
      }
      heapDoc[i] = d; heapScore[i] = s;
    }
  }
  const out: Hit[] = [];
  for (let i = 0; i < size; i++) out.push({ doc: heapDoc[i], score: heapScore[i] });
  out.sort((a, c) => c.score - a.score || a.doc - c.doc);
  return out;
}

/** Test access to the algorithms behind {@link topK}. */
export const topKAlgorithms = {
  bySelection: (scores: Float32Array, k: number) => topKBySelection(scores, k, scores.reduce((n, s) => (s > 0 ? n + 1 : n), 0), Infinity, -1),
  byHeap: (scores: Float32Array, k: number) => topKByHeap(scores, k, Infinity, -1),
  byBuckets: (scores: Float32Array, k: number) => topKByBuckets(scores, Math.min(k, scores.reduce((n, s) => (s > 0 ? n + 1 : n), 0))),
};
