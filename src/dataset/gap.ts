/**
 * The gap rule of All Future Files and Exact Commits ("file localisation for issues at large"):
 * a later linked commit is dropped when the time since the previous kept linked commit of the
 * same issue exceeds the project's 90th percentile of such gaps (a late commit is more likely a
 * new change than part of the fix).
 */
import type { CommitGraph } from '../repo/log-walk.js';

/**
 * The q-quantile (0..1) of `values` by linear interpolation between closest ranks (R's type 7);
 * NaN for an empty list.
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/** Gaps (seconds, committer time) between consecutive commits of each issue (commits oldest first). */
export function commitGaps(graph: CommitGraph, issues: Iterable<readonly number[]>): number[] {
  const gaps: number[] = [];
  for (const ordered of issues) {
    for (let k = 1; k < ordered.length; k++) gaps.push(Math.max(0, graph.time(ordered[k]) - graph.time(ordered[k - 1])));
  }
  return gaps;
}

/**
 * Keeps the first commit and each later one whose gap to the previous kept commit is at most
 * `maxGapSeconds` (Infinity keeps all).
 *
 * @param ordered graph indices, oldest first.
 */
export function applyGap(graph: CommitGraph, ordered: readonly number[], maxGapSeconds: number): { kept: number[]; dropped: number[] } {
  const kept: number[] = [];
  const dropped: number[] = [];
  for (const c of ordered) {
    if (kept.length === 0 || graph.time(c) - graph.time(kept[kept.length - 1]) <= maxGapSeconds) kept.push(c);
    else dropped.push(c);
  }
  return { kept, dropped };
}
