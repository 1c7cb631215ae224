/**
 * Per-level metric columns of a benchmark (the cut-offs its papers publish) and the Markdown
 * table of configurations side by side.
 */
import { evaluateQuery } from '../../src/metrics/ranking-metrics.js';
import type { Localization } from '../../src/retrieve/rollup.js';

export const LEVELS = ['file', 'module', 'function'] as const;
export type Level = (typeof LEVELS)[number];

/** Ranked ids per level. */
export type RankedLists = Record<Level, string[]>;

/** Metric columns per level (metric names of src/metrics/ranking-metrics.ts). */
export type Columns = Partial<Record<Level, string[]>>;

/** Published columns: SWE-bench Lite (SweRank Table 1), Loc-Bench (LocAgent), Tomcat (Ye et al. 2014). */
export const COLUMNS: Record<string, Columns> = {
  swebench: { file: ['Acc@1', 'Acc@3', 'Acc@5'], module: ['Acc@5', 'Acc@10'], function: ['Acc@5', 'Acc@10'] },
  locbench: { file: ['Acc@5', 'Acc@10'], module: ['Acc@10', 'Acc@15'], function: ['Acc@10', 'Acc@15'] },
  tomcat: { file: ['MRR', 'MAP', 'H@1', 'H@5', 'H@10'] },
  records: { file: ['MRR', 'MAP', 'Acc@5', 'Acc@10'], function: ['Acc@10'] },
};

/** The ranked lists of a localization. */
export function listsOf(loc: Localization): RankedLists {
  return { file: loc.files.map((x) => x.id), module: loc.modules.map((x) => x.id), function: loc.functions.map((x) => x.id) };
}

/** Ranked ids as a localization (scores descending by rank), cut to `n` per level: for the placement rules, which read order only. */
export function localizationOf(lists: RankedLists, n: number): Localization {
  const items = (ids: readonly string[]) => ids.slice(0, n).map((id, i) => ({ id, score: -i }));
  return { files: items(lists.file), modules: items(lists.module), functions: items(lists.function), matchedQueryTerms: 1 };
}

/** Metric values of one issue, keyed `level metric`; levels without gold are left out. */
export function issueValues(ranked: RankedLists, gold: Record<Level, readonly string[]>, columns: Columns): Record<string, number> {
  const out: Record<string, number> = {};
  for (const level of LEVELS) {
    const metrics = columns[level];
    if (!metrics || gold[level].length === 0) continue;
    const { values } = evaluateQuery(ranked[level], gold[level], metrics);
    for (const m of metrics) out[`${level} ${m}`] = values[m] ?? 0;
  }
  return out;
}

/** Column keys (`level metric`) in table order. */
export function columnKeys(columns: Columns): string[] {
  return LEVELS.flatMap((l) => (columns[l] ?? []).map((m) => `${l} ${m}`));
}

/** Mean of each column over issues (in percent for Acc/H/P/R, raw for MRR/MAP/RP). */
export function columnMeans(perIssue: readonly Record<string, number>[], keys: readonly string[]): number[] {
  return keys.map((k) => {
    const vs = perIssue.map((v) => v[k]).filter((v): v is number => v !== undefined);
    const m = vs.length ? vs.reduce((a, b) => a + b, 0) / vs.length : NaN;
    return /(MRR|MAP|RP)$/.test(k) ? m : 100 * m;
  });
}

/** A metric's value as the tables print it: MRR, MAP and R-precision to 3 decimals, percentages to 1; `–` for none. */
export function formatMetric(key: string, v: number | undefined): string {
  return v === undefined || Number.isNaN(v) ? '–' : /(MRR|MAP|RP)$/.test(key) ? v.toFixed(3) : v.toFixed(1);
}

/** A Markdown table: one row per configuration, one column per metric. */
export function markdownTable(rows: readonly { name: string; values: number[] }[], keys: readonly string[]): string {
  const head = `| configuration | ${keys.join(' | ')} |\n|---|${keys.map(() => '---').join('|')}|\n`;
  return head + rows.map((r) => `| ${r.name} | ${r.values.map((v, i) => formatMetric(keys[i], v)).join(' | ')} |`).join('\n') + '\n';
}
