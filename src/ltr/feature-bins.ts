/**
 * Quantile bins of a candidate feature matrix, computed once before boosting: the histogram
 * method of gradient-boosted trees (LightGBM, Ke et al. 2017, "LightGBM: A Highly Efficient
 * Gradient Boosting Decision Tree", NeurIPS, §2.1 and Alg. 1). Every split a tree may make is
 * "value ≤ cut" for one of a feature's cut points, so a split search is a pass over per-bin sums
 * instead of a sort of the rows.
 */
import { IssuelocError } from '../errors.js';

/** Largest number of bins per feature (bins are stored as bytes). */
export const MAX_BINS = 256;

/** A feature matrix as bin numbers. */
export interface BinnedFeatures {
  /** Number of rows (candidates over all queries). */
  rows: number;
  /** Number of feature columns. */
  features: number;
  /** Bin of each value, row-major: bins[i · features + j]. */
  bins: Uint8Array;
  /**
   * Cut points per feature, ascending, each a value of the data (a float32): bin b holds the
   * values v with cuts[b − 1] < v ≤ cuts[b]; the last bin (number cuts.length) the values above
   * every cut. A feature with one value has no cut.
   */
  cuts: Float64Array[];
}

/**
 * Bins the columns of a row-major matrix into at most `maxBins` quantile bins each: the cut
 * points are the values at ranks ⌈k·rows/maxBins⌉ (k = 1 … maxBins − 1) of the sorted column,
 * without repeats and below the column's largest value; a column with at most `maxBins` distinct
 * values gets every distinct value but the largest as a cut (each value its own bin).
 * Deterministic. O(features × rows log rows).
 *
 * @param x rows × features values, row-major.
 * @throws IssuelocError when `maxBins` is not an integer in [2, 256] or `x` has the wrong length.
 */
export function binFeatures(x: Float32Array, rows: number, features: number, maxBins = 32): BinnedFeatures {
  if (!Number.isInteger(maxBins) || maxBins < 2 || maxBins > MAX_BINS) throw new IssuelocError(`bins per feature must be an integer in [2, ${MAX_BINS}], got ${maxBins}`);
  if (x.length !== rows * features) throw new IssuelocError(`feature matrix has ${x.length} values, expected ${rows} rows × ${features} features`);
  const bins = new Uint8Array(rows * features);
  const cuts: Float64Array[] = [];
  const column = new Float32Array(rows);
  for (let j = 0; j < features; j++) {
    for (let i = 0; i < rows; i++) column[i] = x[i * features + j];
    column.sort();
    const c = cutPoints(column, maxBins);
    cuts.push(c);
    for (let i = 0; i < rows; i++) bins[i * features + j] = binOf(c, x[i * features + j]);
  }
  return { rows, features, bins, cuts };
}

/** Cut points of a sorted column (see {@link binFeatures}). */
function cutPoints(sorted: Float32Array, maxBins: number): Float64Array {
  const n = sorted.length;
  if (n === 0) return new Float64Array(0);
  const max = sorted[n - 1];
  const distinct: number[] = [];
  for (let i = 0; i < n && distinct.length <= maxBins; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct.push(sorted[i]);
  if (distinct.length <= maxBins) return Float64Array.from(distinct.slice(0, -1));
  const out: number[] = [];
  for (let k = 1; k < maxBins; k++) {
    const v = sorted[Math.ceil((k * n) / maxBins) - 1];
    if (v < max && (out.length === 0 || v > out[out.length - 1])) out.push(v);
  }
  return Float64Array.from(out);
}

/** The bin of value v under ascending cut points: the first b with v ≤ cuts[b], else cuts.length. */
export function binOf(cuts: Float64Array, v: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= cuts[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
