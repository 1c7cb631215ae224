/**
 * bench/ltr-folds: choosing a learner's settings on held-out training data: K folds of
 * repositories (leave-repositories-out cross-validation), each fold's issues ranked by models
 * fitted on the other folds' issues. Reads cached features only (never builds an index): run
 * `issueloc train ... --features-cache DIR` once first.
 *
 *   node dist/bench/ltr-folds.js [--data FILE] [--exclude-repos a/b,c/d] [--folds 5]
 *       [--trees 100,200,300] [--tree-depth 2,3] [--learning-rate 0.05,0.1] [--min-leaf 20,50,100]
 *       [--bags 16] [--learners lambdamart,coordinate-ascent] [--exclude-features a,b] [--depth 200]
 *       [--mirrors DIR] [--features-cache DIR] [--json]
 *
 * Rows: every LambdaMART setting of the grid, with own file/module trees (fitted on file and
 * module labels) and with the function trees ranking every level ("shared"); a model of N trees is the first N trees of the largest,
 * as boosting adds trees one by one. Then coordinate ascent as the default model is trained
 * (objective function:MAP, own file model on file:MAP,file:Acc@5 and module model on
 * module:MAP,module:Acc@10, `--bags` bags, no restarts).
 *
 * `--exclude-features` fits every row without those features (an ablation; the cache is the same);
 * `--depth` reads the features of a deeper (or shallower) candidate list, cached by `train
 * --depth N --features-cache DIR`.
 *
 * Columns: SWE-bench Lite's (file Acc@1/3/5, module Acc@5/10, function Acc@5/10) over all
 * held-out issues, and their mean. Folds: repositories by issue count, each to the fold with the
 * fewest issues so far (deterministic).
 */
import { benchArgs } from './lib/args.js';
import { readLabelledIssues } from '../src/ltr/datasets.js';
import { FeatureCache } from '../src/ltr/feature-cache.js';
import type { LabelledIssue } from '../src/ltr/labelled-issues.js';
import { RankingModel, rankLevels } from '../src/ltr/model.js';
import { FEATURES } from '../src/ltr/features/registry.js';
import type { TrainingQuery } from '../src/ltr/objective.js';
import { DEFAULT_CANDIDATES, fitModel, type FitOptions } from '../src/ltr/train.js';
import { COLUMNS, columnKeys, columnMeans, issueValues, markdownTable } from './lib/metrics-table.js';
import { MIRRORS_DIR, dataFile } from './lib/data.js';
import { repositoryFolds } from './lib/folds.js';

const { values: args } = benchArgs({
  options: {
    data: { type: 'string', default: dataFile('locbench/locbench_v1.jsonl') },
    'exclude-repos': { type: 'string', default: '' },
    folds: { type: 'string', default: '5' },
    trees: { type: 'string', default: '100,200,300' },
    'tree-depth': { type: 'string', default: '2,3' },
    'learning-rate': { type: 'string', default: '0.05,0.1' },
    'min-leaf': { type: 'string', default: '20,50,100' },
    bags: { type: 'string', default: '16' },
    learners: { type: 'string', default: 'lambdamart,coordinate-ascent' },
    'exclude-features': { type: 'string', default: '' },
    depth: { type: 'string', default: String(DEFAULT_CANDIDATES.depth) },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    'features-cache': { type: 'string', default: '/tmp/issueloc-ltr-features' },
    json: { type: 'boolean', default: false },
  },
});

const numbers = (s: string) => s.split(',').map(Number);

/** A configuration's per-fold predictions: ranked lists per held-out issue. */
type Ranked = Map<string, Record<'file' | 'module' | 'function', string[]>>;

