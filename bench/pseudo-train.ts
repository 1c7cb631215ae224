/**
 * bench/pseudo-train: does the built-in model get better when pseudo-issues mined from the
 * training repositories' own commit histories (commit message = issue text, changed files and
 * edited functions = positives; src/history/commit-miner.ts) are added to its Loc-Bench training
 * issues? A measurement; it changes no default.
 *
 *   node dist/bench/pseudo-train.js [--data FILE] [--mirrors DIR] [--base-model FILE]
 *       [--repos a/b,c/d] [--limit-repos N] [--pseudo 100] [--snapshots 4]
 *       [--cache-dir DIR] [--features-cache DIR] [--pseudo-features-cache DIR]
 *       [--folds 5] [--seeds 3] [--variants a,b,c] [--out-dir DIR] [--out-json FILE] [--json]
 *
 * Training repositories and issues: those of `--base-model`'s training record (default the
 * built-in model: 389 Loc-Bench issues of 140 repositories outside SWE-bench Lite); `--repos`
 * keeps some of them, `--limit-repos N` the N with the most Loc-Bench issues (ties: name).
 *
 * Per repository, at A = the merge base of the base commits of ALL its Loc-Bench issues (an
 * ancestor of each: no pseudo-issue comes after any Loc-Bench issue of the repository), the most
 * recent `--pseudo` pseudo-issues among A's ancestors that change a Python file (the index of the
 * Loc-Bench protocol holds Python files only) are labelled as per-repository adaptation labels
 * its own (src/ltr/adapt.ts `labelledPseudoIssues`: `--snapshots` groups of consecutive commits,
 * each asked at the merge base of its commits' parents, so no commit is evidence for itself), and
 * their candidate features are collected (`collectQueries`; index and history caches under
 * `--cache-dir`, features under `--pseudo-features-cache`). Pseudo-issues with no gold function
 * among their candidates teach the function-level trees nothing and are left out.
 *
 * Variants, each LambdaMART with the built-in settings (100 trees, depth 2, rate 0.1, leaf 20,
 * the function trees ranking every level):
 *   a  the Loc-Bench issues alone (the built-in model's recipe);
 *   b  Loc-Bench issues + every pseudo-issue;
 *   c  Loc-Bench issues + as many pseudo-issues as there are Loc-Bench issues (random sample;
 *      folds: the mean over `--seeds` samples, the final model: seed 1);
 *   p  pseudo-issues alone (not run unless named in `--variants`).
 *
 * Folds: the Loc-Bench training repositories in `--folds` folds as bench/ltr-folds.ts makes them;
 * each fold's models are fitted on the other folds' Loc-Bench issues and the pseudo-issues of the
 * other folds' repositories only, and evaluated on the held-out repositories' real Loc-Bench
 * issues (SWE-bench Lite's columns and their mean). Then each variant is fitted on everything and
 * written to `<out-dir>/pseudo-<variant>.json` (with `--out-dir`).
 *
 * Never reads a SWE-bench Lite or Multi-SWE-bench issue: the repositories are the base model's
 * training repositories, which exclude SWE-bench Lite's (checked against SWE-bench Lite's 12
 * repository names, written here). Skipped repositories and issues are named on stderr.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs } from './lib/args.js';
import { IssuelocError } from '../src/errors.js';
import { mineCommits, type PseudoIssue } from '../src/history/commit-miner.js';
import { labelledPseudoIssues } from '../src/ltr/adapt.js';
import { readLabelledIssues } from '../src/ltr/datasets.js';
import type { LabelledIssue } from '../src/ltr/labelled-issues.js';
import { RankingModel, rankLevels } from '../src/ltr/model.js';
import { labelQuery, type TrainingQuery } from '../src/ltr/objective.js';
import { collectQueries, fitModel, type FitOptions } from '../src/ltr/train.js';
import { mulberry32 } from '../src/ltr/coordinate-ascent.js';
import { GitRepo } from '../src/repo/git.js';
import { mirrorPath } from '../src/repo/mirrors.js';
import { languageOf } from '../src/corpus/languages.js';
import { parseNumberOption } from '../src/util/number-option.js';
import { progressBar } from '../src/util/progress-bar.js';
import { COLUMNS, columnKeys, columnMeans, issueValues, markdownTable } from './lib/metrics-table.js';
import { MIRRORS_DIR, dataFile } from './lib/data.js';
import { repositoryFolds } from './lib/folds.js';

const { values: args } = benchArgs({
  options: {
    data: { type: 'string', default: dataFile('locbench/locbench_v1.jsonl') },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    'base-model': { type: 'string', default: 'default' },
    repos: { type: 'string' },
    'limit-repos': { type: 'string' },
    pseudo: { type: 'string', default: '100' },
    snapshots: { type: 'string', default: '4' },
    'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
    'features-cache': { type: 'string', default: '/tmp/issueloc-ltr-features' },
    'pseudo-features-cache': { type: 'string', default: '/tmp/issueloc-pseudo-features' },
    folds: { type: 'string', default: '5' },
    seeds: { type: 'string', default: '3' },
    variants: { type: 'string', default: 'a,b,c' },
    'out-dir': { type: 'string' },
    json: { type: 'boolean', default: false },
    'out-json': { type: 'string' },
  },
});

/**
 * SWE-bench Lite's repositories (its 300 issues come from these 12): never a training repository
 * here, whatever `--base-model` lists. Names only; no SWE-bench Lite file is read.
 */
