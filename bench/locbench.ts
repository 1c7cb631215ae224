/**
 * bench/locbench: configurations side by side on Loc-Bench (the repositories fetched locally),
 * or on any dataset file `--data` names (SWE-bench Lite, Ye et al.'s Tomcat, dataset records).
 *
 *   node dist/bench/locbench.js [--data FILE] [--mirrors DIR] [--repos a/b,c/d] [--exclude-repos a/b] [--created-from DATE]
 *       [--limit N] [--cache-dir DIR] [--features-cache DIR] [--model NAME=model.json ...]
 *       [--configs grid.json] [--no-lexical] [--no-history] [--similar-issues] [--fresh-features]
 *       [--include-tests] [--placements] [--out per-issue.json] [--out-lists N] [--json]
 *
 * Rows: plain BM25, BM25F with path/name weights, the file prior, each issue-text signal alone,
 * the full lexical pipeline (src/retrieve/localize.ts), then each `--model` (src/ltr/; history
 * features need git history, read once per repository and cached). `--configs` replaces the
 * lexical rows with a JSON list of {"name", ...RankingOptions}.
 *
 * Columns: the published metrics of the dataset — Loc-Bench: file Acc@5/10, module Acc@10/15,
 * function Acc@10/15 (LocAgent); SWE-bench: file Acc@1/3/5, module Acc@5/10, function Acc@5/10
 * (SweRank); Tomcat: file MRR, MAP, Hit@1/5/10 (Ye et al. 2014). Gold: Loc-Bench's
 * `edit_functions`/`edit_files`; SWE-bench's gold patch at the base commit; Tomcat's fixed files.
 *
 * `--json` prints one line `{data, evaluated, skipped, keys, rows: [{name, values}]}` (values in
 * `keys` order: bench/regressions/ reads it).
 *
 * A model whose training issues include an evaluated issue is refused (the model file lists them).
 * Per repository it prints the median warm query time of the full lexical pipeline and of each
 * model (candidates, features, history evidence and scoring; index and per-commit history
 * excluded), measured when features are extracted (cache miss, or `--fresh-features`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { benchArgs } from './lib/args.js';
import { Localizer, type RankingOptions } from '../src/retrieve/localize.js';
import type { Localization } from '../src/retrieve/rollup.js';
import { openPlacements } from '../src/retrieve/placements.js';
import { DEFAULT_TITLE_WEIGHT } from '../src/retrieve/query.js';
import { readLabelledIssues } from '../src/ltr/datasets.js';
import { forEachIssue } from '../src/ltr/labelled-issues.js';
import { FeatureCache } from '../src/ltr/feature-cache.js';
import { FeatureExtractor } from '../src/ltr/features/extract.js';
import { RankingModel, rankLevels } from '../src/ltr/model.js';
import { trainingQueryOf } from '../src/ltr/training-query.js';
import { DEFAULT_CANDIDATES, similarIssuesByRepo } from '../src/ltr/train.js';
import { COLUMNS, columnKeys, columnMeans, issueValues, listsOf, localizationOf, markdownTable, type RankedLists } from './lib/metrics-table.js';
import { median } from './lib/stats.js';
import { progressBar } from '../src/util/progress-bar.js';
import type { SignalWeights } from '../src/retrieve/signals.js';
import { MIRRORS_DIR, dataFile } from './lib/data.js';

const { values: args } = benchArgs({
  options: {
    data: { type: 'string', default: dataFile('locbench/locbench_v1.jsonl') },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    repos: { type: 'string' },
    'exclude-repos': { type: 'string' },
    'created-from': { type: 'string' },
    limit: { type: 'string' },
    'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
    'features-cache': { type: 'string', default: '/tmp/issueloc-ltr-features' },
    model: { type: 'string', multiple: true, default: [] },
    configs: { type: 'string' },
    'no-lexical': { type: 'boolean', default: false },
    'no-history': { type: 'boolean', default: false },
    'similar-issues': { type: 'boolean', default: false },
    'fresh-features': { type: 'boolean', default: false },
    'include-tests': { type: 'boolean', default: false },
    out: { type: 'string' },
    'out-lists': { type: 'string', default: '0' },
    placements: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const FULL = DEFAULT_CANDIDATES.ranking;
// every setting spelled out: library defaults (src/retrieve/localize.ts) change with tuning
const PLAIN: RankingOptions = { bm25: { k1: 1.2, b: 0.75, delta: 0, weights: [1, 1, 1] }, filePrior: 0, signals: false, titleWeight: 0 };
const BM25F: RankingOptions = { ...PLAIN, bm25: FULL.bm25 };
const only = (...names: (keyof SignalWeights)[]): Partial<SignalWeights> => {
  const all = FULL.signals as SignalWeights;
  return Object.fromEntries(Object.keys(all).map((k) => [k, names.includes(k as keyof SignalWeights) ? all[k as keyof SignalWeights] : 0]));
};
const LEXICAL: (RankingOptions & { name: string })[] = [
  { name: 'plain BM25 (equal field weights)', ...PLAIN },
  { name: 'BM25F path×3 name×3', ...BM25F },
  { name: `+ file prior ${FULL.filePrior}`, ...BM25F, filePrior: FULL.filePrior },
  { name: '+ stack-frame signals', ...BM25F, signals: only('frameFile', 'frameFunction') },
  { name: '+ mentioned paths / dotted names', ...BM25F, signals: only('mentionedFile', 'mentionedUnit') },
  { name: '+ named functions', ...BM25F, signals: only('namedFunction') },
  { name: `+ title words (+${FULL.titleWeight})`, ...BM25F, titleWeight: FULL.titleWeight },
  { name: 'full lexical pipeline (prior + signals)', ...FULL },
];

interface IssueResult { id: string; repo: string; values: Record<string, number>[]; gold?: Record<string, readonly string[]>; lists?: Record<string, string[]>[] }

/** Each level's list cut to its first `n` items (`--out-lists`). */
function cutLists(lists: Record<string, readonly string[]>, n: number): Record<string, string[]> {
  return Object.fromEntries(Object.entries(lists).map(([level, ids]) => [level, ids.slice(0, n)]));
}

