/**
 * Conover(-Iman) post-hoc pairwise comparisons after a Kruskal-Wallis test, as scikit-posthocs
 * `posthoc_conover` (Conover & Iman 1979, "On multiple-comparisons procedures", LA-7677-MS).
 */
import { pooledRanks, type GroupSummary } from './kruskal.js';
import { tTwoSidedP } from './distributions.js';
import { adjustPValues, type PAdjustMethod } from './p-adjust.js';
import type { ExcludedGroup, Groups } from './groups.js';

/** One pair of groups. */
export interface ConoverPair {
  readonly a: string;
  readonly b: string;
  /** Mean rank of `a` minus mean rank of `b` (sign tells which ranks higher). */
  readonly meanRankDiff: number;
  readonly t: number;
  /** Unadjusted two-sided p-value. */
  readonly p: number;
  /** p-value after the chosen adjustment over all pairs. */
  readonly pAdjusted: number;
}

/** Result of {@link conover}. */
export interface ConoverResult {
  readonly pairs: readonly ConoverPair[];
  /** t-distribution degrees of freedom: n − k. */
  readonly df: number;
  readonly adjust: PAdjustMethod;
  readonly groups: readonly GroupSummary[];
  readonly excluded: readonly ExcludedGroup[];
  /** Why there are no pairs, when there are none. */
  readonly note?: string;
}

/**
 * Conover post-hoc test. With pooled average ranks r, n observations and k groups:
 * S² = n(n+1)/12 without ties, else (Σr² − n(n+1)²/4)/(n − 1); H the tie-corrected
 * Kruskal-Wallis statistic; for groups i, j:
 * t = |R̄_i − R̄_j| / √(S² · (1/n_i + 1/n_j) · (n − 1 − H)/(n − k)), p = 2·P(T_{n−k} ≥ |t|);
 * then the p-values of all pairs are adjusted (Holm by default).
 *
 * Groups with fewer than two observations are excluded (listed in `excluded`); with fewer than two
 * groups left, or all observations tied, `pairs` is empty and `note` says why.
 * @param options.adjust `holm` (default), `bonferroni`, `fdr_bh` or `none`.
 * @param options.excluded groups the caller left out (e.g. duplicate held-out groups), reported in `excluded`.
 * @throws IssuelocError when an observation is not a finite number.
 */
export function conover(
  groups: Groups, options: { adjust?: PAdjustMethod; excluded?: readonly ExcludedGroup[] } = {},
): ConoverResult {
  const adjust = options.adjust ?? 'holm';
  const { ranks, tieSum, summaries, excluded, n, correction, H } = pooledRanks(groups, options.excluded);
  const k = summaries.length;
  const base = { df: Math.max(0, n - k), adjust, groups: summaries, excluded };
  if (k < 2) return { ...base, pairs: [], note: `needs at least 2 groups with 2 or more observations, got ${k}` };
  if (correction <= 0 || H === null) return { ...base, pairs: [], note: 'all observations are equal: no pair differs' };
  let sumSq = 0;
  for (let i = 0; i < n; i++) sumSq += ranks[i] * ranks[i];
  const s2 = tieSum === 0 ? n * (n + 1) / 12 : (sumSq - n * (n + 1) * (n + 1) / 4) / (n - 1);
  const d = Math.max(0, (n - 1 - H) / (n - k));
  const raw: Omit<ConoverPair, 'pAdjusted'>[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const diff = summaries[i].meanRank - summaries[j].meanRank;
      const denom = Math.sqrt(s2 * (1 / summaries[i].n + 1 / summaries[j].n) * d);
      // denom = 0 only when groups are internally constant and fully separated (H = n − 1)
      const t = denom > 0 ? Math.abs(diff) / denom : (diff === 0 ? 0 : Number.POSITIVE_INFINITY);
      raw.push({ a: summaries[i].label, b: summaries[j].label, meanRankDiff: diff, t, p: tTwoSidedP(t, n - k) });
    }
  }
  const adjusted = adjustPValues(raw.map((r) => r.p), adjust);
  return { ...base, pairs: raw.map((r, i) => ({ ...r, pAdjusted: adjusted[i] })) };
}
