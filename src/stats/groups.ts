/**
 * Samples grouped by a label (issue-type category, project, …) as the rank tests take them, the
 * minimum-size filter, and the held-out-type variant of the issue-type analysis.
 */

/** Observations per group label; a Map keeps its order, a Record its key order. */
export type Groups = ReadonlyMap<string, readonly number[]> | Readonly<Record<string, readonly number[]>>;

/** A group left out of a test and why. */
export interface ExcludedGroup {
  readonly label: string;
  readonly n: number;
  readonly reason: string;
}

/** Groups as ordered [label, values] pairs. */
export function groupEntries(groups: Groups): [string, readonly number[]][] {
  return groups instanceof Map ? [...groups.entries()] : Object.entries(groups as Record<string, readonly number[]>);
}

/**
 * Splits groups into those with at least `minSize` observations (kept, input order) and the rest
 * (excluded, with the reason). Rank tests need two observations per group: a one-observation
 * group has no within-group variance.
 */
export function usableGroups(groups: Groups, minSize = 2): { kept: [string, readonly number[]][]; excluded: ExcludedGroup[] } {
  const kept: [string, readonly number[]][] = [];
  const excluded: ExcludedGroup[] = [];
  for (const [label, values] of groupEntries(groups)) {
    if (values.length >= minSize) kept.push([label, values]);
    else excluded.push({ label, n: values.length, reason: `fewer than ${minSize} observations` });
  }
  return { kept, excluded };
}

/**
 * Held-out-type variant of the issue-type analysis ("file localisation from issues at large";
 * `holdout` in its replication package's issue_type_ablation.py): for each category, the
 * observations of every OTHER group (one-vs-rest). Testing these
 * held-out samples asks whether leaving one type out changes the performance.
 * @param groups all observations by type, including types outside the categories (e.g. `Other`).
 * @param categories the labels to hold out, default every label of `groups`.
 * @returns category → concatenated values of all other groups, in `categories` order.
 */
export function heldOutGroups(groups: Groups, categories?: readonly string[]): Map<string, number[]> {
  const entries = groupEntries(groups);
  const labels = categories ?? entries.map(([l]) => l);
  const out = new Map<string, number[]>();
  for (const c of labels) out.set(c, entries.filter(([l]) => l !== c).flatMap(([, v]) => v));
  return out;
}
