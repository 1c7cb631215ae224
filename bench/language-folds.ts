/**
 * bench/language-folds: the learned ranker per language on held-out repositories of imported
 * training sets (`issueloc dataset import`, bench/import-training-sets.ts): the issues of every
 * `--data` file in K folds of repositories (leave-repositories-out), each fold ranked by plain
 * BM25, the lexical pipeline, the built-in model and a model fitted on the other folds' issues.
 *
 *   node dist/bench/language-folds.js --data FILE [--data FILE…] [--mirrors DIR] [--cache-dir DIR]
 *       [--features-cache DIR] [--folds 5] [--limit N] [--trees 100] [--tree-depth 2]
 *       [--learning-rate 0.1] [--min-leaf 20] [--exclude-features a,b] [--without GROUP[,…]…]
 *       [--labels function|file] [--balance none|language|repo] [--balance-power 1] [--blend SHARE]
 *       [--no-bm25] [--cached-only] [--save-model FILE] [--top 100] [--json]
 *
 * Features are read from the feature cache (`issueloc train --features-cache DIR` writes the same
 * files) or extracted and cached (indexes built under `--cache-dir`); plain BM25's rankings are
 * cached beside them (`<features-cache>/bm25/`). `--cached-only` leaves out the issues whose
 * features are not cached (no index is built; while developing).
 *
 * Systems (rows `SYSTEM` over all issues and `SYSTEM [LANGUAGE]` per language of the gold files,
 * the majority of them, as bench/multi-swe names them: `c`, `cpp`, `go`, `java`, `js`, `python`, …):
 * - `plain BM25 (whole source files)`: bench/lib/whole-file-bm25.ts, as bench/multi-swe;
 * - `lexical pipeline`: the candidates in the pipeline's order (its file roll-up);
 * - `model default`: the built-in model (src/ltr/default-model.json);
 * - `fold model`: LambdaMART fitted on the other folds with the built-in model's settings (its
 *   file's `training`), unless `--trees` … name others (comma lists: one row per setting,
 *   `fold model (T trees, depth D, lr L, min leaf M)`); `--exclude-features` leaves features out;
 * - `fold model without G` for each `--without G`: the same without a feature group of the
 *   registry (`language`, `unit-kind`, `header-pair`, …, a hyphen for a space) or features;
 * - `--labels file` trains every fold model's trees on "candidate's file is gold" instead of "is a
 *   gold function"; `--balance language` (or `repo`) weighs the training queries so that each
 *   language (repository) weighs the same, `--balance-power 0.5` as √ its issue count
 *   (src/ltr/query-weights.ts);
 * - `fold model blended (S)` with `--blend S`: S × the fold model + (1 − S) × the built-in model
 *   (src/ltr/blend.ts); `--save-model` then writes the blend.
 *
 * Metrics as bench/multi-swe: all-gold file Acc@1/3/5/10 (every gold file in the top k) and MRR
 * (first gold file; 0 beyond `--top`). `--save-model FILE` also fits the fold model's first setting
 * on every issue (no fold left out) but those of excluded repositories (src/dataset/import/excluded.ts) and writes it: a candidate model of every imported set. Folds: repositories by issue count, each to the fold with
 * the fewest issues (bench/lib/folds.ts). `--json` prints one line {data, evaluated, skipped,
 * keys, systems, folds, rows: [{system, group, issues, values}]}.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { excludedRepository } from '../src/dataset/import/excluded.js';
import { IssuelocError } from '../src/errors.js';
import { readLabelledIssues } from '../src/ltr/datasets.js';
import { FEATURE_REGISTRY, FEATURES, type FeatureName } from '../src/ltr/features/registry.js';
import type { LabelledIssue } from '../src/ltr/labelled-issues.js';
import { lambdaMartSettings } from '../src/ltr/lambdamart.js';
import { RankingModel, rankLevels } from '../src/ltr/model.js';
import type { TrainingQuery } from '../src/ltr/objective.js';
import { collectQueries, DEFAULT_CANDIDATES, fitModel, type FitOptions } from '../src/ltr/train.js';
import { FeatureCache } from '../src/ltr/feature-cache.js';
import { blendModels } from '../src/ltr/blend.js';
import { BALANCES, type Balance } from '../src/ltr/query-weights.js';
import { GitRepo } from '../src/repo/git.js';
import { mirrorPath } from '../src/repo/mirrors.js';
import { writeFileAtomic } from '../src/util/atomic-write.js';
import { ALL_GOLD_KEYS, allGoldMetrics, goldRanks } from './lib/all-gold.js';
import { MIRRORS_DIR } from './lib/data.js';
import { repositoryFolds } from './lib/folds.js';
import { issueLanguage } from './lib/issue-language.js';
import { WholeFileBm25 } from './lib/whole-file-bm25.js';

const OPTIONS = {
  data: { type: 'string', multiple: true },
  mirrors: { type: 'string', default: MIRRORS_DIR },
  'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
  'features-cache': { type: 'string', default: '/tmp/issueloc-ltr-features' },
  folds: { type: 'string', default: '5' },
  limit: { type: 'string' },
  trees: { type: 'string' },
  'tree-depth': { type: 'string' },
  'learning-rate': { type: 'string' },
  'min-leaf': { type: 'string' },
  'exclude-features': { type: 'string', default: '' },
  without: { type: 'string', multiple: true, default: [] },
  'no-bm25': { type: 'boolean', default: false },
  'cached-only': { type: 'boolean', default: false },
  'save-model': { type: 'string' },
  labels: { type: 'string', default: 'function' },
  balance: { type: 'string', default: 'none' },
  'balance-power': { type: 'string', default: '1' },
  blend: { type: 'string' },
  top: { type: 'string', default: '100' },
  json: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

const BM25 = 'plain BM25 (whole source files)';
const LEXICAL = 'lexical pipeline';
const BUILT_IN = 'model default';

function positiveInt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new IssuelocError(`--${name}: expected a positive integer, got '${v}'`);
  return n;
}

function numberList(name: string, v: string | undefined, fallback: number): number[] {
  if (v === undefined) return [fallback];
  const list = v.split(',').map(Number);
  if (list.some((x) => !(x > 0))) throw new IssuelocError(`--${name}: expected positive numbers, got '${v}'`);
  return list;
}

/** Features named by a list of feature names and group names (a hyphen for a space). */
function featuresOf(list: string, option: string): Set<FeatureName> {
  const out = new Set<FeatureName>();
  for (const item of list.split(',').map((s) => s.trim()).filter(Boolean)) {
    const group = FEATURE_REGISTRY.filter((f) => f.group === item.replace(/-/g, ' '));
    if (group.length > 0) for (const f of group) out.add(f.name);
    else if ((FEATURES as readonly string[]).includes(item)) out.add(item as FeatureName);
    else throw new IssuelocError(`${option}: unknown feature or group '${item}' (groups: ${[...new Set(FEATURE_REGISTRY.map((f) => f.group.replace(/ /g, '-')))].join(', ')})`);
  }
  return out;
}