async function main() {
  const dataset = await readLabelledIssues(args.data!, args.mirrors!);
  // mined datasets (Maven) count test files among the positives: index them too when asked
  if (args['include-tests']) dataset.indexSettings = { ...dataset.indexSettings, includeTests: true };
  const columns = COLUMNS[dataset.kind];
  const keys = columnKeys(columns);
  const wanted = args.repos ? new Set(args.repos.split(',')) : undefined;
  const excluded = new Set((args['exclude-repos'] ?? '').split(',').filter(Boolean));
  const perRepo = new Map<string, number>();
  const limit = args.limit ? Number(args.limit) : Infinity;
  const outLists = Number(args['out-lists']);
  const from = args['created-from'] ? Date.parse(args['created-from']) : -Infinity;
  const issues = dataset.issues.filter((i) => {
    if ((wanted && !wanted.has(i.repo)) || excluded.has(i.repo) || !(i.created >= from || from === -Infinity)) return false;
    perRepo.set(i.repo, (perRepo.get(i.repo) ?? 0) + 1);
    return perRepo.get(i.repo)! <= limit;
  });
  const lexical = args['no-lexical'] ? [] : args.configs ? JSON.parse(readFileSync(args.configs, 'utf8')) as typeof LEXICAL : LEXICAL;
  const models = args.model!.map((spec) => {
    const eq = spec.indexOf('=');
    const [name, path] = eq < 0 ? [spec, spec] : [spec.slice(0, eq), spec.slice(eq + 1)];
    const model = RankingModel.load(path);
    const trained = new Set((model.file.training?.issueIds as string[] | undefined) ?? []);
    const overlap = issues.filter((i) => trained.has(i.id)).length;
    if (overlap > 0) throw new Error(`model ${name} was trained on ${overlap} of the evaluated issues: evaluate it on other issues`);
    return { name, model };
  });
  const history = !args['no-history'] && models.length > 0;
  const similar = args['similar-issues'] ? similarIssuesByRepo(dataset.issues) : undefined; // every earlier issue counts, evaluated or not
  const settings = { index: dataset.indexSettings, history, similar: similar !== undefined };
  const results: IssueResult[] = [];
  const times = new Map<string, { lexical: number[]; models: number[][] }>();
  const skipped: string[] = [];
  // --placements: the full lexical pipeline and each model once more, with the placement rules (src/retrieve/placements.ts)
  const placed = args.placements ? [...lexical.filter((c) => c.name === LEXICAL[LEXICAL.length - 1].name), ...models] : [];
  const names = [...lexical.map((c) => c.name), ...models.map((m) => m.name), ...placed.map((p) => `${p.name} + placements`)];

  const bar = progressBar('issues', !args.json);
  await forEachIssue(issues, {
    repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, indexSettings: dataset.indexSettings, history,
    similarIssues: similar ? (repo) => similar.get(repo) : undefined,
    onSkip: (i, reason) => skipped.push(`${i.id}: ${reason}`),
    onProgress: bar.update,
  }, async (ctx) => {
    const t = times.get(ctx.issue.repo) ?? { lexical: [], models: models.map(() => []) };
    times.set(ctx.issue.repo, t);
    const values: Record<string, number>[] = [];
    const lists: Record<string, string[]>[] = [];
    const modelLists: RankedLists[] = [];
    for (const config of lexical) {
      const localizer = new Localizer(ctx.codeIndex, config);
      const query = localizer.queryOf(ctx.parsed);
      const t0 = performance.now();
      const loc = localizer.localize(query, { top: 100, matchedTermsPerItem: 0, signals: ctx.parsed.signals });
      if (config.name === LEXICAL[LEXICAL.length - 1].name) t.lexical.push(performance.now() - t0);
      values.push(issueValues(listsOf(loc), ctx.issue.gold, columns));
      if (outLists > 0) lists.push(cutLists(listsOf(loc), outLists));
    }
    ctx.repoHistory?.at(ctx.commit); // per-commit history (like the index) outside the timed part
    models.forEach(({ model }, m) => {
      const cache = new FeatureCache(args['features-cache']!, { candidates: model.candidates, ...settings }, similar ? (repo) => similar.get(repo) : undefined);
      let q = args['fresh-features'] ? undefined : cache.get(ctx.issue);
      if (!q) {
        const t0 = performance.now();
        q = trainingQueryOf(ctx, new FeatureExtractor(ctx.codeIndex, model.candidates));
        rankLevels(q, model);
        t.models[m].push(performance.now() - t0);
        cache.set(ctx.issue, q);
      }
      const ranked = rankLevels(q, model);
      modelLists[m] = ranked;
      values.push(issueValues(ranked, ctx.issue.gold, columns));
      if (outLists > 0) lists.push(cutLists(ranked, outLists));
    });
    if (placed.length > 0) {
      const placements = await openPlacements(ctx.repo, ctx.codeIndex, { bm25: { ...FULL.bm25, ...FULL.fileBm25 } });
      for (const p of placed) {
        const depth = placements.depth(100);
        let loc: Localization;
        if ('model' in p) {
          const m = models.indexOf(p);
          loc = localizationOf(modelLists[m], depth);
        } else {
          const localizer = new Localizer(ctx.codeIndex, p);
          loc = localizer.localize(localizer.queryOf(ctx.parsed), { top: depth, matchedTermsPerItem: 0, signals: ctx.parsed.signals });
        }
        const query = ctx.parsed.queryTerms({ stem: ctx.codeIndex.settings.stem, titleWeight: FULL.titleWeight ?? DEFAULT_TITLE_WEIGHT });
        const ranked = listsOf(placements.finish(await placements.demote(loc, ctx.parsed), query, 100));
        values.push(issueValues(ranked, ctx.issue.gold, columns));
        if (outLists > 0) lists.push(cutLists(ranked, outLists));
      }
    }
    results.push(outLists > 0 ? { id: ctx.issue.id, repo: ctx.issue.repo, values, gold: ctx.issue.gold, lists } : { id: ctx.issue.id, repo: ctx.issue.repo, values });
  });
  bar.stop();
  const rows = names.map((name, c) => ({ name, values: columnMeans(results.map((r) => r.values[c]), keys) }));
  if (args.out) writeFileSync(args.out, JSON.stringify({ names, keys, results }, null, 1));
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ data: args.data, evaluated: results.length, skipped: skipped.length, keys, rows })}\n`);
    return;
  }
  process.stdout.write(`\n${args.data}: ${results.length} issues evaluated (${dataset.dropped.length} dropped on import, ${skipped.length} skipped)\n\n`);
  process.stdout.write(markdownTable(rows, keys));
  const cells = (xs: string[]) => `| ${xs.join(' | ')} |\n`;
  process.stdout.write(`\n${cells(['repository', 'issues', 'full lexical query (ms, median)', ...models.map((m) => `${m.name} (ms, median)`)])}`);
  process.stdout.write(cells(['---', '---', '---', ...models.map(() => '---')]).replace(/ /g, ''));
  for (const [repo, t] of times) {
    const n = results.filter((r) => r.repo === repo).length;
    process.stdout.write(cells([repo || '(repository of the records)', String(n), ms(t.lexical), ...t.models.map(ms)]));
  }
}

/** Median milliseconds, or a dash when nothing was timed (features read from the cache). */
function ms(xs: number[]): string {
  return xs.length > 0 ? median(xs).toFixed(1) : '– (cached)';
}

main().catch((e) => {
  process.stderr.write(`locbench: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
