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

/** Result of {@link heldOutGroups}. */
export interface HeldOutGroups {
  /** Category → concatenated values of all other groups, in `categories` order; only distinct sets of issues. */
  readonly groups: Map<string, number[]>;
  /** Held-out groups left out because they are the same issues as another held-out group. */
  readonly excluded: ExcludedGroup[];
}

/**
 * Held-out-type variant of the issue-type analysis ("file localisation from issues at large";
 * `holdout` in its replication package's issue_type_ablation.py): for each category, the
 * observations of every OTHER group (one-vs-rest). Testing these
 * held-out samples asks whether leaving one type out changes the performance.
 *
 * The groups are disjoint sets of issues, so two held-out groups are the same issues exactly when
 * both categories are empty (e.g. Task, Improvement and New Feature on a split of Bugs only): such
 * held-out groups are not tested but listed in `excluded`, since a test of identical samples is
 * no comparison.
 * @param groups all observations by type, including types outside the categories (e.g. `Other`).
 * @param categories the labels to hold out, default every label of `groups`.
 */
export function heldOutGroups(groups: Groups, categories?: readonly string[]): HeldOutGroups {
  const entries = groupEntries(groups);
  const labels = categories ?? entries.map(([l]) => l);
  const size = new Map(entries.map(([l, v]) => [l, v.length]));
  const empty = labels.filter((c) => (size.get(c) ?? 0) === 0);
  const out = new Map<string, number[]>();
  const excluded: ExcludedGroup[] = [];
  for (const c of labels) {
    const values = entries.filter(([l]) => l !== c).flatMap(([, v]) => v);
    const same = empty.includes(c) ? empty.filter((o) => o !== c) : [];
    if (same.length > 0 && values.length > 0) {
      excluded.push({ label: c, n: values.length, reason: `the same issues as held out ${same.join(', ')}` });
    } else {
      out.set(c, values);
    }
  }
  return { groups: out, excluded };
}
