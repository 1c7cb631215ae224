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
