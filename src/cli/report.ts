/**
 * `issueloc report RESULTS -o report.html`: one HTML page with the tables and charts of every
 * results folder under RESULTS (`src/eval/html-report.ts`); parsing and writing only.
 */
import { Command, Option } from 'commander';
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { requireParts } from '../util/optional-packages.js';

/** `issueloc report` (see the file comment). */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('gather the tables and charts of eval results folders into one HTML page (SVG inlined)')
    .argument('<results>', 'a results folder, or a folder holding several')
    .requiredOption('-o, --out <file>', 'HTML file to write')
    .option('--title <text>', 'page title')
    .addOption(new Option('--group <field>', 'issue-type analysis by category or raw type').choices(['category', 'type']).default('category'))
    .action(async (root: string, o) => {
      requireParts('report', 'stats', 'charts');
      // loaded on use: the report renders charts with vega (~0.7 s to load)
      const { buildHtmlReport, findResultsFolders } = await import('../eval/html-report.js');
      const dirs = findResultsFolders(root);
      if (dirs.length === 0) throw new IssuelocError(`no results folder of issueloc eval under ${root}`);
      const html = await buildHtmlReport(dirs, { title: o.title, groupBy: o.group });
      writeFileAtomic(o.out, [html]);
      process.stdout.write(`${dirs.length} results folder${dirs.length === 1 ? '' : 's'} → ${o.out}\n`);
    });
}