/** Plain BM25's ranking of each issue, cached under `dir` (one file per repository, commit and text). */
async function bm25Rankings(issues: readonly LabelledIssue[], mirrors: string, dir: string, top: number): Promise<Map<string, string[]>> {
  mkdirSync(dir, { recursive: true });
  const out = new Map<string, string[]>();
  const byRepo = new Map<string, LabelledIssue[]>();
  for (const i of issues) byRepo.set(i.repo, [...(byRepo.get(i.repo) ?? []), i]);
  for (const [repo, list] of byRepo) {
    let git: GitRepo | undefined;
    let ranker: WholeFileBm25 | undefined;
    try {
      for (const i of list) {
        const file = join(dir, `${createHash('sha1').update(JSON.stringify([i.repo, i.commit, i.text, top])).digest('hex').slice(0, 20)}.json`);
        try {
          out.set(i.id, JSON.parse(readFileSync(file, 'utf8')) as string[]);
          continue;
        } catch { /* not cached yet */ }
        if (!git) {
          const path = i.repoPath ?? mirrorPath(mirrors, repo);
          if (!path) throw new IssuelocError(`repository ${repo} not found under ${mirrors}`);
          git = await GitRepo.open(path);
          ranker = new WholeFileBm25(git);
        }
        const ranked = (await ranker!.rank(i.commit, i.text)).slice(0, top);
        writeFileAtomic(file, [JSON.stringify(ranked)]);
        out.set(i.id, ranked);
      }
    } finally {
      await git?.close();
    }
  }
  return out;
}

