/**
 * `issueloc dataset build` and `issueloc dataset stats` (`dataset import`: `dataset-import.ts`):
 * argument parsing, progress and output formatting only; the mining is `src/dataset/build.ts`
 * (function level: `build-functions.ts`), the statistics `src/dataset/stats.ts`.
 */
import { Command, Option } from 'commander';
import Table from 'cli-table3';
import { IssuelocError } from '../errors.js';
import { readTypeTable } from '../issues/category.js';
import { ISSUE_FORMATS, readIssues, type IssueFormat } from '../issues/read.js';
import { buildDataset, DEFAULT_LINKABLE_RESOLUTIONS } from '../dataset/build.js';
import { addFunctionLevel } from '../dataset/build-functions.js';
import { customPattern, githubPattern, jiraPattern, type LinkPattern } from '../dataset/links.js';
import { sidecarPaths, writeDataset } from '../dataset/output.js';
import { datasetStats, type DatasetStats, type Summary } from '../dataset/stats.js';
import { VARIANTS, type Variant } from '../dataset/variants.js';
import { registerImport } from './dataset-import.js';
import { registerMineCommits } from './mine-commits.js';
import { progressBar } from '../util/progress-bar.js';

/** Parses `--max-gap`: `p90`, `none`, or a positive number of days. */
function parseMaxGap(v: string): 'p90' | number | null {
  if (v === 'p90') return 'p90';
  if (v === 'none') return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new IssuelocError(`--max-gap takes p90, none or a number of days, got '${v}'`);
  return n;
}

/** The link patterns the options ask for. */
function patternsOf(o: { key?: string[]; github?: boolean; linkPattern?: string[]; ignoreCase?: boolean }, format: IssueFormat): LinkPattern[] {
  const patterns: LinkPattern[] = [];
  const keys = (o.key ?? []).flatMap((k) => k.split(',')).map((k) => k.trim()).filter((k) => k !== '');
  if (keys.length > 0) patterns.push(jiraPattern(keys, o.ignoreCase));
  if (o.github || (patterns.length === 0 && !o.linkPattern && format === 'github-json')) patterns.push(githubPattern());
  for (const p of o.linkPattern ?? []) patterns.push(customPattern(p));
  return patterns;
}

