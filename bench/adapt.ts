/**
 * bench/adapt: per-repository adaptation (src/ltr/adapt.ts) against the configurations it starts
 * from, side by side: plain BM25, the full lexical pipeline (`localize` default), the built-in
 * model (`--model default`) and the built-in model adapted to each repository's own commit
 * history (`--model repo@A`).
 *
 *   node dist/bench/adapt.js [--data FILE] [--mirrors DIR] [--repos a/b,c/d] [--created-from DATE]
 *       [--cache-dir DIR] [--features-cache DIR] [--commits N] [--limit N] [--json]
 *
 * `--limit N` evaluates the first N issues of each repository in the dataset's order (the
 * adaptation commit is still the merge base of all the repository's evaluated issues).
 * `--cached-only` evaluates only issues whose candidate features are in the features cache, with
 * no index loaded: rows "lexical pipeline (candidates' order)" (the model {pipeline: 1}), the
 * built-in and the adapted model.
 *
 * Per repository the model is adapted once, at A = the merge base of every evaluated issue's base
 * commit (an ancestor of all of them, so no evaluated issue's fix, nor anything after A, is
 * learned from; for a linear history, the oldest base commit); base commits with no common
 * ancestor (a history with several roots) are adapted for at one merge base per group
 * (bench/lib/adapt-anchors.ts). The evaluated issues are never
 * read by the adaptation: only commits before A are.
 */
import { benchArgs } from './lib/args.js';
import { Localizer, type RankingOptions } from '../src/retrieve/localize.js';
import { readLabelledIssues } from '../src/ltr/datasets.js';
import { forEachIssue } from '../src/ltr/labelled-issues.js';
import { FeatureCache } from '../src/ltr/feature-cache.js';
import { FeatureExtractor } from '../src/ltr/features/extract.js';
import { RankingModel, rankLevels } from '../src/ltr/model.js';
import { trainingQueryOf } from '../src/ltr/training-query.js';
import { DEFAULT_CANDIDATES } from '../src/ltr/train.js';
import { adaptPerRepository } from './lib/adapt-anchors.js';
import { COLUMNS, columnKeys, columnMeans, issueValues, listsOf, markdownTable } from './lib/metrics-table.js';
import { progressBar } from '../src/util/progress-bar.js';
import { MIRRORS_DIR, dataFile } from './lib/data.js';

const { values: args } = benchArgs({
  options: {
    data: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    repos: { type: 'string' },
    'created-from': { type: 'string' },
    'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
    'features-cache': { type: 'string', default: '/tmp/issueloc-ltr-features' },
    commits: { type: 'string' },
    limit: { type: 'string' },
    'cached-only': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const PLAIN: RankingOptions = { bm25: { k1: 1.2, b: 0.75, delta: 0, weights: [1, 1, 1] }, filePrior: 0, signals: false, titleWeight: 0 };
const NAMES = ['plain BM25 (equal field weights)', 'full lexical pipeline (localize default)', 'built-in model (--model default)', 'adapted to own history (--model repo@A)'];

async function main() {
  const dataset = await readLabelledIssues(args.data!, args.mirrors!);
  const columns = COLUMNS[dataset.kind];
  const keys = columnKeys(columns);
  const wanted = args.repos ? new Set(args.repos.split(',')) : undefined;
  const from = args['created-from'] ? Date.parse(args['created-from']) : -Infinity;
  const issues = dataset.issues.filter((i) => (!wanted || wanted.has(i.repo)) && (from === -Infinity || i.created >= from));
  const limit = args.limit ? Number(args.limit) : Infinity;
  const perRepo = new Map<string, number>();
  const evaluated = issues.filter((i) => {
    perRepo.set(i.repo, (perRepo.get(i.repo) ?? 0) + 1);
    return perRepo.get(i.repo)! <= limit;
  });
  const builtIn = RankingModel.load('default');
  const { models: adapted, info } = await adaptPerRepository(issues, {
    mirrors: args.mirrors!, cacheDir: args['cache-dir']!, index: dataset.indexSettings, featuresCache: args['features-cache'],
    settings: args.commits ? { limit: Number(args.commits) } : {}, progress: !args.json, name: 'adapt',
  });
  const cache = new FeatureCache(args['features-cache']!, { candidates: builtIn.candidates, index: dataset.indexSettings, history: true, similar: false });
  const results: Record<string, number>[][] = [];
  const bar = progressBar('issues', !args.json);
  const names = args['cached-only'] ? ['full lexical pipeline (candidates\' order, cached features)', ...NAMES.slice(2)] : NAMES;
  if (args['cached-only']) {
    const lexical = new RankingModel({ weights: { pipeline: 1 }, candidates: builtIn.candidates });
    for (const i of evaluated) {
      const q = cache.get(i);
      if (!q) continue;
      results.push([lexical, builtIn, adapted.get(i.id) ?? builtIn].map((m) => issueValues(rankLevels(q, m), i.gold, columns)));
    }
  } else await forEachIssue(evaluated, { repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, indexSettings: dataset.indexSettings, onProgress: bar.update }, (ctx) => {
    const values: Record<string, number>[] = [];
    for (const config of [PLAIN, DEFAULT_CANDIDATES.ranking]) {
      const localizer = new Localizer(ctx.codeIndex, config);
      const loc = localizer.localize(localizer.queryOf(ctx.parsed), { top: 100, matchedTermsPerItem: 0, signals: ctx.parsed.signals });
      values.push(issueValues(listsOf(loc), ctx.issue.gold, columns));
    }
    let q = cache.get(ctx.issue);
    if (!q) {
      q = trainingQueryOf(ctx, new FeatureExtractor(ctx.codeIndex, builtIn.candidates));
      cache.set(ctx.issue, q);
    }
    values.push(issueValues(rankLevels(q, builtIn), ctx.issue.gold, columns));
    values.push(issueValues(rankLevels(q, adapted.get(ctx.issue.id) ?? builtIn), ctx.issue.gold, columns));
    results.push(values);
  });
  bar.stop();
  const rows = names.map((name, c) => ({ name, values: columnMeans(results.map((r) => r[c]), keys) }));
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ data: args.data, evaluated: results.length, keys, rows, adapted: info })}\n`);
    return;
  }
  process.stdout.write(`\n${args.data}: ${results.length} issues evaluated\n${info.join('\n')}\n\n${markdownTable(rows, keys)}`);
}

main().catch((e) => {
  process.stderr.write(`adapt: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