async function main() {
  let args;
  try {
    args = parseArgs({ options: OPTIONS }).values;
  } catch (e) {
    throw new IssuelocError((e as Error).message);
  }
  const files = args.data ?? [];
  if (files.length === 0) throw new IssuelocError('--data FILE: at least one imported dataset');
  const k = positiveInt('folds', args.folds)!;
  const top = positiveInt('top', args.top)!;
  const limit = positiveInt('limit', args.limit) ?? Infinity;
  const builtIn = RankingModel.load('default');
  const own = lambdaMartSettings((builtIn.file.training ?? {}) as Parameters<typeof lambdaMartSettings>[0]);
  const grid: { trees: number; maxDepth: number; learningRate: number; minLeaf: number }[] = [];
  for (const trees of numberList('trees', args.trees, own.trees)) {
    for (const maxDepth of numberList('tree-depth', args['tree-depth'], own.maxDepth)) {
      for (const learningRate of numberList('learning-rate', args['learning-rate'], own.learningRate)) {
        for (const minLeaf of numberList('min-leaf', args['min-leaf'], own.minLeaf)) grid.push({ trees, maxDepth, learningRate, minLeaf });
      }
    }
  }
  const labels = args.labels;
  if (labels !== 'function' && labels !== 'file') throw new IssuelocError(`--labels: expected function or file, got '${labels}'`);
  const by = args.balance as Balance;
  if (!BALANCES.includes(by)) throw new IssuelocError(`--balance: expected ${BALANCES.join(', ')}, got '${by}'`);
  const power = Number(args['balance-power']);
  if (!(power >= 0) || !Number.isFinite(power)) throw new IssuelocError(`--balance-power: expected a number ≥ 0, got '${args['balance-power']}'`);
  const share = args.blend === undefined ? undefined : Number(args.blend);
  if (share !== undefined && !(share > 0 && share < 1)) throw new IssuelocError(`--blend: expected a share between 0 and 1, got '${args.blend}'`);
  const recipe: Pick<FitOptions, 'labels' | 'balance'> = { labels, ...(by !== 'none' ? { balance: { by, power } } : {}) };
  const blended = (model: RankingModel) => (share === undefined ? model : blendModels([{ model, share }, { model: builtIn, share: 1 - share }]));
  const excluded = featuresOf(args['exclude-features']!, '--exclude-features');
  const base = FEATURES.filter((f) => !excluded.has(f));
  const fits: { name: string; opts: FitOptions }[] = grid.map((s) => ({
    name: grid.length === 1 ? 'fold model' : `fold model (${s.trees} trees, depth ${s.maxDepth}, lr ${s.learningRate}, min leaf ${s.minLeaf})`,
    opts: { learner: 'lambdamart', features: base, lambdamart: s, ...recipe },
  }));
  for (const w of args.without!) {
    const drop = featuresOf(w, '--without');
    fits.push({ name: `fold model without ${w}`, opts: { learner: 'lambdamart', features: base.filter((f) => !drop.has(f)), lambdamart: grid[0], ...recipe } });
  }

  // the issues and their features (cached, else extracted)
  const issues: LabelledIssue[] = [];
  const queries = new Map<string, TrainingQuery>();
  const skipped: string[] = [];
  const seen = new Set<string>();
  let uncached = 0;
  for (const file of files) {
    const data = await readLabelledIssues(file, args.mirrors!);
    const perRepo = new Map<string, number>();
    const kept = data.issues.filter((i) => {
      if (i.gold.file.length === 0) return false;
      perRepo.set(i.repo, (perRepo.get(i.repo) ?? 0) + 1);
      return perRepo.get(i.repo)! <= limit;
    });
    let got: TrainingQuery[];
    if (args['cached-only']) {
      const cache = new FeatureCache(args['features-cache']!, { candidates: DEFAULT_CANDIDATES, index: data.indexSettings, history: true, similar: false });
      got = kept.flatMap((i) => cache.get(i) ?? []);
      uncached += kept.length - got.length;
    } else {
      got = await collectQueries(kept, {
        repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, indexSettings: data.indexSettings, featuresCache: args['features-cache'],
        onSkip: (i, reason) => skipped.push(`${i.id}: ${reason}`),
      });
    }
    for (const q of got) queries.set(q.id, q);
    for (const i of kept) if (queries.has(i.id) && !seen.has(i.id)) { seen.add(i.id); issues.push(i); }
  }
  for (const s of skipped) process.stderr.write(`language-folds: warning: skipped ${s}\n`);
  if (issues.length === 0) throw new IssuelocError('no issue could be used (check --mirrors and the datasets)');
  const bm25 = args['no-bm25'] ? undefined : await bm25Rankings(issues, args.mirrors!, join(args['features-cache']!, 'bm25'), top);

  // rankings: per system, per issue id, the ranked files
  const BLEND = `fold model blended (${share})`;
  const systems = [...(bm25 ? [BM25] : []), LEXICAL, BUILT_IN, ...fits.map((f) => f.name), ...(share !== undefined ? [BLEND] : [])];
  const ranked = new Map<string, Map<string, string[]>>(systems.map((s) => [s, new Map()]));
  const lexical = new RankingModel({ weights: { pipeline: 1 }, candidates: builtIn.candidates });
  for (const i of issues) {
    const q = queries.get(i.id)!;
    if (bm25) ranked.get(BM25)!.set(i.id, bm25.get(i.id)!);
    ranked.get(LEXICAL)!.set(i.id, rankLevels(q, lexical).file);
    ranked.get(BUILT_IN)!.set(i.id, rankLevels(q, builtIn).file);
  }
  const folds = repositoryFolds(issues, k);
  if (folds.length < 2) throw new IssuelocError(`${folds.length} fold: leave-repositories-out folds need issues of 2 repositories or more`);
  let cpu = process.cpuUsage();
  folds.forEach((test, f) => {
    const testIds = new Set(test.map((i) => i.id));
    const train = issues.filter((i) => !testIds.has(i.id)).map((i) => queries.get(i.id)!);
    for (const [j, { name, opts }] of fits.entries()) {
      const { model } = fitModel(train, opts);
      for (const i of test) ranked.get(name)!.set(i.id, rankLevels(queries.get(i.id)!, model).file);
      if (j === 0 && share !== undefined) {
        const blend = blended(model);
        for (const i of test) ranked.get(BLEND)!.set(i.id, rankLevels(queries.get(i.id)!, blend).file);
      }
    }
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    if (!args.json) process.stderr.write(`language-folds: fold ${f + 1}/${folds.length} (${[...new Set(test.map((i) => i.repo))].join(', ')}): ${fits.length} fits, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU\n`);
  });

  if (args['save-model']) {
    // never trained on: the evaluation repositories (SWE-bench, Multi-SWE-bench, the held-out ones)
    const all = issues.filter((i) => !excludedRepository(i.repo)).map((i) => queries.get(i.id)!);
    const left = issues.length - all.length;
    if (left > 0 && !args.json) process.stderr.write(`language-folds: --save-model leaves out ${left} issues of excluded repositories\n`);
    const { model } = fitModel(all, { ...fits[0].opts, training: { datasets: files, repos: [...new Set(all.map((q) => q.repo))].sort(), issueIds: all.map((q) => q.id) } });
    blended(model).save(args['save-model']);
    if (!args.json) process.stderr.write(`language-folds: wrote ${args['save-model']} (${all.length} issues)\n`);
  }
  const language = new Map(issues.map((i) => [i.id, issueLanguage(i.gold.file)]));
  const groups = [{ group: 'all', list: issues }];
  for (const lang of [...new Set(language.values())].sort()) groups.push({ group: lang, list: issues.filter((i) => language.get(i.id) === lang) });
  const rows = groups.flatMap(({ group, list }) => systems.map((system) => {
    const sums = ALL_GOLD_KEYS.map(() => 0);
    for (const i of list) {
      const m = allGoldMetrics(goldRanks(ranked.get(system)!.get(i.id)!.slice(0, top), i.gold.file));
      ALL_GOLD_KEYS.forEach((key, j) => { sums[j] += m[key]; });
    }
    return { system, group, issues: list.length, values: ALL_GOLD_KEYS.map((key, j) => (key === 'MRR' ? 1 : 100) * sums[j] / list.length) };
  }));
  const foldInfo = folds.map((fold) => ({ issues: fold.length, repos: [...new Set(fold.map((i) => i.repo))] }));
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ data: files, evaluated: issues.length, skipped: skipped.length, uncached, keys: ALL_GOLD_KEYS, systems, folds: foldInfo, rows })}\n`);
    return;
  }
  process.stdout.write(`\n${files.join(', ')}: ${issues.length} issues (${skipped.length} skipped${args['cached-only'] ? `, ${uncached} without cached features` : ''}), ${folds.length} folds of repositories:\n`);
  for (const [j, f] of foldInfo.entries()) process.stdout.write(`  fold ${j + 1}: ${f.issues} issues (${f.repos.join(', ')})\n`);
  process.stdout.write(`fold model: LambdaMART, ${grid.map((s) => `${s.trees} trees, depth ${s.maxDepth}, lr ${s.learningRate}, min leaf ${s.minLeaf}`).join('; ')}\n\n`);
  process.stdout.write('| language | issues | system | file Acc@1 / 3 / 5 / 10 | MRR |\n|---|---|---|---|---|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.group} | ${r.issues} | ${r.system} | ${r.values.slice(0, 4).map((v) => v.toFixed(1)).join(' / ')} | ${r.values[4].toFixed(3)} |\n`);
  }
}

main().catch((e) => {
  process.stderr.write(e instanceof IssuelocError ? `language-folds: ${e.message}\n` : `language-folds: internal error: ${(e as Error).stack ?? e}\n`);
  process.exitCode = e instanceof IssuelocError ? 2 : 3;
});
