/**
 * `issueloc stats RESULTS --by type|identifiers`: the issue-type analysis (Kruskal-Wallis + ε²,
 * Conover) or the identifier correlations (Spearman ρ) of an evaluation's results, as Markdown on
 * stdout (or JSON lines) and as files with charts under `RESULTS/stats/`. Computation is in
 * `src/eval/analyse.ts` and `src/stats/`; this file parses arguments and writes output.
 */
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { IssuelocError } from '../errors.js';
import type { CountKind, GroupBy } from '../eval/analyse.js';
import { readResults, reportedSplits, retrieverLabel } from '../eval/results.js';
import type { SplitLabel } from '../eval/run-eval.js';
import type { writeChart as WriteChart } from '../stats/chart-render.js';
import { parsePAdjust } from '../stats/p-adjust.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { requireParts } from '../util/optional-packages.js';

/** `issueloc stats` (see the file comment). */
export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description('issue-type analysis (Kruskal-Wallis, ε², Conover) or identifier correlations (Spearman) of eval results')
    .argument('<results>', 'results folder written by issueloc eval')
    .addOption(new Option('--by <analysis>', 'which analysis').choices(['type', 'identifiers']).makeOptionMandatory())
    .addOption(new Option('--group <field>', 'group issues by the paper\'s category or by the raw issue type').choices(['category', 'type']).default('category'))
    .addOption(new Option('--split <split>', 'issues analysed (default: test when the run has a temporal split, else all)').choices(['test', 'validation', 'all']))
    .option('--retrievers <list>', 'retrievers to analyse (default: all of the run)')
    .option('--adjust <method>', 'p-value adjustment of Conover pairs: holm, bonferroni, fdr_bh, none', 'holm')
    .addOption(new Option('--count <kind>', 'identifier count correlated with the metrics').choices(['identifiers', 'identifiers+files']).default('identifiers'))
    .option('--no-charts', 'do not render SVG/PNG charts')
    .option('--json', 'JSON lines on stdout instead of Markdown')
    .action(async (dir: string, o) => {
      requireParts('stats', 'stats');
      if (o.charts) requireParts('stats (charts; --no-charts draws none)', 'charts');
      // loaded here, not at start: the statistics libraries cost every other command half a second
      const {
        correlationHeatmap, correlationReport, identifierCorrelations, rowsOf, typeAnalysisOf, typeAnalysisReport, typeChartSpec,
      } = await import('../eval/analyse.js');
      const res = readResults(dir);
      const present = reportedSplits(res.rows);
      const split: SplitLabel | 'all' = o.split ?? (present.includes('test') ? 'test' : 'all');
      const retrievers: string[] = o.retrievers ? String(o.retrievers).split(',').map((s: string) => s.trim()) : [...res.summary.retrievers];
      for (const r of retrievers) {
        if (!res.summary.retrievers.includes(r)) throw new IssuelocError(`retriever '${r}' is not in ${dir} (it has ${res.summary.retrievers.join(', ')})`);
      }
      const adjust = parsePAdjust(o.adjust);
      const by = o.group as GroupBy;
      const outDir = join(dir, 'stats');
      const title = `${res.summary.name}, ${split === 'all' ? 'all issues' : `${split} split`}`;
      const markdown: string[] = [];
      const json: unknown[] = [];
      const charts: [string, Parameters<typeof WriteChart>[1]][] = [];
      if (rowsOf(res.rows, retrievers[0], split).length === 0) throw new IssuelocError(`the ${split} split of ${dir} holds no issue`);
      if (o.by === 'type') {
        for (const r of retrievers) {
          const t = typeAnalysisOf(rowsOf(res.rows, r, split), r, by, adjust);
          markdown.push(typeAnalysisReport(t, `Issue types (${by}), ${title}`));
          json.push({ kind: 'type', retriever: r, split, group: by, groups: t.groups, analyses: t.analyses, means: t.means });
          charts.push([`by-type.${r}`, typeChartSpec(t, `Mean per ${by}, ${title}`)]);
        }
      } else {
        const overview = [];
        for (const r of retrievers) {
          const rows = identifierCorrelations(rowsOf(res.rows, r, split), by, o.count as CountKind);
          markdown.push(correlationReport(rows, `Spearman ρ: ${o.count} vs metric, ${title}, ${retrieverLabel(r)}`));
          json.push({ kind: 'identifiers', retriever: r, split, group: by, count: o.count, rows });
          charts.push([`identifiers.${r}`, correlationHeatmap(rows, `Spearman ρ, ${title}: ${retrieverLabel(r)}`)]);
          overview.push({ ...rows[0], label: retrieverLabel(r) });
        }
        charts.push(['identifiers', correlationHeatmap(overview, `Spearman ρ (${o.count}), ${title}`)]);
      }
      const name = o.by === 'type' ? 'by-type' : 'identifiers';
      writeFileAtomic(join(outDir, `${name}.md`), [markdown.join('\n')]);
      writeFileAtomic(join(outDir, `${name}.json`), [`${JSON.stringify(json, null, 2)}\n`]);
      if (o.charts && charts.length > 0) {
        // vega loads in ~0.7 s: only when charts are drawn
        const { writeChart } = await import('../stats/chart-render.js');
        for (const [base, spec] of charts) await writeChart(join(outDir, base), spec);
      }
      if (o.json) for (const j of json) process.stdout.write(`${JSON.stringify(j)}\n`);
      else process.stdout.write(`${markdown.join('\n')}\nwritten to ${outDir}\n`);
    });
}
