/**
 * The statistical analyses of "file localisation from issues at large" (§3.7) on evaluation
 * results: per retriever, the issue-type analysis (Kruskal-Wallis with ε² over issue-type groups,
 * specific and held-out, Conover post-hoc with Holm-adjusted p) and Spearman's ρ between the
 * number of identifiers and file names in an issue and each metric, over all issues and per
 * type. Hit@k is left out, as in the paper (`STATS_METRICS`). The tests live in `src/stats/`;
 * this file groups result rows for them and renders Markdown and chart specifications.
 */
import type { TopLevelSpec } from 'vega-lite';
import { correlationHeatmapSpec, typeMetricChartSpec, type CorrelationCell, type GroupMetricValue } from '../stats/chart-specs.js';
import type { PAdjustMethod } from '../stats/p-adjust.js';
import { conoverMarkdown, correlationMarkdown, typeAnalysisMarkdown } from '../stats/report.js';
import { analyseByType, correlateCounts, STATS_METRICS, type CorrelationRow, type IssueObservation, type TypeAnalysis } from '../stats/type-analysis.js';
import { aggregate } from '../metrics/ranking-metrics.js';
import { retrieverLabel } from './results.js';
import type { IssueResultRow, SplitLabel } from './run-eval.js';

/** What issues are grouped by: the paper's category (Bug, Task, …) or the raw type string. */
export type GroupBy = 'category' | 'type';

/** The rows of one retriever on one split (`'all'` = every issue, whatever its split label). */
export function rowsOf(rows: readonly IssueResultRow[], retriever: string, split: SplitLabel | 'all'): IssueResultRow[] {
  return rows.filter((r) => r.retriever === retriever && (split === 'all' || r.split === split));
}

function groupOf(r: IssueResultRow, by: GroupBy): string {
  const g = by === 'type' ? r.type : r.category;
  return g && g.trim() !== '' ? g : '(none)';
}

/** Groups present with their issue counts, largest first (ties by name). */
export function groupSizes(rows: readonly IssueResultRow[], by: GroupBy): [string, number][] {
  const n = new Map<string, number>();
  for (const r of rows) n.set(groupOf(r, by), (n.get(groupOf(r, by)) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Result of {@link typeAnalysisOf}. */
export interface TypeAnalysisResult {
  readonly retriever: string;
  readonly groups: readonly [string, number][];
  readonly analyses: readonly TypeAnalysis[];
  /** Mean of each metric per group (for Figures 4–5), null when undefined. */
  readonly means: readonly GroupMetricValue[];
}

/**
 * The issue-type analysis of one retriever's rows (already filtered to a split). Groups compared:
 * the paper's four categories when grouping by category, else every type present. Groups with
 * fewer than two issues are excluded by the tests and said in the notes.
 */
export function typeAnalysisOf(
  rows: readonly IssueResultRow[], retriever: string, by: GroupBy, adjust: PAdjustMethod = 'holm',
): TypeAnalysisResult {
  const groups = groupSizes(rows, by);
  const categories = by === 'category' ? ['Bug', 'Task', 'Improvement', 'New Feature'] : groups.map(([g]) => g);
  const obs: IssueObservation[] = rows.map((r) => ({ category: groupOf(r, by), values: r.values }));
  const analyses = analyseByType(obs, { categories, adjust, metrics: STATS_METRICS });
  const means: GroupMetricValue[] = [];
  for (const [g] of groups) {
    const agg = aggregate(rows.filter((r) => groupOf(r, by) === g).map((r) => r.values), STATS_METRICS);
    for (const m of STATS_METRICS) means.push({ group: `${g} (${groups.find(([x]) => x === g)?.[1]})`, metric: m, value: agg[m].mean });
  }
  return { retriever, groups, analyses, means };
}

/** Markdown of a type analysis: group sizes, the Kruskal-Wallis table, Conover pairs for MRR and for every metric with p < alpha. */
export function typeAnalysisReport(t: TypeAnalysisResult, title: string, alpha = 0.05): string {
  const out = [typeAnalysisMarkdown(t.analyses, `${title}: ${retrieverLabel(t.retriever)}`, alpha)];
  out.push(`Groups: ${t.groups.map(([g, n]) => `${g} ${n}`).join(', ') || 'none'}.\n`);
  for (const a of t.analyses) {
    const significant = a.specific.kruskal.p !== null && a.specific.kruskal.p < alpha;
    if (a.metric === 'MRR' || significant) {
      out.push(conoverMarkdown(a.specific.conover, `Conover pairs, ${a.metric} (${retrieverLabel(t.retriever)})`, alpha));
    }
  }
  return out.join('\n');
}

/** Figures 4–5: mean of each metric per issue type for one retriever. */
export function typeChartSpec(t: TypeAnalysisResult, title: string): TopLevelSpec {
  return typeMetricChartSpec(t.means, `${title}: ${retrieverLabel(t.retriever)}`, STATS_METRICS);
}

/** Which count is correlated with the metrics. */
export type CountKind = 'identifiers' | 'identifiers+files';

function countOf(r: IssueResultRow, kind: CountKind): number {
  return kind === 'identifiers' ? r.identifiers : r.identifiers + r.fileNames;
}

/**
 * Spearman ρ between an issue's identifier count and each metric, one row for all issues and one
 * per group with at least `minGroup` issues. File names match the identifier patterns through
 * their stems (method notes), so `identifiers` already counts them; `identifiers+files` adds the
 * file-name matches once more.
 */
export function identifierCorrelations(
  rows: readonly IssueResultRow[], by: GroupBy, kind: CountKind = 'identifiers', minGroup = 3,
): CorrelationRow[] {
  const out: CorrelationRow[] = [correlateCounts('all issues', rows.map((r) => countOf(r, kind)), rows.map((r) => r.values))];
  for (const [g, n] of groupSizes(rows, by)) {
    if (n < minGroup) continue;
    const sub = rows.filter((r) => groupOf(r, by) === g);
    out.push(correlateCounts(g, sub.map((r) => countOf(r, kind)), sub.map((r) => r.values)));
  }
  return out;
}

/** Markdown of a correlation matrix (rows: all issues and groups; cells ρ (p)). */
export function correlationReport(rows: readonly CorrelationRow[], title: string): string {
  return correlationMarkdown(rows, STATS_METRICS, title);
}

/** Figure 6: heatmap of ρ, rows = the correlation rows, prefixed by `rowPrefix` when given. */
export function correlationHeatmap(rows: readonly CorrelationRow[], title: string, rowPrefix = ''): TopLevelSpec {
  return correlationHeatmapSpec(heatmapCells(rows, rowPrefix), title);
}

/** Heatmap cells of correlation rows. */
export function heatmapCells(rows: readonly CorrelationRow[], rowPrefix = ''): CorrelationCell[] {
  const cells: CorrelationCell[] = [];
  for (const r of rows) {
    for (const m of STATS_METRICS) {
      const s = r.byMetric[m];
      cells.push({ row: `${rowPrefix}${r.label}`, metric: m, rho: s?.rho ?? null, p: s?.p ?? null });
    }
  }
  return cells;
}
