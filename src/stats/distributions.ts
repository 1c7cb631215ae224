/**
 * Tail probabilities used by the tests, accurate far into the tails (p-values of 1e-70 stay
 * non-zero, as scipy's `sf` does).
 */
import gammainc from '@stdlib/math-base-special-gammainc';
import tCdf from '@stdlib/stats-base-dists-t-cdf';

/**
 * Upper tail P(X ≥ x) of the chi-square distribution with `df` degrees of freedom: the regularized
 * upper incomplete gamma Q(df/2, x/2). Equal to 1 − @stdlib/stats-base-dists-chisquare-cdf, without
 * the cancellation of that difference for tiny p.
 */
export function chiSquareSf(x: number, df: number): number {
  if (x <= 0) return 1;
  return gammainc(x / 2, df / 2, true, true);
}

/** Two-sided p-value of Student's t statistic with `df` degrees of freedom: 2 · P(T ≤ −|t|). */
export function tTwoSidedP(t: number, df: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  return Math.min(1, 2 * tCdf(-Math.abs(t), df));
}
