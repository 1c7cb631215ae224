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
 * The rows of a few documents of an index, looked up by document: a marker array of the index's
 * documents (row + 1, 0: none), set for one list of documents at a time and reused. A term's
 * postings are then matched against the list by one pass along them ({@link forEachMatch}), which
 * beats galloping once the postings are short next to the list.
 */
export class DocRows {
  private readonly rowOf: Int32Array;
  private marked: ArrayLike<number> = [];

  /** @param docCount the index's number of documents (every document of a list is below it). */
  constructor(docCount: number) {
    this.rowOf = new Int32Array(docCount);
  }

  /**
   * Marks `docs` (row i: docs[i]), unmarking the last list.
   * @returns false when a document repeats in `docs` (then nothing is marked: use a gallop).
   */
  mark(docs: ArrayLike<number>): boolean {
    this.clear();
    const { rowOf } = this;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i];
      if (rowOf[d] !== 0) {
        this.marked = docs;
        this.clear();
        return false;
      }
      rowOf[d] = i + 1;
    }
    this.marked = docs;
    return true;
  }

  /** The row of document `d` in the marked list (−1: not in it). */
  row(d: number): number {
    return this.rowOf[d] - 1;
  }

  private clear(): void {
    const { rowOf, marked } = this;
    for (let i = 0; i < marked.length; i++) rowOf[marked[i]] = 0;
    this.marked = [];
  }
}

/**
 * Whether matching a list of `docs` documents against `postings` postings is quicker by one pass
 * along the postings ({@link DocRows}) than by a gallop per document.
 */
export function passAlongPostings(postings: number, docs: number): boolean {
  return postings <= 8 * docs;
}