const SWE_BENCH_LITE_REPOS: ReadonlySet<string> = new Set([
  'astropy/astropy', 'django/django', 'matplotlib/matplotlib', 'mwaskom/seaborn', 'pallets/flask', 'psf/requests',
  'pydata/xarray', 'pylint-dev/pylint', 'pytest-dev/pytest', 'scikit-learn/scikit-learn', 'sphinx-doc/sphinx', 'sympy/sympy',
].map((r) => r.toLowerCase()));

/** Commits read per pseudo-issue wanted (merges, tests-only, non-Python and short messages drop many). */
const READ_PER_ISSUE = 8;

const VARIANTS = {
  a: 'Loc-Bench issues alone',
  b: 'Loc-Bench + all pseudo-issues',
  c: 'Loc-Bench + pseudo-issues, as many as Loc-Bench issues',
  p: 'pseudo-issues alone',
} as const;
type Variant = keyof typeof VARIANTS;

/** The built-in model's settings, written out (a measurement must not move with the defaults). */
const FIT: FitOptions = { learner: 'lambdamart', lambdamart: { trees: 100, maxDepth: 2, learningRate: 0.1, minLeaf: 20 }, levelTrees: [] };

/** What mining gave one repository. */
interface RepoMining {
  repo: string;
  /** Where its pseudo-issues were mined before (the merge base of its Loc-Bench base commits). */
  anchor: string;
  /** Pseudo-issues kept (Python positives), and labelled at a snapshot. */
  mined: number;
  labelled: number;
  seconds: number;
}

