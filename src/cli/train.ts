import { homedir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { IssuelocError } from '../errors.js';
import { readLabelledIssues } from '../rank/datasets.js';
import { FEATURES, type FeatureName } from '../rank/features.js';
import type { LabelledIssue } from '../rank/issue-loop.js';
import { collectQueries, DEFAULT_CANDIDATES, fitModel, type FitOptions } from '../rank/train.js';
import { DEFAULT_OBJECTIVE, parseObjective } from '../rank/objective.js';
import type { IndexSettings } from '../index/code-index.js';
import { positiveInt } from './localize.js';
import { progressBar } from './progress.js';

/** `issueloc train`: fit the learned ranker on labelled datasets and write its model file. */
export function registerTrainCommand(program: Command): void {
  program
    .command('train')
    .description('fit the learned ranker (coordinate ascent on a linear model) on labelled issues and write model.json')
    .requiredOption('--dataset <file...>', 'dataset JSONL: dataset records, SWE-bench, Loc-Bench or Tomcat rows (repeatable)')
    .requiredOption('-o, --output <file>', 'model file to write')
    .option('--repo-root <dir>', 'folder of repository mirrors (OWNER+NAME/repo or swe-bench+OWNER__NAME/repo)', '.')
    .option('--cache-dir <dir>', 'root of the index and history caches (one folder per repository)', join(homedir(), '.cache', 'issueloc', 'train'))
    .option('--features-cache <dir>', 'cache of extracted candidate features (reused across runs)')
    .option('--repos <list>', 'only these repositories (owner/name, comma-separated)')
    .option('--exclude-repos <list>', 'leave these repositories out (owner/name, comma-separated)')
    .option('--created-before <date>', 'only issues reported before this date (ISO 8601; a temporal split)')
    .option('--objective <spec>', 'what to maximise, level:metric[=weight],… (levels file/module/function)', DEFAULT_OBJECTIVE)
    .option('--features <list>', `features the model may use (default all: ${FEATURES.join(',')})`)
    .option('--exclude-features <list>', 'features the model may not use')
    .option('--level-objective <level=spec...>', 'an own model for ranking files or modules, e.g. file=file:MAP (repeatable)')
    .option('--level-features <level=list...>', "features of a level's own model, e.g. file=pipeline,fileBm25f")
    .option('--depth <n>', 'candidates reranked per issue', (v) => positiveInt(v, '--depth'), DEFAULT_CANDIDATES.depth)
    .option('--restarts <n>', 'random restarts of coordinate ascent', (v) => count(v, '--restarts'), 2)
    .option('--bags <n>', 'bootstrap bags averaged (1 = plain coordinate ascent)', (v) => count(v, '--bags'), 1)
    .option('--seed <n>', 'random seed', (v) => count(v, '--seed'), 1)
    .option('--no-history', 'no git-history features')
    .option('--similar-issues', "SimiScore over each dataset's earlier issues (needs report dates)")
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (o) => {
      parseObjective(o.objective);
      const features = featureList(o.features, o.excludeFeatures);
      const levels = levelModels(o.levelObjective ?? [], o.levelFeatures ?? []);
      const wanted = o.repos ? new Set(String(o.repos).split(',')) : undefined;
      const excluded = new Set(String(o.excludeRepos ?? '').split(',').filter(Boolean));
      const before = o.createdBefore === undefined ? Infinity : Date.parse(o.createdBefore);
      if (Number.isNaN(before)) throw new IssuelocError(`--created-before takes an ISO 8601 date, got '${o.createdBefore}'`);
      const keep = (i: LabelledIssue) => (!wanted || wanted.has(i.repo)) && !excluded.has(i.repo) && (before === Infinity || i.created < before);
      const candidates = { ...DEFAULT_CANDIDATES, depth: o.depth };
      const queries = [];
      const sources: string[] = [];
      for (const file of o.dataset as string[]) {
        const data = await readLabelledIssues(file, o.repoRoot);
        const issues = data.issues.filter(keep);
        const bar = progressBar(`features ${file}`, o.progress);
        queries.push(...(await collectQueries(issues, {
          repoRoot: o.repoRoot, cacheRoot: o.cacheDir, indexSettings: data.indexSettings as Partial<IndexSettings>,
          history: o.history, similarIssues: o.similarIssues === true, featuresCache: o.featuresCache, candidates,
          onProgress: bar.update,
        })));
        bar.stop();
        sources.push(`${file} (${data.kind}, ${issues.length} issues)`);
      }
      if (queries.length === 0) throw new IssuelocError('no labelled issue could be used (check --repo-root and the datasets)');
      const t0 = performance.now();
      const { model, fit } = fitModel(queries, {
        objective: o.objective, features, levels, restarts: o.restarts, bags: o.bags, seed: o.seed, candidates,
        training: {
          datasets: sources, history: o.history, similarIssues: o.similarIssues === true,
          repos: [...new Set(queries.map((q) => q.repo))].sort(),
          issueIds: queries.map((q) => q.id),
        },
      });
      model.save(o.output);
      process.stderr.write(`trained on ${queries.length} issues in ${((performance.now() - t0) / 1000).toFixed(1)} s: ` +
        `${o.objective} ${fit.initialValue.toFixed(4)} (pipeline alone) -> ${fit.value.toFixed(4)}\n`);
      process.stdout.write(`${o.output}\n`);
    });
}

/** `--level-objective file=SPEC` and `--level-features file=a,b` → the own models of levels. */
function levelModels(objectives: string[], features: string[]): FitOptions['levels'] {
  const split = (arg: string, option: string): ['file' | 'module', string] => {
    const eq = arg.indexOf('=');
    const level = arg.slice(0, Math.max(0, eq));
    if (level !== 'file' && level !== 'module') throw new IssuelocError(`${option} takes file=… or module=…, got '${arg}'`);
    return [level, arg.slice(eq + 1)];
  };
  const out: NonNullable<FitOptions['levels']> = {};
  for (const arg of objectives) {
    const [level, spec] = split(arg, '--level-objective');
    parseObjective(spec);
    out[level] = { objective: spec };
  }
  for (const arg of features) {
    const [level, list] = split(arg, '--level-features');
    const own = out[level];
    if (!own) throw new IssuelocError(`--level-features ${level}=… needs --level-objective ${level}=…`);
    own.features = featureList(list);
  }
  return out;
}

/** A whole number ≥ 0 of an option. */
function count(v: string, name: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new IssuelocError(`${name} takes a whole number ≥ 0, got '${v}'`);
  return n;
}

/** The features a model may use from `--features` / `--exclude-features`. */
function featureList(include?: string, exclude?: string): FeatureName[] {
  const parse = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean).map((x) => {
    if (!(FEATURES as readonly string[]).includes(x)) throw new IssuelocError(`unknown feature '${x}' (features: ${FEATURES.join(', ')})`);
    return x as FeatureName;
  });
  const chosen = include ? parse(include) : [...FEATURES];
  const drop = new Set(exclude ? parse(exclude) : []);
  return chosen.filter((f) => !drop.has(f));
}
