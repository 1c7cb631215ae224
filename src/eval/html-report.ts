/**
 * One self-contained HTML page gathering the results of one or more evaluation runs: the paper's
 * Table 3 (retrievers, averaged over projects) and Table 4 (projects, averaged over retrievers),
 * each project's tables, issue-type analysis with its charts (Figures 4–5) and identifier
 * correlations with heatmaps (Figure 6), charts inlined as SVG. No browser or network needed.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { renderSvg } from '../stats/chart-render.js';
import { STATS_METRICS } from '../stats/type-analysis.js';
import {
  correlationHeatmap, correlationReport, identifierCorrelations, rowsOf, typeAnalysisOf, typeAnalysisReport, typeChartSpec,
  type GroupBy,
} from './analyse.js';
import { PAPER_METRICS, DEFAULT_METRICS, type MetricAggregate } from '../metrics/ranking-metrics.js';
import {
  aggregatesBySplit, isResultsFolder, readResults, reportedSplits, retrieverLabel, retrieverTable, type ResultsFolder,
} from './results.js';
import type { SplitLabel } from './run-eval.js';
import { averageRows, metricTable, toMarkdown, type MetricTable } from './tables.js';

/**
 * Results folders under `root`: `root` itself when it is one, else its sub-folders (two levels
 * deep) that are, sorted by path.
 */
export function findResultsFolders(root: string): string[] {
  if (isResultsFolder(root)) return [root];
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (!statSync(p).isDirectory()) continue;
      if (isResultsFolder(p)) out.push(p);
      else if (depth < 2) walk(p, depth + 1);
    }
  };
  walk(root, 1);
  return out;
}

/** The split a folder is reported on: test when it has a temporal split, else all. */
export function mainSplit(f: ResultsFolder): SplitLabel {
  return reportedSplits(f.rows).includes('test') ? 'test' : 'all';
}

/**
 * Table 3 across projects: a row per retriever, each cell the mean over projects of the
 * project's mean (the paper's "averaged over all projects"); then the average row.
 */
export function table3AcrossProjects(folders: readonly ResultsFolder[], columns: readonly string[] = PAPER_METRICS): MetricTable {
  const retrievers = [...new Set(folders.flatMap((f) => f.summary.retrievers))];
  const rows = retrievers.map((r) => {
    const perProject = folders.filter((f) => f.summary.retrievers.includes(r))
      .map((f) => aggregatesBySplit(f.rows, [r], mainSplit(f), columns).get(r) ?? {});
    return { label: retrieverLabel(r), aggregates: projectMeans(perProject, columns) };
  });
  return metricTable(rows, { title: `Performance by retriever, averaged over ${folders.length} project${folders.length === 1 ? '' : 's'}`, columns });
}

/** Table 4: a row per project, each cell the mean over the project's retrievers. */
export function table4ByProject(folders: readonly ResultsFolder[], columns: readonly string[] = PAPER_METRICS): MetricTable {
  const rows = folders.map((f) => {
    const aggs = aggregatesBySplit(f.rows, f.summary.retrievers, mainSplit(f), columns);
    return { label: f.summary.name, aggregates: projectMeans([...aggs.values()], columns) };
  });
  return metricTable(rows, { title: 'Performance by project, averaged over retrievers', rowHeader: 'Project', columns });
}

function projectMeans(rows: readonly Readonly<Record<string, MetricAggregate>>[], columns: readonly string[]): Record<string, MetricAggregate> {
  const cells = averageRows('', rows, columns).cells;
  // n counts averaged rows here, not issues: report no left-out issues for these rows.
  return Object.fromEntries(columns.map((c) => [c, { ...cells[c], nUndefined: 0 }]));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const inline = (s: string) => esc(s).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/`([^`]+)`/g, '<code>$1</code>');

/** HTML of the Markdown this project writes: `###` headings, pipe tables, `- ` notes, paragraphs. */
export function markdownToHtml(md: string): string {
  const out: string[] = [];
  const lines = md.split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, (/^#+/.exec(line) as RegExpExecArray)[0].length + 1);
      out.push(`<h${level}>${inline(line.replace(/^#+ /, ''))}</h${level}>`);
      i++;
    } else if (line.startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i].startsWith('|')) {
        const cells = lines[i].trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
        if (!cells.every((c) => /^:?-{3,}:?$/.test(c))) rows.push(cells);
        i++;
      }
      const [head, ...body] = rows;
      out.push('<table>', `<tr>${(head ?? []).map((c) => `<th>${inline(c)}</th>`).join('')}</tr>`,
        ...body.map((r) => `<tr>${r.map((c, k) => `<td${k > 0 ? ' class="num"' : ''}>${inline(c)}</td>`).join('')}</tr>`), '</table>');
    } else if (line.startsWith('- ')) {
      const items: string[] = [];
      while (i < lines.length && lines[i].startsWith('- ')) items.push(`<li>${inline(lines[i++].slice(2))}</li>`);
      out.push(`<ul class="notes">${items.join('')}</ul>`);
    } else if (line.trim() !== '') {
      out.push(`<p>${inline(line)}</p>`);
      i++;
    } else i++;
  }
  return out.join('\n');
}