function registerBuild(dataset: Command): void {
  dataset
    .command('build')
    .description('link issues to the commits that fix them and write one labelled sample per issue (JSONL)')
    .requiredOption('--repo <path>', 'git repository with full history (work tree or bare)')
    .requiredOption('--issues <file>', 'issue file (Jira JSONL/JSON/XML/CSV, GitHub JSON, plain JSONL)')
    .requiredOption('-o, --out <file>', 'dataset file to write (JSONL); <name>.dropped.jsonl and <name>.meta.json go beside it')
    .option('--key <keys...>', 'Jira project key(s) to find in first lines of commit messages, e.g. MNG')
    .option('--github', 'find GitHub references (#N, GH-N, fixes #N) in first lines')
    .option('--link-pattern <regex...>', 'own regular expression(s) for issue ids (first group = id)')
    .option('--ignore-case', 'match Jira keys ignoring case (mng-123)')
    .addOption(new Option('--variant <variant>', 'sample variant').choices([...VARIANTS]).default('first-commit'))
    .addOption(new Option('--format <format>', 'issue file format').choices([...ISSUE_FORMATS]).default('auto'))
    .option('--skip-invalid', 'skip (and count) corrupt issue records instead of failing')
    .option('--rev <revs...>', 'revisions whose history is mined', ['HEAD'])
    .option('--all', 'mine the history of every ref (git log --all) instead of --rev')
    .option('--resolutions <list>', `linkable resolutions, comma-separated, or "any" (default ${DEFAULT_LINKABLE_RESOLUTIONS.join(',')})`)
    .option('--type-table <file>', 'JSON {"type": "category"} merged over the default issue-type table')
    .option('--no-tests', 'leave test files out of candidates and positives')
    .option('--max-gap <p90|days|none>', 'gap rule of all-future-files/exact-commits', 'p90')
    .option('--functions', 'also fill positiveFunctions: existing functions the linked commits edit (SweLoc style)')
    .option('--only-with-tests', 'keep only issues whose fixing commits also change a test file')
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (o) => {
      const typeTable = o.typeTable ? readTypeTable(o.typeTable) : undefined;
      const read = readIssues(o.issues, { format: o.format as IssueFormat, skipInvalid: o.skipInvalid === true, typeTable });
      const patterns = patternsOf(o, read.format);
      if (patterns.length === 0 && !read.issues.some((i) => i.fixCommits)) {
        throw new IssuelocError(`no way to link issues of ${o.issues}: pass --key KEY, --github or --link-pattern REGEX`);
      }
      const resolutions = o.resolutions === undefined ? undefined : o.resolutions === 'any' ? null : String(o.resolutions).split(',').map((s: string) => s.trim()).filter((s: string) => s !== '');
      const walkBar = progressBar('walking history', o.progress);
      const labelBar = progressBar('labelling issues', o.progress);
      let phase: 'walk' | 'label' = 'walk';
      const built = await buildDataset({
        repo: o.repo,
        issues: read.issues,
        issuesFile: o.issues,
        invalidIssueRecords: read.invalid.length,
        revs: o.all ? ['--all'] : o.rev,
        patterns,
        variant: o.variant as Variant,
        linkableResolutions: resolutions,
        withTests: o.tests !== false,
        maxGap: parseMaxGap(String(o.maxGap)),
        onProgress: (p, done, total) => {
          if (p === 'label' && phase === 'walk') {
            walkBar.stop();
            phase = 'label';
          }
          (p === 'walk' ? walkBar : labelBar).update(done, total);
        },
      }).finally(() => {
        walkBar.stop();
        labelBar.stop();
      });
      const functionBar = progressBar('positive functions', o.progress);
      const result = await addFunctionLevel(built, {
        functions: o.functions === true,
        onlyWithTests: o.onlyWithTests === true,
        progress: (done, total) => functionBar.update(done, total),
      }).finally(() => functionBar.stop());
      writeDataset(o.out, result);
      const fn = result.meta.functions;
      const c = result.meta.counts;
      const side = sidecarPaths(o.out);
      const lines = [
        `issues ${c.issues} (${read.format}${read.invalid.length ? `, ${read.invalid.length} invalid records skipped` : ''}) · max linkable ${c.maxLinkable} · linked ${c.linked} · in dataset ${c.inDataset}`,
        `commits walked ${c.commits} · with keys ${c.commitsWithKeys} · unknown keys ${c.unknownKeys} · reverts excluded ${c.revertCommits} · merge links dropped ${c.mergeLinksDropped}${c.missingContentCommits ? ` · commits without rename detection (missing blobs) ${c.missingContentCommits}` : ''}`,
        `dropped: ${Object.entries(result.meta.dropReasons).map(([r, n]) => `${r} ${n}`).join(', ') || 'none'}`,
        ...(fn ? [`positive functions ${fn.positiveFunctions} · records without any ${fn.recordsWithoutFunctions}${fn.unreadableCommits.length ? ` · commits with unreadable diffs (missing blobs) ${fn.unreadableCommits.length}` : ''}`] : []),
        `wrote ${result.records.length} records to ${o.out} (dropped issues: ${side.dropped}; counts: ${side.meta}) in ${(result.meta.millis.total / 1000).toFixed(1)} s`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      if (result.records.length === 0) process.exitCode = 1;
    });
}

function fmt(n: number | null): string {
  if (n === null) return '–';
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function summaryCells(s: Summary): string[] {
  return [fmt(s.min), fmt(s.max), fmt(s.mean), fmt(s.median)];
}

/** The Table 2 table of some datasets. */
export function statsTable(rows: readonly DatasetStats[]): string {
  const withFunctions = rows.some((r) => r.functions.max > 0);
  const head = ['dataset', 'unknown issues', 'max linkable', 'linked', 'in dataset', 'files min', 'max', 'mean', 'median', 'positives min', 'max', 'mean', 'median'];
  if (withFunctions) head.push('functions min', 'max', 'mean', 'median', 'without functions');
  const table = new Table({ head, style: { head: [], border: [] } });
  for (const r of rows) {
    const row = [r.file, fmt(r.unknownIssues), fmt(r.maxLinkable), fmt(r.linked), r.samples === r.inDataset ? fmt(r.inDataset) : `${r.inDataset} (${r.samples} samples)`, ...summaryCells(r.files), ...summaryCells(r.positives)];
    if (withFunctions) row.push(...summaryCells(r.functions), fmt(r.withoutFunctions));
    table.push(row);
  }
  return table.toString();
}

function registerStats(dataset: Command): void {
  dataset
    .command('stats')
    .description("dataset statistics in the columns of the paper's Table 2")
    .argument('<files...>', 'dataset files (JSONL); counts from <name>.meta.json when present')
    .option('--json', 'one JSON object per dataset, one a line')
    .action((files: string[], o) => {
      const rows = files.map((f) => datasetStats(f));
      if (o.json) process.stdout.write(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
      else process.stdout.write(`${statsTable(rows)}\n`);
      if (rows.every((r) => r.samples === 0)) process.exitCode = 1;
    });
}

/** Registers `dataset build`, `dataset import` and `dataset stats` on the program. */
export function registerDatasetCommands(program: Command): void {
  const dataset = program.command('dataset').description('mine, import and describe issue-localisation datasets');
  registerBuild(dataset);
  registerImport(dataset);
  registerStats(dataset);
  registerMineCommits(dataset);
}
