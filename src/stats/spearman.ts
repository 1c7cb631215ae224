/**
 * Spearman rank correlation with a two-sided p-value, as scipy.stats.spearmanr: used to relate
 * the number of identifiers and file names in an issue to each metric.
 */
import { IssuelocError } from '../errors.js';
import { rankWithTies } from './ranks.js';
import { tTwoSidedP } from './distributions.js';

/** Result of {@link spearman}; rho and p are null when undefined (see `note`). */
export interface SpearmanResult {
  readonly rho: number | null;
  readonly p: number | null;
  /** Pairs used. */
  readonly n: number;
  /** Pairs dropped because a value was null (e.g. a metric undefined for an issue without positives). */
  readonly nDropped: number;
  readonly note?: string;
}

function pearson(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) { mx += x[i]; my += y[i]; }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Spearman's ρ: Pearson correlation of the average ranks (ties share their mean rank); two-sided
 * p from t = ρ·√((n − 2)/(1 − ρ²)) with n − 2 degrees of freedom (p = 0 when |ρ| = 1).
 * Pairs with a null value are dropped and counted. With fewer than 3 pairs, or a constant
 * variable, rho and p are null and `note` says why; it never throws for such data.
 * @throws IssuelocError when x and y differ in length or a value is NaN or infinite.
 */
export function spearman(x: readonly (number | null)[], y: readonly (number | null)[]): SpearmanResult {
  if (x.length !== y.length) throw new IssuelocError(`spearman: x has ${x.length} values, y has ${y.length}`);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < x.length; i++) {
    const a = x[i];
    const b = y[i];
    if (a === null || b === null) continue;
    xs.push(a);
    ys.push(b);
  }
  const n = xs.length;
  const nDropped = x.length - n;
  const rx = rankWithTies(xs, 'spearman x');
  const ry = rankWithTies(ys, 'spearman y');
  if (n < 3) return { rho: null, p: null, n, nDropped, note: `needs at least 3 pairs, got ${n}` };
  if (rx.tieSum === n * n * n - n) return { rho: null, p: null, n, nDropped, note: 'x is constant: rho is undefined' };
  if (ry.tieSum === n * n * n - n) return { rho: null, p: null, n, nDropped, note: 'y is constant: rho is undefined' };
  const rho = pearson(rx.ranks, ry.ranks);
  const df = n - 2;
  const p = Math.abs(rho) === 1 ? 0 : tTwoSidedP(rho * Math.sqrt(df / ((1 + rho) * (1 - rho))), df);
  return { rho, p, n, nDropped };
}