async function main() {
  const dataset = await readLabelledIssues(args.data!, args.mirrors!);
  const excluded = new Set(args['exclude-repos']!.split(',').filter(Boolean));
  const candidates = { ...DEFAULT_CANDIDATES, depth: Number(args.depth) };
  const cache = new FeatureCache(args['features-cache']!, { candidates, index: dataset.indexSettings, history: true, similar: false });
  const issues: LabelledIssue[] = [];
  const queries = new Map<string, TrainingQuery>();
  let uncached = 0;
  for (const i of dataset.issues) {
    if (excluded.has(i.repo) || i.gold.file.length === 0) continue;
    const q = cache.get(i);
    if (!q) { uncached++; continue; }
    issues.push(i);
    queries.set(i.id, q);
  }
  const folds = repositoryFolds(issues, Number(args.folds));
  const columns = COLUMNS.swebench;
  const keys = columnKeys(columns);
  const results = new Map<string, Ranked>();
  const seconds = new Map<string, number>();
  const record = (name: string, model: RankingModel, test: readonly LabelledIssue[]) => {
    const r = results.get(name) ?? new Map();
    results.set(name, r);
    for (const i of test) r.set(i.id, rankLevels(queries.get(i.id)!, model));
  };

  const dropped = new Set(args['exclude-features']!.split(',').filter(Boolean));
  for (const f of dropped) if (!(FEATURES as readonly string[]).includes(f)) throw new Error(`unknown feature '${f}'`);
  const features = FEATURES.filter((f) => !dropped.has(f));
  const treeCounts = numbers(args.trees!);
  const learners = new Set(args.learners!.split(','));
  const grid: { name: string; opts: FitOptions }[] = [];
  for (const maxDepth of learners.has('lambdamart') ? numbers(args['tree-depth']!) : []) {
    for (const learningRate of numbers(args['learning-rate']!)) {
      for (const minLeaf of numbers(args['min-leaf']!)) {
        grid.push({
          name: `depth ${maxDepth}, lr ${learningRate}, min leaf ${minLeaf}`,
          opts: { learner: 'lambdamart', features, lambdamart: { trees: Math.max(...treeCounts), maxDepth, learningRate, minLeaf }, levelTrees: ['file', 'module'] },
        });
      }
    }
  }
  if (learners.has('coordinate-ascent')) {
    grid.push({
      name: `coordinate ascent, ${args.bags} bags`,
      opts: {
        learner: 'coordinate-ascent', objective: 'function:MAP', features, bags: Number(args.bags), restarts: 0,
        levels: { file: { objective: 'file:MAP,file:Acc@5', features }, module: { objective: 'module:MAP,module:Acc@10', features } },
      },
    });
  }
  folds.forEach((test, f) => {
    const testIds = new Set(test.map((i) => i.id));
    const train = issues.filter((i) => !testIds.has(i.id)).map((i) => queries.get(i.id)!);
    for (const { name, opts } of grid) {
      const t0 = performance.now();
      const { model } = fitModel(train, opts);
      const took = (performance.now() - t0) / 1000;
      seconds.set(name, (seconds.get(name) ?? 0) + took);
      if (!args.json) process.stderr.write(`fold ${f + 1}: ${name}: ${took.toFixed(1)} s\n`);
      if (opts.learner !== 'lambdamart') { record(name, model, test); continue; }
      for (const n of treeCounts) {
        const spec = model.file;
        const prefix = (e: typeof spec.trees) => e && { ...e, trees: e.trees.slice(0, n) };
        const own = new RankingModel({
          ...spec, trees: prefix(spec.trees), levelTrees: { file: prefix(spec.levelTrees?.file), module: prefix(spec.levelTrees?.module) },
        });
        record(`${n} trees, ${name}`, own, test);
        record(`${n} trees, ${name}, shared`, new RankingModel({ weights: spec.weights, trees: prefix(spec.trees), candidates: spec.candidates }), test);
      }
    }
    if (!args.json) process.stderr.write(`fold ${f + 1}/${folds.length}: ${test.length} held-out issues\n`);
  });

  const byId = new Map(issues.map((i) => [i.id, i]));
  const rows = [...results].map(([name, ranked]) => {
    const values = columnMeans([...ranked].map(([id, lists]) => issueValues(lists, byId.get(id)!.gold, columns)), keys);
    return { name, values: [...values, values.reduce((a, b) => a + b, 0) / values.length] };
  }).sort((a, b) => b.values[b.values.length - 1] - a.values[a.values.length - 1]);
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ issues: issues.length, uncached, features: cache.dir, folds: folds.map((f) => f.length), rows, seconds: Object.fromEntries(seconds) })}\n`);
    return;
  }
  process.stdout.write(`\n${args.data}: ${issues.length} issues with cached features in ${cache.dir} (${uncached} without), ` +
    `${new Set(issues.map((i) => i.repo)).size} repositories in ${folds.length} folds (${folds.map((f) => f.length).join(', ')} issues)\n\n`);
  process.stdout.write(markdownTable(rows, [...keys, 'mean']));
  process.stdout.write('\n| setting | fit time over all folds (s) |\n|---|---|\n');
  for (const [name, s] of seconds) process.stdout.write(`| ${name} | ${s.toFixed(1)} |\n`);
}

main().catch((e) => {
  process.stderr.write(`ltr-folds: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
