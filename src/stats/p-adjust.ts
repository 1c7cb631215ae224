/**
 * Multiple-comparison adjustment of p-values, as statsmodels `multipletests` (used by
 * scikit-posthocs `p_adjust`).
 */
import { IssuelocError } from '../errors.js';

/** `holm` (Holm 1979 step-down, default), `bonferroni`, `fdr_bh` (Benjamini-Hochberg 1995), `none`. */
export type PAdjustMethod = 'holm' | 'bonferroni' | 'fdr_bh' | 'none';

/** The accepted method names. */
export const P_ADJUST_METHODS: readonly PAdjustMethod[] = ['holm', 'bonferroni', 'fdr_bh', 'none'];

/**
 * Parses a method name.
 * @throws IssuelocError for an unknown name.
 */
export function parsePAdjust(name: string): PAdjustMethod {
  if ((P_ADJUST_METHODS as readonly string[]).includes(name)) return name as PAdjustMethod;
  throw new IssuelocError(`unknown p-value adjustment '${name}' (expected ${P_ADJUST_METHODS.join(', ')})`);
}

/**
 * Adjusted p-values, in input order, capped at 1.
 * - holm: sort ascending; p̃_(i) = max_{j ≤ i} (m − j + 1) · p_(j)
 * - bonferroni: m · p
 * - fdr_bh: sort ascending; p̃_(i) = min_{j ≥ i} m / j · p_(j)
 * @throws IssuelocError when a p-value is outside [0, 1] or NaN.
 */
export function adjustPValues(p: readonly number[], method: PAdjustMethod = 'holm'): number[] {
  p.forEach((v, i) => {
    if (!(v >= 0 && v <= 1)) throw new IssuelocError(`p-value #${i + 1} is ${v}, expected a number in [0, 1]`);
  });
  const m = p.length;
  if (method === 'none') return [...p];
  if (method === 'bonferroni') return p.map((v) => Math.min(1, v * m));
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => p[a] - p[b]);
  const out = new Array<number>(m);
  if (method === 'holm') {
    let run = 0;
    order.forEach((idx, i) => {
      run = Math.max(run, (m - i) * p[idx]);
      out[idx] = Math.min(1, run);
    });
  } else {
    let run = 1;
    for (let i = m - 1; i >= 0; i--) {
      run = Math.min(run, (m / (i + 1)) * p[order[i]]);
      out[order[i]] = Math.min(1, run);
    }
  }
  return out;
}
