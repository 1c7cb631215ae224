/**
 * `issueloc eval`: runs the file retrievers on a dataset and writes a results folder
 * (`src/eval/run-eval.ts`, `src/eval/results.ts`); argument parsing, progress and output only.
 * Also registers `stats` and `report`, which read results folders.
 */
import { basename, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { DEFAULT_ISSUE_TEXT, type IssueTextOptions } from '../eval/issue-text.js';
import { RunFileWriter, retrieverTable, writeResults, writeSummary, type RunSummary } from '../eval/results.js';
import { defaultWorkers, runEvaluation, type EvalOptions, type SplitMode } from '../eval/run-eval.js';
import { toMarkdown } from '../eval/tables.js';
import { textSettingsLabel, type TextSettings } from '../eval/text-settings.js';
import { PAPER_RETRIEVERS, parseRetrieverList, type RetrieverSettings } from '../retrieve/file-retrievers/registry.js';
import { makeDirs } from '../util/make-dirs.js';
import { parseNumberOption } from '../util/number-option.js';
import { progressBar, type ProgressBar } from '../util/progress-bar.js';
import { registerReportCommand } from './report.js';
import { registerStatsCommand } from './stats.js';

/** Registers `eval`, `stats` and `report`. */
export function registerEvalCommands(program: Command): void {
  registerEvalCommand(program);
  registerStatsCommand(program);
  registerReportCommand(program);
}

function number(v: string, name: string, min: number, max?: number, whole = false): number {
  return parseNumberOption(v, name, { min, max, whole });
}

/** `issueloc eval` (see the file comment). */
export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description('evaluate file retrievers on a localisation dataset (temporal split, P/H/R@k, RP, MRR, MAP, Acc@k; TREC runs and tables)')
    .requiredOption('--dataset <file>', 'dataset JSONL (issueloc dataset build or dataset import), or a SWE-bench, Loc-Bench or Tomcat file (SWE-bench and Tomcat with --mirrors)')
    .option('--repo <path>', 'the git repository of the dataset (work tree or bare); default: where its records say they were mined or imported (provenance.repoPath of dataset build, mine-commits, import)')
    .option('--mirrors <dir>', 'instead of --repo: folder of fetched repositories (OWNER+NAME/repo) found by each record\'s repo')
    .requiredOption('-o, --out <dir>', 'results folder to write')
    .option('--retrievers <list>', 'comma-separated: bm25f, tfidf, rvsm, lsi<k>', PAPER_RETRIEVERS.join(','))
    .addOption(new Option('--split <mode>', 'temporal: 50/50 by first commit (validation, test); all: one set').choices(['temporal', 'all']).default('temporal'))
    .option('--name <project>', 'project name in tables (default: the results folder name)')
    .addOption(new Option('--formatting <mode>', 'issue body formatting').choices(['raw', 'remove']).default('raw'))
    .addOption(new Option('--code <mode>', 'code/noformat/panel blocks of issue bodies').choices(['keep', 'remove', 'marker']).default('keep'))
    .addOption(new Option('--body-format <format>', 'markup of issue bodies').choices(['auto', 'html', 'jira-wiki', 'markdown', 'text']).default('auto'))
    .option('--no-lower', 'keep the case of tokens')
    .option('--no-stem', 'no Porter stemming')
    .option('--split-identifiers', 'split camelCase/snake_case identifiers into sub-tokens')
    .option('--exclude-tests', 'leave test files out of the candidates (default: all source files, as the paper)')
    .addOption(new Option('--tf-weighting <mode>', 'TF of tfidf and lsi: fields (replication package) or joint (scikit-learn)').choices(['fields', 'joint']).default('fields'))
    .addOption(new Option('--rvsm <variant>', 'rVSM formulas').choices(['replication', 'zhou']).default('replication'))
    .addOption(new Option('--bm25-query <weights>', 'BM25F+ query term weights').choices(['unique', 'count']).default('unique'))
    .option('--k1 <x>', 'BM25F+ k1', '1.2')
    .option('--b <x>', 'BM25F+ b', '0.75')
    .option('--delta <x>', 'BM25F+ δ', '1')
    .option('--lsi-refit <share>', 'reuse an LSI model while at most this share of files differs (0 = fit every state, exact and slow)', '0.1')
    .option('--lsi-iterations <n>', 'power iterations of the randomized SVD', '1')
    .option('--workers <n>', 'worker threads', String(defaultWorkers()))
    .option('--run-depth <n>', 'files per issue in the TREC runs', '1000')
    .option('--max-file-bytes <n>', 'leave out files larger than this')
    .option('--limit <n>', 'evaluate only the first n issues (in a-priori time order)')
    .option('--json', 'one JSON object a line on stdout: each issue result, then a summary')
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (o) => {
      const out = resolve(o.out as string);
      const retrievers = parseRetrieverList(o.retrievers);
      const text: TextSettings = { lowercase: o.lower, stem: o.stem, splitIdentifiers: o.splitIdentifiers === true };
      const issueText: IssueTextOptions = {
        ...DEFAULT_ISSUE_TEXT,
        formatting: o.formatting === 'remove' ? 'remove-formatting' : 'raw',
        code: o.code,
        format: o.bodyFormat,
      };
      const retrieverSettings: RetrieverSettings = {
        tfWeighting: o.tfWeighting,
        rvsmVariant: o.rvsm,
        bm25QueryWeights: o.bm25Query,
        bm25: { k1: number(o.k1, '--k1', 0), b: number(o.b, '--b', 0, 1), delta: number(o.delta, '--delta', 0) },
        lsiRefit: number(o.lsiRefit, '--lsi-refit', 0, 1),
        lsiPowerIterations: number(o.lsiIterations, '--lsi-iterations', 0, 20, true),
      };
      const options: EvalOptions = {
        dataset: o.dataset, repo: o.repo, mirrors: o.mirrors, retrievers, split: o.split as SplitMode, text, issueText,
        includeTests: o.excludeTests !== true, retrieverSettings,
        workers: number(o.workers, '--workers', 1, 64, true),
        runDepth: number(o.runDepth, '--run-depth', 1, undefined, true),
        maxFileBytes: o.maxFileBytes === undefined ? undefined : number(o.maxFileBytes, '--max-file-bytes', 1, undefined, true),
        limit: o.limit === undefined ? undefined : number(o.limit, '--limit', 1, undefined, true),
        onProgress: progressOf(o.progress),
      };
      makeDirs(out);
      const runs = new RunFileWriter(out, retrievers);
      let run;
      try {
        run = await runEvaluation(options, (_issue, _split, outcome) => runs.add(outcome));
        runs.commit();
      } catch (e) {
        runs.abort();
        throw e;
      } finally {
        options.onProgress?.('evaluate', -1, -1);
      }
      const t0 = performance.now();
      const summary: RunSummary = {
        tool: 'issueloc eval', name: o.name ?? basename(out), dataset: o.dataset, repo: o.repo ?? (o.mirrors === undefined ? 'where the records were mined (provenance.repoPath)' : `mirrors: ${o.mirrors}`),
        command: `issueloc ${process.argv.slice(2).join(' ')}`,
        settings: { text, textLabel: textSettingsLabel(text), issueText, includeTests: options.includeTests, retrieverSettings, runDepth: options.runDepth, maxFileBytes: options.maxFileBytes ?? null, limit: options.limit ?? null },
        retrievers, split: options.split, counts: run.counts, boundary: run.boundary, timings: run.timings, stats: run.stats, workers: run.workers,
      };
      writeResults(out, summary, run);
      summary.timings.writeMillis = performance.now() - t0;
      writeSummary(out, summary);
      if (o.json) {
        for (const r of run.rows) process.stdout.write(`${JSON.stringify({ kind: 'issue', ...r })}\n`);
        process.stdout.write(`${JSON.stringify({ kind: 'summary', out, ...summary })}\n`);
        return;
      }
      const c = run.counts;
      process.stdout.write(`${c.evaluated} of ${c.records} issues evaluated${options.limit ? ` (--limit ${options.limit})` : ''} (${c.skippedRecords} records skipped, see skipped.jsonl; `
        + `${c.issuesWithoutPositives} without positives; ${c.positivesNotCandidates} positives are not candidate files, ${c.positivesNotIndexed} could not be indexed)\n\n`);
      const split = c.test > 0 ? 'test' : c.validation > 0 ? 'validation' : 'all';
      if (options.split === 'temporal' && c.test === 0) process.stderr.write('issueloc: the test split is empty (--limit keeps the earliest issues); showing the validation split\n');
      const n = run.issues.filter((i) => i.split === split).length;
      process.stdout.write(toMarkdown(retrieverTable(run.rows, retrievers, split, `${summary.name}: ${split === 'all' ? 'all issues' : `${split} split`} (${n} issues)`)));
      process.stdout.write(`\nresults in ${out}\n`);
    });
}

/** Two progress bars in turn on stderr: preparing records, evaluating issues. `(…, -1, -1)` stops. */
function progressOf(enabled: boolean): EvalOptions['onProgress'] {
  let phase = '';
  let bar: ProgressBar | undefined;
  return (p, done, total) => {
    if (total < 0) {
      bar?.stop();
      bar = undefined;
      return;
    }
    if (p !== phase) {
      bar?.stop();
      phase = p;
      bar = progressBar(p === 'prepare' ? 'checking records' : 'evaluating', enabled);
    }
    bar?.update(done, total);
  };
}
