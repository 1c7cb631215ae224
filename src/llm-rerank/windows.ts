/**
 * The sliding windows of listwise reranking (RankGPT, Sun et al., EMNLP 2023, §3.2; used by
 * RankZephyr, FIRST and SweRank): the first K candidates are reranked `window` at a time,
 * starting at the bottom of the list and moving up by `stride`, so a relevant candidate can rise
 * from rank K to rank 1 within one pass (window − stride candidates carry over between windows).
 */

/** One window: candidates [start, end) of the current order (0-based). */
export interface Window {
  start: number;
  end: number;
}

/**
 * Windows for reranking the first `k` candidates, in the order they are processed (bottom first).
 * K = 100, window 10, stride 5 gives 19 windows: [90,100), [85,95), …, [5,15), [0,10).
 * When k ≤ window there is one window [0, k). The last window always starts at 0.
 * @throws RangeError for window < 1, stride < 1 or stride > window (candidates would be skipped),
 *   or a k that is not a number (NaN would plan windows without end).
 */
export function slidingWindows(k: number, window: number, stride: number): Window[] {
  if (!(window >= 1) || !(stride >= 1) || stride > window) throw new RangeError(`window ${window} and stride ${stride}: need 1 ≤ stride ≤ window`);
  if (Number.isNaN(k)) throw new RangeError('slidingWindows: k is not a number');
  if (k <= 0) return [];
  const out: Window[] = [];
  let end = k;
  let start = k - window;
  for (;;) {
    out.push({ start: Math.max(0, start), end });
    if (start <= 0) break;
    start -= stride;
    end -= stride;
  }
  return out;
}
