/** The file-level metrics of the multi-language bench (bench/multi-swe.ts). */

/** Metric columns, in table order. */
export const ALL_GOLD_KEYS = ['Acc@1', 'Acc@3', 'Acc@5', 'Acc@10', 'MRR'] as const;
export type AllGoldKey = (typeof ALL_GOLD_KEYS)[number];

/**
 * All-gold Acc@k — 1 when every gold file is in the top k, strictly: an issue with more gold files
 * than k scores 0 at k (unlike LocAgent's Acc@k) — and the reciprocal rank of the first gold file
 * (0 when none is ranked).
 * @param ranks the 1-based rank of each gold file, null when it is not in the ranking.
 * @returns 0 or 1 per Acc@k, MRR in [0, 1]; all 0 without gold files.
 */
export function allGoldMetrics(ranks: readonly (number | null)[]): Record<AllGoldKey, number> {
  const worst = ranks.reduce<number>((w, r) => Math.max(w, r ?? Infinity), 0);
  const first = ranks.reduce<number>((b, r) => Math.min(b, r ?? Infinity), Infinity);
  const acc = (k: number) => (ranks.length > 0 && worst <= k ? 1 : 0);
  return { 'Acc@1': acc(1), 'Acc@3': acc(3), 'Acc@5': acc(5), 'Acc@10': acc(10), MRR: Number.isFinite(first) ? 1 / first : 0 };
}

/** 1-based ranks of `gold` in `ranked` (null: absent). */
export function goldRanks(ranked: readonly string[], gold: readonly string[]): (number | null)[] {
  const at = new Map<string, number>();
  ranked.forEach((id, i) => { if (!at.has(id)) at.set(id, i + 1); });
  return gold.map((g) => at.get(g) ?? null);
}
