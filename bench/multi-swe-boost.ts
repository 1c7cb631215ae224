/**
 * bench/multi-swe-boost: would real non-Python issues make a better built-in model? Trees boosted
 * from the built-in model's scores (as `issueloc adapt` fits them on pseudo-issues), fitted on the
 * Multi-SWE-bench dev issues of some repositories and scored on the others' — folds of
 * repositories (bench/lib/folds.ts), never an issue scored by trees that saw it.
 *
 *   node dist/bench/multi-swe-boost.js [--data FILE] [--mirrors DIR] [--cache-dir DIR]
 *       [--features-cache DIR] [--folds 5] [--json]
 *
 * The trees are fitted on file labels (the dev set has file gold only: a candidate is positive
 * when its file is gold) and appended to the built-in ensemble, which ranks every level. Per
 * held-out fold, the number of trees (0, 10, …, 100) is chosen by leave-one-fold-out over the
 * other folds (objective: file MAP), then the trees are fitted on all of the other folds and
 * scored on the held-out one. Rows: the built-in model and the boosted one,
 * all-gold file Acc@1/3/5/10 and MRR (bench/lib/all-gold.ts) over the file ranking of the model's
 * candidates (`rankLevels`: the candidates' files, then the pipeline's other files), per fold and
 * overall.
 */
import { parseArgs } from 'node:util';
import { IssuelocError } from '../src/errors.js';
import { withAddedTrees } from '../src/ltr/adapt.js';
import { FEATURES } from '../src/ltr/features/registry.js';
import { fitLambdaMart } from '../src/ltr/lambdamart.js';
import type { LabelledIssue } from '../src/ltr/labelled-issues.js';
import { RankingModel, rankLevels } from '../src/ltr/model.js';
import { labelQuery, parseObjective, type LabelledQuery } from '../src/ltr/objective.js';
import { collectQueries, modelObjective } from '../src/ltr/train.js';
import { progressBar } from '../src/util/progress-bar.js';
import { ALL_GOLD_KEYS, allGoldMetrics, goldRanks } from './lib/all-gold.js';
import { dataFile, MIRRORS_DIR } from './lib/data.js';
import { repositoryFolds } from './lib/folds.js';
import { readInstances } from './lib/multi-swe-data.js';

const OBJECTIVE = parseObjective('file:MAP');
const MAX_TREES = 100;

interface Choice { trees: number; value: number }

/** The trees boosted from `builtIn` on `train`, cut to `trees`. */
function boosted(builtIn: RankingModel, train: readonly LabelledQuery[], trees: number): RankingModel {
  if (trees === 0) return builtIn;
  const start = (x: Float32Array, rows: number) => builtIn.scorers.function.score(x, rows);
  const fit = fitLambdaMart(train, 'file', { trees, start });
  return withAddedTrees(builtIn, fit.ensemble.toJson(FEATURES as readonly string[]).trees, fit.ensemble.learningRate, { boosted: { level: 'file', trees, queries: train.length } });
}

/** Trees by leave-one-fold-out over `folds` (ties keep fewer trees; 0 = the built-in model). */
function choose(builtIn: RankingModel, folds: readonly LabelledQuery[][]): Choice {
  const mean = (pick: (held: LabelledQuery[]) => number) => folds.reduce((s, held) => s + pick(held), 0) / folds.length;
  let best: Choice = { trees: 0, value: mean((held) => modelObjective(held, builtIn, OBJECTIVE)) };
  // one fit of MAX_TREES per inner fold; its prefixes are the smaller ensembles
  const fits = folds.map((_, f) => boosted(builtIn, folds.filter((__, g) => g !== f).flat(), MAX_TREES));
  const own = builtIn.file.trees!.trees.length;
  for (let t = 10; t <= MAX_TREES; t += 10) {
    const value = folds.reduce((s, held, f) => {
      const m = new RankingModel({ ...fits[f].file, trees: { ...fits[f].file.trees!, trees: fits[f].file.trees!.trees.slice(0, own + t) } });
      return s + modelObjective(held, m, OBJECTIVE);
    }, 0) / folds.length;
    if (value > best.value + 1e-9) best = { trees: t, value };
  }
  return best;
}

