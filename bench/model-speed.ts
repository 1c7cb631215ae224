/**
 * bench/model-speed: what a learned model adds to the time of one `localize` query.
 *
 *   node dist/bench/model-speed.js [--data FILE] [--repos sympy/sympy] [--limit N]
 *       [--model src/ltr/default-model.json] [--repeats 5] [--mirrors DIR] [--cache-dir DIR]
 *
 * Per issue, with the index loaded and the repository's history read (both per commit, like the
 * index build, and cached), it times the default lexical `localize` (Localizer, top 10, matched
 * terms) and `localize --model` (ModelRanker: candidates, features, SimiScore over commit
 * messages, scoring, roll-up, matched terms), each the fastest of `--repeats` runs, and prints
 * the medians and the median of the per-issue difference, and the part of it the history field
 * takes (src/history/history-field.ts). Also the per-commit history cost (file history and
 * history fields at the base commit) and the history read (first issue of each repository).
 */
import { benchArgs } from './lib/args.js';
import { Localizer } from '../src/retrieve/localize.js';
import { readLabelledIssues } from '../src/ltr/datasets.js';
import { forEachIssue } from '../src/ltr/labelled-issues.js';
import { RankingModel } from '../src/ltr/model.js';
import { ModelRanker } from '../src/ltr/model-ranker.js';
import { median } from './lib/stats.js';
import { MIRRORS_DIR, dataFile } from './lib/data.js';
import { historyFieldScores } from '../src/history/history-field.js';
import { parseIssue } from '../src/text/parsed-issue.js';

const { values: args } = benchArgs({
  options: {
    data: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    repos: { type: 'string', default: 'sympy/sympy' },
    limit: { type: 'string', default: '30' },
    model: { type: 'string', default: 'src/ltr/default-model.json' },
    repeats: { type: 'string', default: '5' },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
  },
});

/** The fastest of `n` runs of `f`, milliseconds. */
function fastest(n: number, f: () => void): number {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

async function main() {
  const model = RankingModel.load(args.model!);
  const wanted = new Set(args.repos!.split(','));
  const dataset = await readLabelledIssues(args.data!, args.mirrors!);
  const perRepo = new Map<string, number>();
  const issues = dataset.issues.filter((i) => {
    if (!wanted.has(i.repo)) return false;
    perRepo.set(i.repo, (perRepo.get(i.repo) ?? 0) + 1);
    return perRepo.get(i.repo)! <= Number(args.limit);
  });
  const repeats = Number(args.repeats);
  const lexical: number[] = [];
  const learned: number[] = [];
  const extra: number[] = [];
  const perCommit: number[] = [];
  const fieldBuild: number[] = [];
  const fieldQuery: number[] = [];
  let documents = 0;
  await forEachIssue(issues, { repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, indexSettings: dataset.indexSettings }, (ctx) => {
    const t0 = performance.now();
    ctx.repoHistory?.at(ctx.commit);
    perCommit.push(performance.now() - t0);
    const t1 = performance.now();
    if (ctx.repoHistory) historyFieldScores(ctx.repoHistory, ctx.commit, parseIssue('')); // builds the commit's history fields
    fieldBuild.push(performance.now() - t1);
    documents = ctx.codeIndex.units.length;
    const localizer = new Localizer(ctx.codeIndex);
    const ranker = new ModelRanker(ctx.codeIndex, model);
    const issue = ctx.parsed;
    const history = ctx.repoHistory;
    const a = fastest(repeats, () => localizer.localize(localizer.queryOf(issue), { top: 10, signals: issue.signals }));
    const b = fastest(repeats, () => ranker.localize(issue, {
      files: history?.at(ctx.commit).files, messageScores: history?.messageScores(ctx.commit, issue),
      fieldScores: history && historyFieldScores(history, ctx.commit, issue),
    }, { top: 10 }));
    if (history) fieldQuery.push(fastest(repeats, () => historyFieldScores(history, ctx.commit, issue)));
    lexical.push(a);
    learned.push(b);
    extra.push(b - a);
  });
  const f = (x: number) => x.toFixed(1);
  process.stdout.write(`${[...wanted].join(', ')}: ${lexical.length} issues, ${documents} documents (last index), fastest of ${repeats} runs each\n\n`);
  process.stdout.write('| query | median (ms) |\n|---|---|\n');
  process.stdout.write(`| lexical localize (defaults) | ${f(median(lexical))} |\n`);
  process.stdout.write(`| localize --model (${args.model}) | ${f(median(learned))} |\n`);
  process.stdout.write(`| added by the model (per-issue difference) | ${f(median(extra))} |\n`);
  process.stdout.write(`| of which: BM25 of the issue against the history fields | ${f(median(fieldQuery))} |\n`);
  process.stdout.write(`| per base commit: file history at the commit | ${f(median(perCommit))} |\n`);
  process.stdout.write(`| per base commit: history fields at the commit | ${f(median(fieldBuild))} |\n`);
}

main().catch((e) => {
  process.stderr.write(`model-speed: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
