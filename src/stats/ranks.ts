/**
 * Ranking with ties, the building block of the rank tests (Kruskal-Wallis, Conover, Spearman).
 */
import { IssuelocError } from '../errors.js';

/** Ranks of a sample and its tie statistics. */
export interface RankedSample {
  /** 1-based ranks in input order; tied values share the average of their ranks (scipy `rankdata(method='average')`). */
  readonly ranks: Float64Array;
  /** Σ (t³ − t) over groups of t tied values (0 when all values differ). */
  readonly tieSum: number;
}

/**
 * Average ranks (1-based) and Σ(t³ − t) of the ties.
 * @param what names the sample in error messages.
 * @throws IssuelocError when a value is not a finite number.
 */
export function rankWithTies(values: readonly number[], what = 'sample'): RankedSample {
  const n = values.length;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(values[i])) throw new IssuelocError(`${what}: value #${i + 1} is ${values[i]}, expected a finite number`);
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Float64Array(n);
  let tieSum = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && values[order[j]] === values[order[i]]) j++;
    const avg = (i + 1 + j) / 2; // mean of ranks i+1 … j
    for (let m = i; m < j; m++) ranks[order[m]] = avg;
    const t = j - i;
    if (t > 1) tieSum += t * t * t - t;
    i = j;
  }
  return { ranks, tieSum };
}
