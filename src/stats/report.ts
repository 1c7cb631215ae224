/**
 * Markdown renderings of the statistical results: Kruskal-Wallis "ε² / p" per metric (as the
 * replication package's issue-type tables), Conover pairs, and Spearman ρ matrices. Undefined
 * values print as `–` with a note, never NaN.
 */
import type { ConoverResult } from './conover.js';
import type { KruskalResult } from './kruskal.js';
import type { CorrelationRow, TypeAnalysis } from './type-analysis.js';

function num(v: number | null, digits = 3): string {
  if (v === null || !Number.isFinite(v)) return '–';
  if (v !== 0 && Math.abs(v) < 10 ** -digits) return v.toExponential(1);
  return v.toFixed(digits);
}

function kwCell(k: KruskalResult, alpha: number): string {
  if (k.H === null) return '–';
  const s = `${num(k.epsilonSquared)} / ${num(k.p)}`;
  return k.p !== null && k.p < alpha ? `**${s}**` : s;
}

function table(header: string[], rows: string[][]): string[] {
  const row = (c: string[]): string => `| ${c.map((x) => x.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [row(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(row)];
}

/**
 * Kruskal-Wallis results per metric: `ε² / p` for the specific and held-out groups, bold when
 * p < alpha; then notes on excluded categories, undefined statistics and left-out issues.
 */
export function typeAnalysisMarkdown(analyses: readonly TypeAnalysis[], title: string, alpha = 0.05): string {
  const rows = analyses.map((a) => [a.metric, kwCell(a.specific.kruskal, alpha), kwCell(a.heldOut.kruskal, alpha),
    String(a.specific.kruskal.n)]);
  const notes = new Set<string>();
  for (const a of analyses) {
    for (const e of a.specific.kruskal.excluded) notes.add(`${e.label}: excluded (${e.n} issue${e.n === 1 ? '' : 's'}, ${e.reason}).`);
    for (const e of a.heldOut.kruskal.excluded) notes.add(`${e.label} (held out): excluded (${e.n} issue${e.n === 1 ? '' : 's'}, ${e.reason}).`);
    if (a.specific.kruskal.note) notes.add(`${a.metric}: ${a.specific.kruskal.note}.`);
    if (a.heldOut.kruskal.note) notes.add(`${a.metric} (held out): ${a.heldOut.kruskal.note}.`);
    if (a.nUndefined > 0) notes.add(`${a.metric}: ${a.nUndefined} issues without positives left out.`);
  }
  const out = [`### ${title}`, '', ...table(['Metric', 'ε² / p (specific)', 'ε² / p (held out)', 'n'], rows)];
  if (notes.size > 0) out.push('', ...[...notes].map((n) => `- ${n}`));
  return out.join('\n') + '\n';
}

/** Conover pairs: categories, which ranks higher, adjusted p (bold when < alpha). */
export function conoverMarkdown(result: ConoverResult, title: string, alpha = 0.05): string {
  const rows = result.pairs.map((p) => [p.a, p.b, p.meanRankDiff > 0 ? '>' : p.meanRankDiff < 0 ? '<' : '=',
    p.pAdjusted < alpha ? `**${num(p.pAdjusted, 4)}**` : num(p.pAdjusted, 4)]);
  const out = [`### ${title}`, '', ...table(['Category 1', 'Category 2', 'Order', `p (${result.adjust})`], rows)];
  if (result.note) out.push('', `- ${result.note}.`);
  return out.join('\n') + '\n';
}

/** Spearman matrix: rows = labels, cells `ρ (p)`, bold when p < alpha. */
export function correlationMarkdown(rows: readonly CorrelationRow[], metrics: readonly string[], title: string, alpha = 0.05): string {
  const notes: string[] = [];
  const body = rows.map((r) => [r.label, ...metrics.map((m) => {
    const s = r.byMetric[m];
    if (!s || s.rho === null) {
      if (s?.note) notes.push(`${r.label} / ${m}: ${s.note}.`);
      return '–';
    }
    const cell = `${num(s.rho)} (${num(s.p)})`;
    return s.p !== null && s.p < alpha ? `**${cell}**` : cell;
  })]);
  const out = [`### ${title}`, '', ...table(['', ...metrics], body)];
  if (notes.length > 0) out.push('', ...notes.map((n) => `- ${n}`));
  return out.join('\n') + '\n';
}