async function main() {
  const t0 = performance.now();
  const pseudoLimit = parseNumberOption(args.pseudo, '--pseudo', { min: 1, whole: true });
  const snapshots = parseNumberOption(args.snapshots, '--snapshots', { min: 1, whole: true });
  const k = parseNumberOption(args.folds, '--folds', { min: 2, whole: true });
  const seeds = parseNumberOption(args.seeds, '--seeds', { min: 1, whole: true });
  const variants = args.variants!.split(',').map((v) => v.trim()).filter(Boolean) as Variant[];
  for (const v of variants) if (!(v in VARIANTS)) throw new IssuelocError(`--variants takes a, b, c and p, got '${v}'`);
  if (variants.length === 0) throw new IssuelocError('--variants names no variant');

  const base = RankingModel.load(args['base-model']!);
  const trainedRepos = base.file.training?.repos;
  const trainedIds = base.file.training?.issueIds;
  if (!Array.isArray(trainedRepos) || !Array.isArray(trainedIds)) throw new IssuelocError(`${args['base-model']}: the model file lists no training repositories and issues`);
  let repos = (trainedRepos as string[]).slice();
  if (args.repos) {
    const wanted = args.repos.split(',').map((r) => r.trim()).filter(Boolean);
    for (const r of wanted) if (!repos.includes(r)) throw new IssuelocError(`--repos: ${r} is not a training repository of ${args['base-model']}`);
    repos = wanted;
  }
  const lite = repos.filter((r) => SWE_BENCH_LITE_REPOS.has(r.toLowerCase()));
  if (lite.length > 0) throw new IssuelocError(`${args['base-model']}: SWE-bench Lite repositories among the training repositories: ${lite.join(', ')}`);

  const dataset = await readLabelledIssues(args.data!, args.mirrors!);
  if (dataset.kind !== 'locbench') throw new IssuelocError(`${args.data}: not a Loc-Bench file (read as ${dataset.kind})`);
  const ids = new Set(trainedIds as string[]);
  const count = (r: string) => dataset.issues.filter((i) => i.repo === r && ids.has(i.id)).length;
  // the most Loc-Bench issues first (ties: name): a run stopped early has cached the largest repositories' features
  repos = repos.map((r) => ({ r, n: count(r) })).sort((a, b) => b.n - a.n || a.r.localeCompare(b.r)).map((x) => x.r);
  if (args['limit-repos'] !== undefined) repos = repos.slice(0, parseNumberOption(args['limit-repos'], '--limit-repos', { min: 1, whole: true }));
  const repoSet = new Set(repos);
  const locIssues = dataset.issues.filter((i) => repoSet.has(i.repo) && ids.has(i.id));
  if (locIssues.length === 0) throw new IssuelocError('no Loc-Bench training issue in the repositories chosen');
  const skipped: string[] = [];
  const skip = (what: string) => {
    skipped.push(what);
    process.stderr.write(`pseudo-train: skipped ${what}\n`);
  };
  const locBar = progressBar('Loc-Bench features', !args.json);
  const locQueries = await collectQueries(locIssues, {
    repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, indexSettings: dataset.indexSettings, featuresCache: args['features-cache'],
    onProgress: locBar.update,
    onSkip: (i, reason) => skip(`${i.id}: ${reason}`),
  });
  locBar.stop();
  const locById = new Map(locQueries.map((q) => [q.id, q]));
  const issues = locIssues.filter((i) => locById.has(i.id));
  const evaluated = new Set(issues.map((i) => i.repo));

  // mining: per repository, before the merge base of all its Loc-Bench issues
  const tMine = performance.now();
  const mining: RepoMining[] = [];
  const pseudoIssues: LabelledIssue[] = [];
  const mineBar = progressBar('mine', !args.json);
  for (const [at, name] of repos.entries()) {
    mineBar.update(at, repos.length);
    // a repository none of whose Loc-Bench issues is evaluated gives no pseudo-issue either
    if (!evaluated.has(name)) { skip(`${name}: no Loc-Bench issue with features`); continue; }
    const path = mirrorPath(args.mirrors!, name);
    if (!path) { skip(`${name}: no mirror under ${args.mirrors}`); continue; }
    const started = performance.now();
    let repo: GitRepo | undefined;
    try {
      repo = await GitRepo.open(path);
      // every Loc-Bench issue of the repository (not only the training ones): the anchor precedes them all
      const bases = [...new Set(dataset.issues.filter((i) => i.repo === name).map((i) => i.commit))];
      const anchor = await mergeBase(repo, bases);
      if (!anchor) { skip(`${name}: its Loc-Bench base commits have no common ancestor here`); continue; }
      const pseudo = await minePython(repo, anchor, pseudoLimit, join(args['cache-dir']!, name.replace('/', '+')));
      const labelled = await labelledPseudoIssues(repo, pseudo, snapshots, name);
      pseudoIssues.push(...labelled);
      mining.push({ repo: name, anchor, mined: pseudo.length, labelled: labelled.length, seconds: (performance.now() - started) / 1000 });
    } catch (e) {
      skip(`${name}: mining failed (${(e as Error).message})`);
    } finally {
      await repo?.close();
    }
  }
  mineBar.stop();
  const mineSeconds = (performance.now() - tMine) / 1000;

  const tFeatures = performance.now();
  const featureBar = progressBar('pseudo-issue features', !args.json);
  const pseudoAll = await collectQueries(pseudoIssues, {
    repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, indexSettings: dataset.indexSettings, featuresCache: args['pseudo-features-cache'],
    onProgress: featureBar.update,
    onSkip: (i, reason) => skip(`${i.id}: ${reason}`),
  });
  featureBar.stop();
  const featureSeconds = (performance.now() - tFeatures) / 1000;
  const withFile = pseudoAll.filter((q) => hasGold(q, 'file'));
  const pseudoQueries = withFile.filter((q) => hasGold(q, 'function'));

  // folds of the Loc-Bench training repositories; held-out repositories' pseudo-issues never train
  const folds = repositoryFolds(issues, k);
  const columns = COLUMNS.swebench;
  const keys = columnKeys(columns);
  const perIssue = new Map<string, Record<string, number>[]>();
  const fitSeconds = new Map<string, number>();
  const fit = (name: string, train: readonly TrainingQuery[]) => {
    const started = performance.now();
    const { model } = fitModel(train, FIT);
    fitSeconds.set(name, (fitSeconds.get(name) ?? 0) + (performance.now() - started) / 1000);
    return model;
  };
  const seedRuns = (v: Variant) => (v === 'c' ? seeds : 1);
  folds.forEach((test, f) => {
    const held = new Set(test.map((i) => i.repo));
    const trainLoc = issues.filter((i) => !held.has(i.repo)).map((i) => locById.get(i.id)!);
    const trainPseudo = pseudoQueries.filter((q) => !held.has(q.repo));
    for (const v of variants) {
      for (let s = 1; s <= seedRuns(v); s++) {
        const model = fit(v, trainingSet(v, trainLoc, trainPseudo, s));
        const row = rowName(v, s, seedRuns(v));
        const list = perIssue.get(row) ?? [];
        for (const i of test) list.push(issueValues(rankLevels(locById.get(i.id)!, model), i.gold, columns));
        perIssue.set(row, list);
      }
    }
    if (!args.json || args['out-json']) process.stderr.write(`fold ${f + 1}/${folds.length}: ${test.length} held-out issues, ${trainLoc.length} Loc-Bench and ${trainPseudo.length} pseudo-issues to train on\n`);
  });
  const rows = [...perIssue].map(([name, values]) => {
    const means = columnMeans(values, keys);
    return { name, values: [...means, means.reduce((a, b) => a + b, 0) / means.length] };
  });
  for (const v of variants) {
    if (seedRuns(v) < 2) continue;
    const runs = rows.filter((r) => r.name.startsWith(`${v}:`) && r.name.includes(', seed '));
    rows.push({ name: `${v}: ${VARIANTS[v]}, mean of ${runs.length} samples`, values: runs[0].values.map((_, c) => runs.reduce((a, r) => a + r.values[c], 0) / runs.length) });
  }

  // the final models, on every training repository
  const models: Record<string, string> = {};
  const fullLoc = issues.map((i) => locById.get(i.id)!);
  if (args['out-dir']) {
    for (const v of variants) {
      const train = trainingSet(v, fullLoc, pseudoQueries, 1);
      const started = performance.now();
      const { model } = fitModel(train, {
        ...FIT,
        training: {
          pseudoTrain: { variant: v, description: VARIANTS[v], pseudoPerRepo: pseudoLimit, snapshots, pseudoIssues: train.length - (v === 'p' ? 0 : fullLoc.length), seed: v === 'c' ? 1 : undefined },
          repos: [...new Set(train.map((q) => q.repo))].sort(),
          issueIds: train.map((q) => q.id),
        },
      });
      fitSeconds.set(`${v} (all repositories)`, (performance.now() - started) / 1000);
      const out = join(args['out-dir'], `pseudo-${v}.json`);
      model.save(out);
      models[v] = out;
    }
  }

  const counts = {
    repos: repos.length, locIssues: issues.length, minedRepos: mining.length,
    pseudo: { mined: sum(mining.map((m) => m.mined)), labelled: pseudoIssues.length, withFeatures: pseudoAll.length, withGoldFile: withFile.length, used: pseudoQueries.length },
  };
  const timings = { mineSeconds, featureSeconds, fitSeconds: Object.fromEntries(fitSeconds), totalSeconds: (performance.now() - t0) / 1000 };
  const report = JSON.stringify({ counts, timings, folds: folds.map((f) => f.length), keys: [...keys, 'mean'], rows, models, mining, skipped });
  if (args['out-json']) writeFileSync(args['out-json'], `${report}\n`);
  if (args.json) {
    process.stdout.write(`${report}\n`);
    return;
  }
  const out: string[] = [
    `\n${counts.locIssues} Loc-Bench issues of ${counts.repos} repositories; pseudo-issues from ${counts.minedRepos} repositories: ` +
      `${counts.pseudo.mined} mined (≤ ${pseudoLimit} each), ${counts.pseudo.labelled} labelled at ${snapshots} snapshots, ${counts.pseudo.withFeatures} with features, ` +
      `${counts.pseudo.withGoldFile} with a gold file and ${counts.pseudo.used} with a gold function among the candidates (used)`,
    `folds: ${folds.map((f) => f.length).join(', ')} held-out issues; mining ${mineSeconds.toFixed(0)} s, features ${featureSeconds.toFixed(0)} s`,
    ...(skipped.length > 0 ? [`skipped: ${skipped.length} (${skipped.slice(0, 5).join('; ')}${skipped.length > 5 ? '; …' : ''})`] : []),
    '',
    markdownTable(rows, [...keys, 'mean']),
    '| fits | seconds |',
    '|---|---|',
    ...[...fitSeconds].map(([name, s]) => `| ${name} | ${s.toFixed(1)} |`),
    ...Object.entries(models).map(([v, path]) => `model ${v}: ${path}`),
    '',
  ];
  process.stdout.write(out.join('\n'));
}

