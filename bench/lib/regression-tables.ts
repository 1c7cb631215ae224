/**
 * The docs' tables written from regressions: a Markdown section between
 * `<!-- regression:NAME[,NAME…] -->` and `<!-- /regression -->` holds the table of those
 * regressions' `table` rows (bench/regressions/README.md), so a figure in the docs is the figure
 * `npm run bench:verify` checks.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../src/errors.js';
import { formatMetric } from './metrics-table.js';
import { ROOT, type Metrics, type Regression } from './regressions.js';

/** The files that may hold regression tables: README.md and the Markdown files of docs/. */
export function docFiles(): string[] {
  const docs = join(ROOT, 'docs');
  return [join(ROOT, 'README.md'), ...readdirSync(docs).filter((f) => f.endsWith('.md')).sort().map((f) => join(docs, f))];
}

/** Label and values of one table row. */
interface Row { label: string; metrics: Partial<Metrics> }

/** Metric columns grouped by level (`file Acc@1`, `file Acc@3` → one `file Acc@1/3` group). */
function levelGroups(keys: readonly string[]): { header: string; keys: string[] }[] {
  const groups: { level: string; keys: string[] }[] = [];
  for (const key of keys) {
    const level = key.split(' ')[0];
    if (groups.at(-1)?.level === level) groups.at(-1)!.keys.push(key);
    else groups.push({ level, keys: [key] });
  }
  return groups.map(({ level, keys: ks }) => {
    const metrics = ks.map((k) => k.slice(level.length + 1));
    const cut = metrics.map((m) => /^(.*@)(\d+)$/.exec(m));
    const prefix = cut[0]?.[1];
    const header = cut.every((c) => c && c[1] === prefix) ? `${prefix}${cut.map((c) => c![2]).join('/')}` : metrics.join(' / ');
    return { header: `${level} ${header}`, keys: ks };
  });
}

/**
 * The Markdown table of the `table` rows of `regs`, in order: layout, first header and mean
 * column from the first regression; columns = the metrics of the first row.
 * @throws IssuelocError (exit 2) when the first regression has no `table`.
 */
export function regressionTable(regs: readonly Regression[]): string {
  const spec = regs[0]?.table;
  if (!spec) throw new IssuelocError(`${regs[0]?.path ?? 'no regression'}: no "table" to write`, 2);
  const rows: Row[] = regs.flatMap((reg) => (reg.table?.rows ?? []).map((r) => ('row' in r ? { label: r.label, metrics: reg.expected[r.row] } : r)));
  const keys = Object.keys(rows[0]?.metrics ?? {});
  const groups = spec.layout === 'levels' ? levelGroups(keys) : keys.map((k) => ({ header: k, keys: [k] }));
  const headers = [spec.first, ...groups.map((g) => g.header), ...(spec.mean ? [spec.mean] : [])];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |\n`;
  let out = line(headers) + `|${headers.map(() => '---').join('|')}|\n`;
  for (const row of rows) {
    const cells = groups.map((g) => g.keys.map((k) => formatMetric(k, row.metrics[k])).join(' / '));
    if (spec.mean) {
      const values = keys.map((k) => row.metrics[k]);
      cells.push(values.every((v) => v !== undefined) ? (values.reduce((a, b) => a! + b!, 0)! / values.length).toFixed(1) : '–');
    }
    out += line([row.label, ...cells]);
  }
  return out;
}

const SECTION = /<!-- regression:([^\s>]*) -->\n([\s\S]*?)<!-- \/regression -->/g;

/**
 * `markdown` with every regression section rewritten from the regressions it names.
 * @param load the regression of a name (throws for an unknown one).
 * @returns the new text and the names of the sections whose table changed.
 * @throws IssuelocError (exit 2) for an opening marker without its closing one.
 */
export function rewriteRegressionTables(markdown: string, where: string, load: (name: string) => Regression): { text: string; changed: string[] } {
  const opened = markdown.match(/<!-- regression:/g)?.length ?? 0;
  const closed = markdown.match(/<!-- \/regression -->/g)?.length ?? 0;
  if (opened !== closed) throw new IssuelocError(`${where}: ${opened} <!-- regression:… --> markers but ${closed} <!-- /regression -->`, 2);
  const changed: string[] = [];
  const text = markdown.replace(SECTION, (_all, names: string, old: string) => {
    // blank lines around the table: a Markdown table then starts and ends as a block of its own
    const section = `\n${regressionTable(names.split(',').map(load))}\n`;
    if (section !== old) changed.push(names);
    return `<!-- regression:${names} -->\n${section}<!-- /regression -->`;
  });
  return { text, changed };
}
