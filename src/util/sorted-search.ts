/**
 * The first position p in [from, to) with doc[p] ≥ d (doc ascending): a gallop from `from` (steps
 * of 1, 2, 4 …), then a binary search (Bentley & Yao 1976). Returns `to` when every doc[p] < d.
 */
export function firstAtLeast(doc: ArrayLike<number>, from: number, to: number, d: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < to && doc[hi] < d) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > to) hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (doc[mid] < d) lo = mid + 1; else hi = mid;
  }
  return lo;
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
 * The rows of a few documents of an index, looked up by document: one bit per document of the
 * index (a few KiB, so a pass along postings stays in the nearest cache), set for one list of
 * documents at a time and reused, and the list's documents sorted with their rows (a marked
 * document's row found by binary search). A term's postings are then matched against the list by
 * one pass along them, which beats galloping once the postings are short next to the list.
 */
export class DocRows {
  private readonly bits: Uint32Array;
  /** The marked documents ascending, and the row of each. */
  private sorted = new Int32Array(0);
  private rows = new Int32Array(0);
  private count = 0;

  /** @param docCount the index's number of documents (every document of a list is below it). */
  constructor(docCount: number) {
    this.bits = new Uint32Array((docCount + 31) >>> 5);
  }

  /**
   * Marks `docs` (row i: docs[i]), unmarking the last list.
   * @returns false when a document repeats in `docs` (then nothing is marked: use a gallop).
   */
  mark(docs: ArrayLike<number>): boolean {
    this.clear();
    const n = docs.length;
    if (this.sorted.length < n) {
      this.sorted = new Int32Array(2 * n);
      this.rows = new Int32Array(2 * n);
    }
    const order = rowsByDocument(docs);
    const { bits, sorted, rows } = this;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      const d = docs[i];
      if (k > 0 && sorted[k - 1] === d) {
        this.count = k;
        this.clear();
        return false;
      }
      sorted[k] = d;
      rows[k] = i;
      bits[d >>> 5] |= 1 << (d & 31);
    }
    this.count = n;
    return true;
  }

  /**
   * The rows of the marked list by ascending document, as {@link rowsByDocument} gives them (a
   * view reused by the next {@link mark}; only after a `mark` that returned true).
   */
  order(): Int32Array {
    return this.rows.subarray(0, this.count);
  }

  /** The row of document `d` in the marked list (−1: not in it). */
  row(d: number): number {
    if ((this.bits[d >>> 5] & (1 << (d & 31))) === 0) return -1;
    const { sorted } = this;
    let lo = 0, hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < d) lo = mid + 1; else hi = mid;
    }
    return sorted[lo] === d ? this.rows[lo] : -1;
  }

  private clear(): void {
    const { bits, sorted } = this;
    for (let k = 0; k < this.count; k++) bits[sorted[k] >>> 5] = 0;
    this.count = 0;
  }
}

/**
 * Whether matching a list of `docs` documents against `postings` postings is quicker by one pass
 * along the postings ({@link DocRows}) than by a gallop per document.
 */
export function passAlongPostings(postings: number, docs: number): boolean {
  return postings <= 8 * docs;
}
