import { homedir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { IssuelocError } from '../errors.js';
import { readLabelledIssues } from '../ltr/datasets.js';
import { FEATURES, type FeatureName } from '../ltr/features/registry.js';
import type { LabelledIssue } from '../ltr/labelled-issues.js';
import { collectQueries, DEFAULT_CANDIDATES, DEFAULT_LEARNER, fitModel, LEARNERS, type FitOptions, type Learner } from '../ltr/train.js';
import { LAMBDAMART_DEFAULTS } from '../ltr/lambdamart.js';
import type { OwnLevel } from '../ltr/model.js';
import { DEFAULT_OBJECTIVE, parseObjective } from '../ltr/objective.js';
import type { IndexSettings } from '../index/code-index.js';
import { wholeOption } from './options.js';
import { parseNumberOption } from '../util/number-option.js';
import { progressBar } from '../util/progress-bar.js';

/** `issueloc train`: fit the learned ranker on labelled datasets and write its model file. */
export function registerTrainCommand(program: Command): void {
  program
    .command('train')
    .description('fit the learned ranker (LambdaMART trees or a linear model by coordinate ascent) on labelled issues and write model.json')
    .requiredOption('--dataset <file...>', 'dataset JSONL: dataset records, SWE-bench, Loc-Bench or Tomcat rows (repeatable)')
    .requiredOption('-o, --output <file>', 'model file to write')
    .option('--repo-root <dir>', 'folder of repository mirrors (OWNER+NAME/repo or swe-bench+OWNER__NAME/repo)', '.')
    .option('--cache-dir <dir>', 'root of the index and history caches (one folder per repository)', join(homedir(), '.cache', 'issueloc', 'train'))
    .option('--features-cache <dir>', 'cache of extracted candidate features (reused across runs)')
    .option('--repos <list>', 'only these repositories (owner/name, comma-separated)')
    .option('--exclude-repos <list>', 'leave these repositories out (owner/name, comma-separated)')
    .option('--created-before <date>', 'only issues reported before this date (ISO 8601; a temporal split)')
    .option('--learner <name>', `${LEARNERS.join(' or ')}`, DEFAULT_LEARNER)
    .option('--objective <spec>', 'what coordinate ascent maximises (LambdaMART: reported only), level:metric[=weight],… (levels file/module/function)', DEFAULT_OBJECTIVE)
    .option('--features <list>', `features the model may use (default all: ${FEATURES.join(',')})`)
    .option('--exclude-features <list>', 'features the model may not use')
    .option('--level-objective <level=spec...>', 'coordinate ascent: an own model for ranking files or modules, e.g. file=file:MAP (repeatable)')
    .option('--level-features <level=list...>', "coordinate ascent: features of a level's own model, e.g. file=pipeline,fileBm25f")
    .option('--depth <n>', 'candidates reranked per issue', wholeOption('--depth', 1), DEFAULT_CANDIDATES.depth)
    .option('--restarts <n>', 'coordinate ascent: random restarts', wholeOption('--restarts', 0, 1000), 2)
    .option('--bags <n>', 'coordinate ascent: bootstrap bags averaged (1 = plain coordinate ascent)', wholeOption('--bags', 1, 1000), 1)
    .option('--seed <n>', 'coordinate ascent: random seed', wholeOption('--seed', 0, 2 ** 32 - 1), 1)
    .option('--trees <n>', `LambdaMART: boosting rounds (default ${LAMBDAMART_DEFAULTS.trees})`, wholeOption('--trees', 0, 100_000))
    .option('--tree-depth <n>', `LambdaMART: depth of each tree (default ${LAMBDAMART_DEFAULTS.maxDepth})`, wholeOption('--tree-depth', 1, 30))
    .option('--learning-rate <x>', `LambdaMART: shrinkage of each tree (default ${LAMBDAMART_DEFAULTS.learningRate})`, (v) => parseNumberOption(v, '--learning-rate', { min: 0, aboveMin: true }))
    .option('--min-leaf <n>', `LambdaMART: fewest candidates per leaf (default ${LAMBDAMART_DEFAULTS.minLeaf})`, wholeOption('--min-leaf', 1))
    .option('--level-trees <list>', 'LambdaMART: levels with own trees, fitted on their labels (file, module, file,module; none: the function trees rank every level)', 'none')
    .option('--no-history', 'no git-history features')
    .option('--similar-issues', "SimiScore over each dataset's earlier issues (needs report dates)")
    .option('--no-progress', 'no progress bar on stderr')
    .action(async (o) => {
      parseObjective(o.objective);
      const features = featureList(o.features, o.excludeFeatures);
      const levels = levelModels(o.levelObjective ?? [], o.levelFeatures ?? []);
      const levelTrees = levelList(o.levelTrees);
      const learner = learnerOf(o);
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
      const { model, value, initialValue } = fitModel(queries, {
        learner, objective: o.objective, features, levels, restarts: o.restarts, bags: o.bags, seed: o.seed, candidates, levelTrees,
        lambdamart: { trees: o.trees, maxDepth: o.treeDepth, learningRate: o.learningRate, minLeaf: o.minLeaf },
        training: {
          datasets: sources, history: o.history, similarIssues: o.similarIssues === true,
          repos: [...new Set(queries.map((q) => q.repo))].sort(),
          issueIds: queries.map((q) => q.id),
        },
      });
      model.save(o.output);
      process.stderr.write(`trained ${learner} on ${queries.length} issues in ${((performance.now() - t0) / 1000).toFixed(1)} s: ` +
        `${o.objective} ${initialValue.toFixed(4)} (pipeline alone) -> ${value.toFixed(4)}\n`);
      process.stdout.write(`${o.output}\n`);
    });
}

/** `--learner`, checked against the options only the other learner takes. */
function learnerOf(o: Record<string, unknown>): Learner {
  const learner = o.learner as Learner;
  if (!LEARNERS.includes(learner)) throw new IssuelocError(`--learner takes ${LEARNERS.join(' or ')}, got '${String(o.learner)}'`);
  const onlyFor: [string, string, Learner][] = [
    ['trees', '--trees', 'lambdamart'], ['treeDepth', '--tree-depth', 'lambdamart'], ['learningRate', '--learning-rate', 'lambdamart'],
    ['minLeaf', '--min-leaf', 'lambdamart'], ['levelObjective', '--level-objective', 'coordinate-ascent'],
  ];
  for (const [key, flag, owner] of onlyFor) {
    if (o[key] !== undefined && owner !== learner) throw new IssuelocError(`${flag} applies to --learner ${owner} only`);
  }
  return learner;
}

/** `--level-trees file,module` (or `none`) → the levels given own trees. */
function levelList(arg: string): OwnLevel[] {
  if (arg === 'none') return [];
  return arg.split(',').map((x) => x.trim()).filter(Boolean).map((x) => {
    if (x !== 'file' && x !== 'module') throw new IssuelocError(`--level-trees takes file, module or none, got '${x}'`);
    return x;
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
