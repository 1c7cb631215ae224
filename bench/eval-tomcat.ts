// Speed of `issueloc eval` on the Tomcat dataset: all issues × the five retrievers of the paper,
// with the time split into I/O (git objects, results files), indexing (tokenizing blobs,
// building corpora, index() of each retriever incl. LSI's SVD) and scoring (score(), ranking,
// metrics). Prints numbers; asserts nothing.
//
//   node dist/bench/eval-tomcat.js [--dataset F] [--repo R] [--workers N] [--lsi-refit X] [--out DIR] [--limit N]
//
// Defaults: ../data-out/tomcat.first-commit.jsonl (from `issueloc dataset build` on Ye et al.'s
// Tomcat set) and MIRRORS/apache+tomcat/repo (bench/lib/data.ts); 2 workers; LSI refit 0.1.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ISSUE_TEXT } from '../src/eval/issue-text.js';
import { RunFileWriter, retrieverTable, writeResults, type RunSummary } from '../src/eval/results.js';
import { runEvaluation } from '../src/eval/run-eval.js';
import { toMarkdown } from '../src/eval/tables.js';
import { PAPER_TEXT_SETTINGS } from '../src/eval/text-settings.js';
import { PAPER_RETRIEVERS } from '../src/retrieve/file-retrievers/registry.js';
import { dataFile, mirrorRepo } from './lib/data.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const dataset = arg('dataset', '../data-out/tomcat.first-commit.jsonl');
const repo = arg('repo', mirrorRepo('apache+tomcat'));
const workers = Number(arg('workers', '2'));
const refit = Number(arg('lsi-refit', '0.1'));
const limit = process.argv.includes('--limit') ? Number(arg('limit', '0')) : undefined;
const out = arg('out', mkdtempSync(join(tmpdir(), 'eval-tomcat-')));
if (existsSync(dataset)) await bench();
else {
  process.stderr.write(`no dataset at ${dataset}: build it with\n  issueloc dataset build --repo ${repo} --issues ${dataFile('ye2014/tomcat.jsonl')} -o ${dataset}\n`);
  process.exitCode = 2;
}

async function bench(): Promise<void> {
  const retrievers = [...PAPER_RETRIEVERS];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const runs = new RunFileWriter(out, retrievers);
  let sinkMillis = 0;
  const run = await runEvaluation({
    dataset, repo, retrievers, split: 'temporal', text: PAPER_TEXT_SETTINGS, issueText: DEFAULT_ISSUE_TEXT, includeTests: true,
    retrieverSettings: { lsiRefit: refit }, workers, runDepth: 1000, limit,
  }, (_i, _s, o) => {
    const t = performance.now();
    runs.add(o);
    sinkMillis += performance.now() - t;
  });
  const tw = performance.now();
  runs.commit();
  const summary: RunSummary = {
    tool: 'issueloc eval', name: 'tomcat', dataset, repo, settings: { bench: true, lsiRefit: refit }, retrievers, split: 'temporal',
    counts: run.counts, boundary: run.boundary, timings: run.timings, stats: run.stats, workers: run.workers,
  };
  writeResults(out, summary, run);
  const writeMillis = performance.now() - tw + sinkMillis;
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);

  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
  const t = run.timings;
  const io = t.prepareMillis + t.listMillis + t.readMillis + writeMillis;
  const indexing = t.tokenizeMillis + sum(t.indexMillis);
  const scoring = sum(t.scoreMillis);
  const lines = [
    `Tomcat: ${run.counts.evaluated} issues (${run.counts.skippedRecords} records skipped) × ${retrievers.length} retrievers, ${run.workers} worker threads, LSI refit ${refit}`,
    `wall ${s(wall)} (prepare ${s(t.prepareMillis)}, evaluate ${s(t.evaluateWallMillis)}, write ${s(writeMillis)}); process CPU user ${s(cpu.user / 1000)}, system ${s(cpu.system / 1000)}; max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
    `thread time, summed over workers: I/O ${s(io)} · indexing ${s(indexing)} · scoring ${s(scoring)}`,
    `  I/O: checking records ${s(t.prepareMillis)} (main thread), listing states ${s(t.listMillis)}, reading blobs ${s(t.readMillis)}, writing results ${s(writeMillis)}`,
    `  indexing: tokenizing blobs + corpora ${s(t.tokenizeMillis)}; index() ${Object.entries(t.indexMillis).map(([k, v]) => `${k} ${s(v)}`).join(', ')}`,
    `  scoring: ${Object.entries(t.scoreMillis).map(([k, v]) => `${k} ${s(v)}`).join(', ')}`,
    `counters: ${JSON.stringify(run.stats)}`,
    '',
    toMarkdown(retrieverTable(run.rows, retrievers, 'test', `tomcat: test split (${run.counts.test} issues)`)),
    `results in ${out}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
