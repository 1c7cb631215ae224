/**
 * Result tables in the shape of Tables 3 and 4 of "file localisation from issues at large":
 * one row per retriever (Table 3) or per project averaged over retrievers (Table 4), one column
 * per metric P@1, P@5, P@10, H@1, H@5, H@10, R@1, R@5, R@10, RP, MRR, plus an optional Average
 * row (the paper's "Average" column). `layout: 'metrics-as-rows'` prints the transposed table,
 * as the paper's replication package does.
 *
 * No NaN ever reaches a table: a mean without any defined value prints as `–` in Markdown, an
 * empty cell in CSV and `null` in JSON, and the notes under the table count the issues left out
 * (issues without positives) per row.
 */
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { PAPER_METRICS, type MetricAggregate } from '../metrics/ranking-metrics.js';

/** One row: a label and the aggregate of each metric. */
export interface TableRow {
  readonly label: string;
  readonly cells: Readonly<Record<string, MetricAggregate>>;
  /** True for an average-of-rows row: its `n` counts rows, not issues. */
  readonly isAverage?: boolean;
}

/** A metric table; render with {@link toMarkdown}, {@link toCsv}, {@link toJson}. */
export interface MetricTable {
  readonly title: string;
  /** Header of the label column, e.g. `Retriever` (Table 3) or `Project` (Table 4). */
  readonly rowHeader: string;
  readonly columns: readonly string[];
  readonly rows: readonly TableRow[];
}

/** Options of {@link metricTable}. */
export interface MetricTableOptions {
  readonly title?: string;
  /** Default `Retriever`. */
  readonly rowHeader?: string;
  /** Default {@link PAPER_METRICS}. */
  readonly columns?: readonly string[];
  /** Label of an appended average-of-rows row; default `Average`; `false` for none. */
  readonly average?: string | false;
}

/**
 * Macro average of rows: per metric, the mean of the rows' means (rows without a defined mean
 * are left out). In the result `n` = rows averaged, `nUndefined` = rows left out. This is how the
 * paper averages over projects (Table 3) and over retrievers (Table 4).
 */
export function averageRows(
  label: string, rows: readonly Readonly<Record<string, MetricAggregate>>[], columns: readonly string[],
): TableRow {
  const cells: Record<string, MetricAggregate> = {};
  for (const c of columns) {
    const means = rows.map((r) => r[c]?.mean ?? null).filter((m): m is number => m !== null);
    cells[c] = {
      mean: means.length > 0 ? means.reduce((a, b) => a + b, 0) / means.length : null,
      n: means.length,
      nUndefined: rows.length - means.length,
    };
  }
  return { label, cells, isAverage: true };
}

/**
 * Builds a table from labelled aggregates (output of `aggregate` in src/metrics/ranking-metrics.ts).
 * @throws IssuelocError when no row is given or a label repeats.
 */
export function metricTable(
  rows: readonly { readonly label: string; readonly aggregates: Readonly<Record<string, MetricAggregate>> }[],
  options: MetricTableOptions = {},
): MetricTable {
  if (rows.length === 0) throw new IssuelocError('a metric table needs at least one row');
  const labels = new Set<string>();
  for (const r of rows) {
    if (labels.has(r.label)) throw new IssuelocError(`metric table: row '${r.label}' appears twice`);
    labels.add(r.label);
  }
  const columns = options.columns ?? PAPER_METRICS;
  const empty: MetricAggregate = { mean: null, n: 0, nUndefined: 0 };
  const body: TableRow[] = rows.map((r) => ({
    label: r.label,
    cells: Object.fromEntries(columns.map((c) => [c, r.aggregates[c] ?? empty])),
  }));
  const avgLabel = options.average ?? 'Average';
  if (avgLabel !== false && rows.length > 1) body.push(averageRows(avgLabel, body.map((r) => r.cells), columns));
  return { title: options.title ?? 'Results', rowHeader: options.rowHeader ?? 'Retriever', columns, rows: body };
}

function definedMean(a: MetricAggregate | undefined): number | null {
  return a && a.mean !== null && Number.isFinite(a.mean) ? a.mean : null;
}

/** Lines explaining `–` cells and the issues left out of each row's means. */
export function tableNotes(table: MetricTable): string[] {
  const notes: string[] = [];
  const anyDash = table.rows.some((r) => table.columns.some((c) => definedMean(r.cells[c]) === null));
  if (anyDash) notes.push('–: no defined value (every issue of the row lacks positives, or the row is empty).');
  for (const r of table.rows) {
    if (r.isAverage) continue;
    const left = Math.max(0, ...table.columns.map((c) => r.cells[c]?.nUndefined ?? 0));
    const used = Math.max(0, ...table.columns.map((c) => r.cells[c]?.n ?? 0));
    if (left > 0) notes.push(`${r.label}: ${left} of ${left + used} issues have no positives and are left out of the means.`);
  }
  return notes;
}

