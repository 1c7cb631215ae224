/**
 * Vega-Lite specifications of the paper's figures: per-issue-type metric plots (Figures 4–5 of
 * "file localisation from issues at large") and the Spearman ρ heatmap (Figure 6). Render them
 * with chart-render.ts. Null values are dropped from plots and counted in the subtitle, so no
 * chart ever shows NaN.
 */
import type { TopLevelSpec } from 'vega-lite';

/** One bar: a group (issue type, project, …), a metric and its mean (null = undefined). */
export interface GroupMetricValue {
  readonly group: string;
  readonly metric: string;
  readonly value: number | null;
}

/** One heatmap cell: a row label (project or type), a metric, ρ and its p-value (null = undefined). */
export interface CorrelationCell {
  readonly row: string;
  readonly metric: string;
  readonly rho: number | null;
  readonly p: number | null;
}

const FONT = 'DejaVu Sans, Arial, Helvetica, sans-serif';
const CONFIG = { font: FONT, background: 'white' };

function subtitleFor(dropped: number, what: string): string[] {
  return dropped > 0 ? [`${dropped} ${what}${dropped === 1 ? '' : 's'} without a defined value not shown`] : [];
}

/**
 * Grouped bar chart: x = metric (in the given order), bars per group side by side (groups in
 * order of first appearance), y = value
 * in [0, 1]. As Figures 4–5 (metric per issue type, one chart per retriever).
 * @param metrics column order; default: order of first appearance.
 */
export function typeMetricChartSpec(
  values: readonly GroupMetricValue[], title: string, metrics?: readonly string[],
): TopLevelSpec {
  const defined = values.filter((v) => v.value !== null && Number.isFinite(v.value));
  const order = metrics ?? [...new Set(values.map((v) => v.metric))];
  const groups = [...new Set(values.map((v) => v.group))];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, subtitle: subtitleFor(values.length - defined.length, 'value') },
    width: Math.max(240, 60 * order.length),
    height: 220,
    data: { values: defined.map((v) => ({ group: v.group, metric: v.metric, value: v.value })) },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'metric', type: 'nominal', sort: [...order], title: null, axis: { labelAngle: 0 } },
      xOffset: { field: 'group', type: 'nominal', sort: groups },
      y: { field: 'value', type: 'quantitative', title: 'mean', scale: { domain: [0, 1] } },
      color: { field: 'group', type: 'nominal', title: null, sort: groups },
    },
    config: CONFIG,
  };
}

/**
 * Heatmap of Spearman ρ (rows × metrics), diverging colours on [−1, 1]; each cell prints ρ with two
 * decimals and `*` when p < alpha; undefined cells print `–` on white. As Figure 6.
 */
export function correlationHeatmapSpec(cells: readonly CorrelationCell[], title: string, alpha = 0.05): TopLevelSpec {
  const rows = [...new Set(cells.map((c) => c.row))];
  const metrics = [...new Set(cells.map((c) => c.metric))];
  const data = cells.map((c) => {
    const ok = c.rho !== null && Number.isFinite(c.rho);
    return {
      row: c.row, metric: c.metric, rho: ok ? c.rho : null,
      label: ok ? `${(c.rho as number).toFixed(2)}${c.p !== null && c.p < alpha ? '*' : ''}` : '–',
    };
  });
  const undefinedCells = data.filter((d) => d.rho === null).length;
  const subtitle = [`* p < ${alpha}`, ...subtitleFor(undefinedCells, 'cell')];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, subtitle },
    width: Math.max(200, 56 * metrics.length),
    height: Math.max(60, 28 * rows.length),
    data: { values: data },
    encoding: {
      x: { field: 'metric', type: 'nominal', sort: metrics, title: null, axis: { labelAngle: 0, orient: 'top' } },
      y: { field: 'row', type: 'nominal', sort: rows, title: null },
    },
    layer: [
      {
        mark: { type: 'rect' },
        encoding: {
          color: {
            field: 'rho', type: 'quantitative', title: 'ρ',
            scale: { scheme: 'redblue', domain: [-1, 1], reverse: true },
          },
        },
      },
      { mark: { type: 'text', fontSize: 11 }, encoding: { text: { field: 'label', type: 'nominal' } } },
    ],
    config: { ...CONFIG, view: { stroke: null } },
  };
}
