/**
 * Kruskal-Wallis H test with tie correction, its p-value and the ε² effect size, as used for the
 * issue-type analysis of "file localisation from issues at large".
 */
import { rankWithTies } from './ranks.js';
import { chiSquareSf } from './distributions.js';
import { usableGroups, type ExcludedGroup, type Groups } from './groups.js';

/** Per-group summary of a rank test. */
export interface GroupSummary {
  readonly label: string;
  readonly n: number;
  readonly mean: number;
  readonly median: number;
  /** Mean of the group's ranks in the pooled sample. */
  readonly meanRank: number;
}

/** Result of {@link kruskalWallis}; statistics are null when the test cannot be computed (see `note`). */
export interface KruskalResult {
  /** Tie-corrected H. */
  readonly H: number | null;
  /** Degrees of freedom: groups tested − 1. */
  readonly df: number;
  /** Upper-tail chi-square p-value of H. */
  readonly p: number | null;
  /** ε² = H / ((n² − 1)/(n + 1)) (Tomczak & Tomczak 2014). */
  readonly epsilonSquared: number | null;
  /** Observations in the tested groups. */
  readonly n: number;
  readonly groups: readonly GroupSummary[];
  /** Groups left out (fewer than two observations). */
  readonly excluded: readonly ExcludedGroup[];
  /** Why a statistic is null, e.g. fewer than two usable groups or all values tied. */
  readonly note?: string;
}

function median(sorted: readonly number[]): number {
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

/**
 * Pools the usable groups, ranks them and computes the tie correction C = 1 − Σ(t³ − t)/(n³ − n)
 * and the tie-corrected H (null with fewer than 2 groups or when C = 0); shared with the Conover test.
 * @param leftOut groups the caller already left out (e.g. duplicate held-out groups), listed after
 *   the groups too small to test.
 */
export function pooledRanks(groups: Groups, leftOut: readonly ExcludedGroup[] = []): {
  kept: [string, readonly number[]][]; excluded: ExcludedGroup[]; ranks: Float64Array; tieSum: number;
  summaries: GroupSummary[]; n: number; correction: number; H: number | null;
} {
  const usable = usableGroups(groups);
  const kept = usable.kept;
  const excluded = [...usable.excluded, ...leftOut];
  const pooled = kept.flatMap(([, v]) => v);
  const { ranks, tieSum } = rankWithTies(pooled, 'rank test observations');
  const summaries: GroupSummary[] = [];
  let off = 0;
  for (const [label, v] of kept) {
    let rs = 0;
    for (let i = 0; i < v.length; i++) rs += ranks[off + i];
    off += v.length;
    summaries.push({
      label, n: v.length, mean: v.reduce((a, b) => a + b, 0) / v.length,
      median: median([...v].sort((a, b) => a - b)), meanRank: rs / v.length,
    });
  }
  const n = pooled.length;
  const correction = n > 1 ? 1 - tieSum / (n * n * n - n) : 0;
  let H: number | null = null;
  if (summaries.length >= 2 && correction > 0) {
    let sum = 0;
    for (const g of summaries) sum += g.n * g.meanRank * g.meanRank; // R_i² / n_i with R_i = n_i · meanRank
    H = (12 / (n * (n + 1)) * sum - 3 * (n + 1)) / correction;
  }
  return { kept, excluded, ranks, tieSum, summaries, n, correction, H };
}

/**
 * Kruskal-Wallis H test (Kruskal & Wallis 1952) with tie correction:
 * H = [12 / (n(n+1)) · Σ R_i²/n_i − 3(n+1)] / [1 − Σ(t³ − t)/(n³ − n)], p = P(χ²_{k−1} ≥ H);
 * effect size ε² = H / ((n² − 1)/(n + 1)) (Tomczak & Tomczak 2014, "The need to report effect
 * size estimates revisited", Trends in Sport Sciences 21(1)). Matches scipy.stats.kruskal.
 *
 * Groups with fewer than two observations are excluded and listed in `excluded`; with fewer than
 * two groups left, or when every observation ties, H, p and ε² are null and `note` says why. It
 * never throws for such data.
 * @param groups observations per label (e.g. MRR per issue, grouped by issue type); each a
 *   distinct set of issues (leave out duplicates and list them in `options.excluded`).
 * @param options.excluded groups the caller left out, reported in `excluded`.
 * @throws IssuelocError when an observation is not a finite number.
 */
export function kruskalWallis(groups: Groups, options: { excluded?: readonly ExcludedGroup[] } = {}): KruskalResult {
  const { excluded, summaries, n, correction, H } = pooledRanks(groups, options.excluded);
  const k = summaries.length;
  const base = { df: Math.max(0, k - 1), n, groups: summaries, excluded };
  if (k < 2) return { ...base, H: null, p: null, epsilonSquared: null, note: `needs at least 2 groups with 2 or more observations, got ${k}` };
  if (correction <= 0 || H === null) return { ...base, H: null, p: null, epsilonSquared: null, note: 'all observations are equal: H is undefined' };
  return { ...base, H, p: chiSquareSf(H, k - 1), epsilonSquared: H / ((n * n - 1) / (n + 1)) };
}