/** A table row's name: the variant, and the sample's seed when it has several. */
function rowName(v: Variant, seed: number, runs: number): string {
  return runs > 1 ? `${v}: ${VARIANTS[v]}, seed ${seed}` : `${v}: ${VARIANTS[v]}`;
}

/** The training queries of a variant: Loc-Bench queries and (some of) the pseudo-issues. */
function trainingSet(v: Variant, loc: readonly TrainingQuery[], pseudo: readonly TrainingQuery[], seed: number): TrainingQuery[] {
  if (v === 'a') return [...loc];
  if (v === 'b') return [...loc, ...pseudo];
  if (v === 'p') return [...pseudo];
  return [...loc, ...sample(pseudo, loc.length, seed)];
}

/** `n` items drawn without replacement (all when there are fewer), in their original order; deterministic per seed. */
function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  if (n >= items.length) return [...items];
  const rand = mulberry32(seed);
  const at = items.map((_, i) => i);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rand() * (at.length - i));
    [at[i], at[j]] = [at[j], at[i]];
  }
  return at.slice(0, n).sort((a, b) => a - b).map((i) => items[i]);
}

/** Whether a query has a gold candidate at `level`. */
function hasGold(q: TrainingQuery, level: 'file' | 'function'): boolean {
  return labelQuery(q).goldGroup[level].some((g) => g === 1);
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** The most recent `limit` pseudo-issues before `anchor` with a Python positive file and a parent. */
async function minePython(repo: GitRepo, anchor: string, limit: number, cacheDir: string): Promise<PseudoIssue[]> {
  const out: PseudoIssue[] = [];
  for await (const p of mineCommits(repo, anchor, { cacheDir, maxCommits: limit * READ_PER_ISSUE })) {
    if (p.parent === '' || !p.files.some((f) => languageOf(f) === 'python')) continue;
    out.push(p);
    if (out.length >= limit) break;
  }
  return out;
}

/** The merge base of commits (resolved first), or undefined when one is missing or they have none. */
async function mergeBase(repo: GitRepo, commits: readonly string[]): Promise<string | undefined> {
  const shas: string[] = [];
  for (const c of commits) {
    try {
      shas.push(await repo.resolveCommit(c));
    } catch {
      // a base commit the mirror lacks: its issue is not a training issue either
    }
  }
  if (shas.length === 0) return undefined;
  if (shas.length === 1) return shas[0];
  const res = await repo.exec(['merge-base', '--octopus', ...new Set(shas)]);
  const sha = res.stdout.toString('utf8').trim();
  return res.code === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}

main().catch((e) => {
  process.stderr.write(`pseudo-train: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