/** Options of {@link buildHtmlReport}. */
export interface HtmlReportOptions {
  readonly title?: string;
  /** Grouping of the issue-type analysis; default `category`. */
  readonly groupBy?: GroupBy;
}

async function chart(spec: TopLevelSpec): Promise<string> {
  return `<figure>${await renderSvg(spec)}</figure>`;
}

/**
 * The HTML page of several results folders (see the module comment).
 * @throws IssuelocError when a folder cannot be read or a chart cannot be rendered.
 */
export async function buildHtmlReport(dirs: readonly string[], options: HtmlReportOptions = {}): Promise<string> {
  const folders = dirs.map(readResults);
  const by = options.groupBy ?? 'category';
  const body: string[] = [];
  const title = options.title ?? 'issueloc evaluation report';
  body.push(`<h1>${esc(title)}</h1>`);
  body.push(`<p>${folders.length} run${folders.length === 1 ? '' : 's'}: ${folders.map((f) => esc(f.summary.name)).join(', ')}. Means are over each run's test split when it has one (temporal 50/50 split by first commit), else over all its issues; issues without positives are left out of the means and counted in the notes.</p>`);
  if (folders.length > 1) {
    body.push(markdownToHtml(toMarkdown(table3AcrossProjects(folders))));
    body.push(markdownToHtml(toMarkdown(table4ByProject(folders))));
    const cross = [];
    for (const f of folders) {
      const r = f.summary.retrievers.includes('bm25f') ? 'bm25f' : f.summary.retrievers[0];
      const rows = identifierCorrelations(rowsOf(f.rows, r, mainSplit(f)), by);
      cross.push({ ...rows[0], label: `${f.summary.name} (${retrieverLabel(r)})` });
    }
    body.push('<h2>Identifiers vs metrics by project</h2>', await chart(correlationHeatmap(cross, 'Spearman ρ, identifiers vs metric, by project')));
  }
  for (const f of folders) {
    const split = mainSplit(f);
    const s = f.summary;
    body.push(`<h2 id="${esc(basename(f.dir))}">${esc(s.name)}</h2>`);
    body.push(`<p>Dataset <code>${esc(s.dataset)}</code>, repository <code>${esc(s.repo)}</code>; ${s.counts.evaluated} of ${s.counts.records} issues evaluated (${s.counts.test > 0 ? `${s.counts.validation} validation, ${s.counts.test} test` : 'one set, no split'}), ${s.counts.skippedRecords} records skipped, ${s.counts.issuesWithoutPositives} issues without positives.</p>`);
    if (s.command) body.push(`<p>Regenerate: <code>${esc(s.command)}</code></p>`);
    for (const sp of reportedSplits(f.rows)) {
      const n = new Set(f.rows.filter((r) => r.split === sp).map((r) => r.issue)).size;
      body.push(markdownToHtml(toMarkdown(retrieverTable(f.rows, s.retrievers, sp, `${s.name}: ${sp === 'all' ? 'all issues' : `${sp} split`} (${n} issues)`))));
    }
    body.push(markdownToHtml(toMarkdown(retrieverTable(f.rows, s.retrievers, split, `${s.name}: MAP and Acc@k (${split})`, DEFAULT_METRICS.filter((m) => !(PAPER_METRICS as readonly string[]).includes(m))))));
    body.push(`<h3>Issue types (${by})</h3>`);
    for (const r of s.retrievers) {
      const t = typeAnalysisOf(rowsOf(f.rows, r, split), r, by);
      body.push(markdownToHtml(typeAnalysisReport(t, `Kruskal-Wallis, ${s.name} (${split})`)));
      body.push(await chart(typeChartSpec(t, `Mean per ${by}, ${s.name}`)));
    }
    body.push('<h3>Identifiers and file names in the issue vs each metric</h3>');
    const overview = [];
    for (const r of s.retrievers) {
      const rows = identifierCorrelations(rowsOf(f.rows, r, split), by);
      body.push(markdownToHtml(correlationReport(rows, `Spearman ρ, ${s.name} (${split}), ${retrieverLabel(r)}`)));
      overview.push({ ...rows[0], label: retrieverLabel(r) });
    }
    body.push(await chart(correlationHeatmap(overview, `Spearman ρ, identifiers vs ${STATS_METRICS.length} metrics, ${s.name}`)));
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body{font-family:DejaVu Sans,Arial,Helvetica,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1em}th,td{border:1px solid #ccc;padding:.2em .5em}th{background:#f3f3f3}
td.num{text-align:right;font-variant-numeric:tabular-nums}ul.notes{font-size:.85em;color:#555}figure{margin:.5em 0 1.5em}
code{background:#f6f6f6;padding:0 .2em}
</style></head><body>
${body.join('\n')}
</body></html>
`;
}