async function main() {
  let args;
  try {
    args = parseArgs({
      options: {
        data: { type: 'string', default: dataFile('multi-swe/multi-swe-dev.jsonl') },
        mirrors: { type: 'string', default: MIRRORS_DIR },
        'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
        'features-cache': { type: 'string', default: '/tmp/issueloc-ltr-features' },
        folds: { type: 'string', default: '5' },
        json: { type: 'boolean', default: false },
      },
    }).values;
  } catch (e) {
    throw new IssuelocError((e as Error).message);
  }
  const nFolds = Number(args.folds);
  if (!Number.isInteger(nFolds) || nFolds < 3) throw new IssuelocError(`--folds: expected an integer of at least 3, got '${args.folds}'`);
  const instances = readInstances(args.data!);
  const goldOf = new Map(instances.map((r) => [r.instance_id, r.gold_files]));
  const issues: LabelledIssue[] = instances.map((r) => ({
    id: r.instance_id, repo: r.repo, commit: r.base_commit, text: r.problem_statement, created: NaN,
    gold: { file: r.gold_files, module: [], function: [] },
  }));
  const builtIn = RankingModel.load('default');
  const bar = progressBar('features', !args.json);
  const queries = await collectQueries(issues, {
    repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, indexSettings: {}, candidates: builtIn.candidates,
    featuresCache: args['features-cache'], onProgress: bar.update,
  });
  bar.stop();
  const labelled = queries.map(labelQuery);
  const folds = repositoryFolds(labelled.map((q) => ({ repo: q.query.repo, q })), nFolds).map((f) => f.map((x) => x.q));
  const rows: { group: string; issues: number; system: string; values: number[] }[] = [];
  const all: Record<string, number>[][] = [[], []];
  const choices: string[] = [];
  for (const [f, held] of folds.entries()) {
    const others = folds.filter((_, g) => g !== f);
    const choice = choose(builtIn, others);
    const model = boosted(builtIn, others.flat(), choice.trees);
    const repos = [...new Set(held.map((q) => q.query.repo))].join(', ');
    choices.push(`fold ${f + 1} (${repos}): ${choice.trees} trees (inner file MAP ${choice.value.toFixed(4)})`);
    const per = [builtIn, model].map((m) => held.map((q) => allGoldMetrics(goldRanks(rankLevels(q.query, m).file, goldOf.get(q.query.id)!))));
    per.forEach((list, s) => {
      all[s].push(...list);
      rows.push({ group: `fold ${f + 1} (${repos})`, issues: held.length, system: s === 0 ? 'built-in model' : 'boosted on the other folds', values: means(list) });
    });
  }
  rows.unshift(
    { group: 'all, held out', issues: all[0].length, system: 'built-in model', values: means(all[0]) },
    { group: 'all, held out', issues: all[1].length, system: 'boosted on the other folds', values: means(all[1]) },
  );
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ data: args.data, evaluated: labelled.length, keys: ALL_GOLD_KEYS, choices, rows })}\n`);
    return;
  }
  process.stdout.write(`\n${args.data}: ${labelled.length} issues\n${choices.join('\n')}\n\n| group | issues | system | file Acc@1 / 3 / 5 / 10 | MRR |\n|---|---|---|---|---|\n`);
  for (const r of rows) process.stdout.write(`| ${r.group} | ${r.issues} | ${r.system} | ${r.values.slice(0, 4).map((v) => v.toFixed(1)).join(' / ')} | ${r.values[4].toFixed(3)} |\n`);
}

/** Means of the all-gold metrics (Acc@k in %, MRR as a fraction). */
function means(list: readonly Record<string, number>[]): number[] {
  return ALL_GOLD_KEYS.map((k) => {
    const m = list.reduce((s, v) => s + v[k], 0) / Math.max(1, list.length);
    return k === 'MRR' ? m : 100 * m;
  });
}

main().catch((e) => {
  process.stderr.write(e instanceof IssuelocError ? `multi-swe-boost: ${e.message}\n` : `multi-swe-boost: internal error: ${(e as Error).stack ?? e}\n`);
  process.exitCode = e instanceof IssuelocError ? 2 : 3;
});
