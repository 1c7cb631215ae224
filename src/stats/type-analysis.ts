/**
 * The issue-type and identifier analyses of "file localisation from issues at large": per metric,
 * a Kruskal-Wallis test across issue-type categories with Conover post-hoc pairs, on the issues of
 * each category ("specific") and on the held-out variant (each category's complement); and
 * Spearman's ρ between an issue's identifier count and each metric. Hit@k is left out of these
 * tests, as in the paper (a 0/1 variable).
 */
import type { MetricValues } from '../metrics/ranking-metrics.js';
import { kruskalWallis, type KruskalResult } from './kruskal.js';
import { conover, type ConoverResult } from './conover.js';
import { heldOutGroups } from './groups.js';
import type { PAdjustMethod } from './p-adjust.js';
import { spearman, type SpearmanResult } from './spearman.js';

/** Metrics of the statistical analyses: the paper's table columns without H@k. */
export const STATS_METRICS: readonly string[] = ['P@1', 'P@5', 'P@10', 'R@1', 'R@5', 'R@10', 'RP', 'MRR'];

/** The four issue-type categories of the paper (others fall outside). */
export const TYPE_CATEGORIES: readonly string[] = ['Bug', 'Task', 'Improvement', 'New Feature'];

/** One evaluated issue: its category (any label; null = unknown) and metric values. */
export interface IssueObservation {
  readonly category: string | null;
  readonly values: Readonly<MetricValues>;
}

/** Kruskal-Wallis plus Conover on one set of groups. */
export interface GroupTest {
  readonly kruskal: KruskalResult;
  readonly conover: ConoverResult;
}

/** Results for one metric. */
export interface TypeAnalysis {
  readonly metric: string;
  /** Groups = the issues of each category. */
  readonly specific: GroupTest;
  /** Groups = all issues NOT of each category (held-out variant); groups that are the same issues as another are excluded. */
  readonly heldOut: GroupTest;
  /** Issues whose value of this metric is undefined (no positives) and were left out. */
  readonly nUndefined: number;
}

/** Options of {@link analyseByType}. */
export interface TypeAnalysisOptions {
  /** Default {@link STATS_METRICS}. */
  readonly metrics?: readonly string[];
  /** Categories compared; default {@link TYPE_CATEGORIES}. Issues of other categories only enter held-out groups. */
  readonly categories?: readonly string[];
  /** Conover p-value adjustment; default `holm`. */
  readonly adjust?: PAdjustMethod;
}

/**
 * Runs the issue-type analysis for each metric (see module doc). Categories with fewer than two
 * issues are excluded by the tests and listed in their `excluded`; nothing throws for small data.
 * @throws IssuelocError when a metric value is NaN or infinite.
 */
export function analyseByType(issues: readonly IssueObservation[], options: TypeAnalysisOptions = {}): TypeAnalysis[] {
  const metrics = options.metrics ?? STATS_METRICS;
  const categories = options.categories ?? TYPE_CATEGORIES;
  const adjust = options.adjust ?? 'holm';
  return metrics.map((metric) => {
    const all = new Map<string, number[]>(categories.map((c) => [c, []]));
    let nUndefined = 0;
    for (const issue of issues) {
      const v = issue.values[metric];
      if (v === null || v === undefined) { nUndefined++; continue; }
      const label = issue.category ?? '(unknown)';
      let list = all.get(label);
      if (!list) all.set(label, list = []);
      list.push(v);
    }
    const specific = new Map(categories.map((c) => [c, all.get(c) ?? []]));
    const held = heldOutGroups(all, categories);
    return {
      metric,
      specific: { kruskal: kruskalWallis(specific), conover: conover(specific, { adjust }) },
      heldOut: {
        kruskal: kruskalWallis(held.groups, { excluded: held.excluded }),
        conover: conover(held.groups, { adjust, excluded: held.excluded }),
      },
      nUndefined,
    };
  });
}

/** One row of a correlation matrix: a label (project or issue type) and ρ per metric. */
export interface CorrelationRow {
  readonly label: string;
  readonly byMetric: Readonly<Record<string, SpearmanResult>>;
}

/**
 * Spearman's ρ between a per-issue count (identifiers and file names found in the issue text)
 * and each metric. Issues with an undefined metric are dropped for that metric.
 * @param counts one count per issue, aligned with `perIssue`.
 * @throws IssuelocError when the lengths differ or a value is not finite.
 */
export function correlateCounts(
  label: string, counts: readonly number[], perIssue: readonly Readonly<MetricValues>[],
  metrics: readonly string[] = STATS_METRICS,
): CorrelationRow {
  const byMetric: Record<string, SpearmanResult> = {};
  for (const m of metrics) byMetric[m] = spearman(counts, perIssue.map((v) => v[m] ?? null));
  return { label, byMetric };
}