/** Options of {@link toMarkdown}. */
export interface MarkdownOptions {
  /** Decimals; default 3 as in the paper. */
  readonly digits?: number;
  /** `'rows'` (default): a row per retriever/project; `'metrics-as-rows'`: transposed. */
  readonly layout?: 'rows' | 'metrics-as-rows';
  /** Bold the best value of each metric (average row excluded); default true. */
  readonly markBest?: boolean;
}

function escapeMd(s: string): string {
  return s.replace(/\|/g, '\\|');
}

/** Renders a table as GitHub Markdown with its title as a heading and notes below. */
export function toMarkdown(table: MetricTable, options: MarkdownOptions = {}): string {
  const digits = options.digits ?? 3;
  const markBest = options.markBest ?? true;
  const best = new Map<string, number>();
  for (const c of table.columns) {
    const vals = table.rows.filter((r) => !r.isAverage).map((r) => definedMean(r.cells[c])).filter((v): v is number => v !== null);
    if (vals.length > 1) best.set(c, Math.max(...vals));
  }
  const cell = (r: TableRow, c: string): string => {
    const v = definedMean(r.cells[c]);
    if (v === null) return '–';
    const s = v.toFixed(digits);
    return markBest && !r.isAverage && best.get(c)?.toFixed(digits) === s ? `**${s}**` : s; // ties as printed
  };
  let header: string[];
  let lines: string[][];
  if (options.layout === 'metrics-as-rows') {
    header = ['Metric', ...table.rows.map((r) => r.label)];
    lines = table.columns.map((c) => [c, ...table.rows.map((r) => cell(r, c))]);
  } else {
    header = [table.rowHeader, ...table.columns];
    lines = table.rows.map((r) => [r.label, ...table.columns.map((c) => cell(r, c))]);
  }
  const row = (cells: string[]): string => `| ${cells.map(escapeMd).join(' | ')} |`;
  const out = [`### ${table.title}`, '', row(header), `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...lines.map(row)];
  const notes = tableNotes(table);
  if (notes.length > 0) out.push('', ...notes.map((n) => `- ${n}`));
  return out.join('\n') + '\n';
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Renders a table as CSV (RFC 4180): label column, one column per metric (full precision; empty
 * when undefined), then `n` (issues, or rows for the average row) and `n_undefined` (issues left
 * out), both the largest over the metrics.
 */
export function toCsv(table: MetricTable): string {
  const head = [table.rowHeader, ...table.columns, 'n', 'n_undefined'];
  const lines = table.rows.map((r) => {
    const vals = table.columns.map((c) => {
      const v = definedMean(r.cells[c]);
      return v === null ? '' : String(v);
    });
    const n = Math.max(0, ...table.columns.map((c) => r.cells[c]?.n ?? 0));
    const u = Math.max(0, ...table.columns.map((c) => r.cells[c]?.nUndefined ?? 0));
    return [r.label, ...vals, String(n), String(u)];
  });
  return [head, ...lines].map((l) => l.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Renders a table as JSON: title, rowHeader, columns, rows (label, isAverage, cells {mean|null, n, nUndefined}), notes. */
export function toJson(table: MetricTable): string {
  const rows = table.rows.map((r) => ({
    label: r.label,
    isAverage: r.isAverage === true,
    cells: Object.fromEntries(table.columns.map((c) => {
      const a = r.cells[c];
      return [c, { mean: definedMean(a), n: a?.n ?? 0, nUndefined: a?.nUndefined ?? 0 }];
    })),
  }));
  return JSON.stringify({ title: table.title, rowHeader: table.rowHeader, columns: table.columns, rows, notes: tableNotes(table) }, null, 2) + '\n';
}

/**
 * Writes `<dir>/<name>.md`, `.csv` and `.json` atomically.
 * @returns the three paths written.
 * @throws IssuelocError for a name with a path separator; fs errors as node:fs throws them.
 */
export function writeTable(dir: string, name: string, table: MetricTable, markdown: MarkdownOptions = {}): string[] {
  if (!/^[^/\\]+$/.test(name)) throw new IssuelocError(`table name '${name}' must be a plain file name`);
  const files: [string, string][] = [
    [join(dir, `${name}.md`), toMarkdown(table, markdown)],
    [join(dir, `${name}.csv`), toCsv(table)],
    [join(dir, `${name}.json`), toJson(table)],
  ];
  for (const [p, text] of files) writeFileAtomic(p, [text]);
  return files.map(([p]) => p);
}
