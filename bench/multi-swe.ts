/**
 * bench/multi-swe: file localisation on Multi-SWE-bench issues in C, C++, Go, Java, JavaScript and
 * Rust, per language and overall (docs/multi-language.md).
 *
 *   node dist/bench/multi-swe.js [--data FILE] [--mirrors DIR] [--repos a/b,c/d] [--languages c,cpp,...]
 *       [--limit N] [--cache-dir DIR] [--configs grid.json] [--model default|repo|FILE|none ...]
 *       [--no-bm25] [--bm25-files source|all] [--bm25-tests] [--files source|all] [--folds N] [--top 100] [--out per-issue.json] [--out-top 10]
 *       [--model-placement '{"peripheral": {"place": 0}, "coChange": {"rank": 0}, "nonSource": {…}}'] [--expand N] [--json]
 *
 * Systems (rows):
 * - `plain BM25 (whole files)`: our own plain BM25 on one document per file, path + content
 *   (bench/lib/whole-file-bm25.ts): the source files the code index takes (`--bm25-files source`,
 *   the default), or every text file, CHANGELOG.md, Cargo.toml … too (`--bm25-files all`); test
 *   files left out unless `--bm25-tests`;
 * - `issueloc default`: the lexical pipeline with the library defaults (src/retrieve/localize.ts),
 *   over the default index (every language, tests left out), as `openLocalizer` with no stage;
 *   `--configs` replaces it with a JSON list of {"name", ...RankingOptions}, all ranked on the
 *   same loaded index of each base commit; `--files all` indexes the non-source files too
 *   (`index.files`) and places them into each lexical and model ranking as `openLocalizer` does
 *   (`ranking.nonSource` of a config sets the placement; src/retrieve/non-source.ts);
 * - `model default` (`--model default`, and every further `--model`): the learned model with history evidence
 *   (the repository's git history before the base commit, read once per repository and cached),
 *   as `openLocalizer({ model })`; `--model none` leaves the row out; `--expand N` adds to its
 *   candidates the best function of each file imported by or importing the files of its best N
 *   candidates (the code graph, src/graph/; `FeatureOptions.expand`);
 * - `model repo` (`--model repo`): the built-in model adapted to each repository's own commit
 *   history (src/ltr/adapted-models.ts, as `issueloc adapt`), once per repository at the merge
 *   base of its evaluated issues' base commits (an ancestor of all of them: no evaluated issue's
 *   fix, nor anything after it, is learned from); the adapted models are cached under
 *   `--cache-dir`.
 *
 * Protocol (the data folder's README.md): query = `problem_statement`; gold = `gold_files` (paths
 * the fix changes that exist at the base commit, test paths left out), non-source files included:
 * a system that cannot rank them misses them. All-gold Acc@k (every gold file in the top k,
 * strictly) and MRR (first gold file; 0 when none is in the top `--top`, default 100).
 *
 * Prints the Markdown table of each system per language and overall (and per fold of
 * repositories with `--folds N`: repositories by issue count, each to the emptiest fold, for
 * tuning by folds); `--json` prints one line {data, evaluated, skipped, keys, systems, rows:
 * [{system, group, issues, values}]}; `--out` writes per issue the gold files, their ranks and
 * the top 10 (`--out-top`) of each system, and the gold files the code index has no document for.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { IssuelocError } from '../src/errors.js';
import type { CodeIndex } from '../src/index/code-index.js';
import { forEachIssue, type LabelledIssue } from '../src/ltr/labelled-issues.js';
import { ModelRanker, readsGraph } from '../src/ltr/model-ranker.js';
import { RankingModel } from '../src/ltr/model.js';
import { GitRepo } from '../src/repo/git.js';
import { mirrorPath } from '../src/repo/mirrors.js';
import { checkLocalizerOptions } from '../src/pipeline/check-options.js';
import { DEFAULT_RANKING, Localizer, type RankingOptions } from '../src/retrieve/localize.js';
import { openPlacements, type PlacementOptions, type Placements } from '../src/retrieve/placements.js';
import { progressBar } from '../src/util/progress-bar.js';
import { ALL_GOLD_KEYS, allGoldMetrics, goldRanks } from './lib/all-gold.js';
import { readInstances, type IssueOutcome } from './lib/multi-swe-data.js';
import { dataFile, MIRRORS_DIR } from './lib/data.js';
import { repositoryFolds } from './lib/folds.js';
import { adaptPerRepository } from './lib/adapt-anchors.js';
import { WholeFileBm25 } from './lib/whole-file-bm25.js';

const KEYS = ALL_GOLD_KEYS;

const OPTIONS = {
  data: { type: 'string', default: dataFile('multi-swe/multi-swe-dev.jsonl') },
  mirrors: { type: 'string', default: MIRRORS_DIR },
  repos: { type: 'string' },
  languages: { type: 'string' },
  limit: { type: 'string' },
  'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
  configs: { type: 'string' },
  model: { type: 'string', multiple: true, default: ['default'] },
  'no-bm25': { type: 'boolean', default: false },
  'bm25-tests': { type: 'boolean', default: false },
  'bm25-files': { type: 'string', default: 'source' },
  files: { type: 'string', default: 'source' },
  folds: { type: 'string' },
  top: { type: 'string', default: '100' },
  out: { type: 'string' },
  'out-top': { type: 'string', default: '10' },
  'model-placement': { type: 'string' },
  expand: { type: 'string', default: '0' },
  json: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

/** The options, parsed in main() so that a bad option is a usage error (exit 2), not a crash. */
let args: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

type System =
  | { name: string; kind: 'bm25' }
  | { name: string; kind: 'lexical'; ranking: RankingOptions }
  /** `perIssue`: `--model repo`'s models adapted per repository, by issue id (bench/lib/adapt-anchors.ts); `model` ranks the others. */
  | { name: string; kind: 'model'; model: RankingModel; perIssue?: Map<string, RankingModel> };

function positiveInt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new IssuelocError(`--${name}: expected a positive integer, got '${v}'`);
  return n;
}

/** The placement rules of the model systems (`--model-placement JSON`; default: each rule's default). */
let modelPlacement: PlacementOptions = {};

function placementOf(json: string | undefined): PlacementOptions {
  if (json === undefined) return {};
  try {
    const p = JSON.parse(json) as PlacementOptions;
    checkLocalizerOptions({ repo: '.', ranking: p });
    return p;
  } catch (e) {
    throw new IssuelocError(`--model-placement: ${(e as Error).message}`);
  }
}

function systemsOf(): System[] {
  const systems: System[] = [];
  if (!args['no-bm25']) systems.push({ name: args['bm25-files'] === 'all' ? 'plain BM25 (whole files, every text file)' : 'plain BM25 (whole source files)', kind: 'bm25' });
  let configs: (RankingOptions & { name: string })[] = [{ name: 'issueloc default' }];
  if (args.configs) {
    try {
      configs = JSON.parse(readFileSync(args.configs, 'utf8'));
    } catch (e) {
      throw new IssuelocError(`--configs ${args.configs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  if (!Array.isArray(configs) || configs.some((c) => typeof c?.name !== 'string')) throw new IssuelocError(`--configs ${args.configs}: expected a JSON list of {"name", ...ranking options}`);
  for (const { name, ...ranking } of configs) {
    try {
      checkLocalizerOptions({ repo: '.', ranking }); // the library's checks: unknown keys, bad values
    } catch (e) {
      throw new IssuelocError(`--configs ${args.configs}: '${name}': ${(e as Error).message}`);
    }
    systems.push({ name, kind: 'lexical', ranking });
  }
  for (const spec of args.model!.filter((m) => m !== 'none')) {
    if (spec === 'repo') systems.push({ name: 'model repo (adapted per repository)', kind: 'model', model: RankingModel.load('default'), perIssue: new Map() });
    else systems.push({ name: `model ${spec}`, kind: 'model', model: RankingModel.load(spec) });
  }
  return systems;
}

async function main() {
  try {
    args = parseArgs({ options: OPTIONS }).values;
  } catch (e) {
    throw new IssuelocError((e as Error).message);
  }
  const systems = systemsOf();
  const folds = positiveInt('folds', args.folds);
  if (args['bm25-files'] !== 'source' && args['bm25-files'] !== 'all') throw new IssuelocError(`--bm25-files: expected source or all, got '${args['bm25-files']}'`);
  if (args.files !== 'source' && args.files !== 'all') throw new IssuelocError(`--files: expected source or all, got '${args.files}'`);
  const top = positiveInt('top', args.top)!;
  const limit = positiveInt('limit', args.limit) ?? Infinity;
  const outTop = positiveInt('out-top', args['out-top'])!;
  modelPlacement = placementOf(args['model-placement']);
  const wantedRepos = args.repos ? new Set(args.repos.split(',')) : undefined;
  const wantedLanguages = args.languages ? new Set(args.languages.split(',')) : undefined;
  const perRepo = new Map<string, number>();
  const instances = readInstances(args.data!).filter((r) => {
    if ((wantedRepos && !wantedRepos.has(r.repo)) || (wantedLanguages && !wantedLanguages.has(r.language))) return false;
    perRepo.set(r.repo, (perRepo.get(r.repo) ?? 0) + 1);
    return perRepo.get(r.repo)! <= limit;
  });
  const byId = new Map(instances.map((r) => [r.instance_id, r]));
  const issues: LabelledIssue[] = instances.map((r) => ({
    id: r.instance_id, repo: r.repo, commit: r.base_commit, text: r.problem_statement, created: NaN,
    gold: { file: r.gold_files, module: [], function: [] },
  }));
  const adaptInfo: string[] = [];
  for (const s of systems) {
    if (s.kind !== 'model' || !s.perIssue) continue;
    const got = await adaptPerRepository(issues, { mirrors: args.mirrors!, cacheDir: args['cache-dir']!, index: {}, progress: !args.json, name: 'multi-swe' });
    s.perIssue = got.models;
    adaptInfo.push(...got.info);
  }
  const outcomes: IssueOutcome[] = [];
  const skipped: string[] = [];
  const bar = progressBar('multi-swe', !args.json);
  const history = systems.some((s) => s.kind === 'model' && s.model.file.training?.history !== false);
  // per repository: its whole-file BM25 (blob cache); per base commit: the rankers built on its index
  let bm25: { repo: string; git: GitRepo; ranker: WholeFileBm25 } | undefined;
  let atCommit: { index: CodeIndex; rankers: (Localizer | ModelRanker | undefined)[]; placers: (Placements | undefined)[] } | undefined;
  try {
    await forEachIssue(issues, {
      repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, history, indexSettings: { files: args.files as 'source' | 'all' },
      onSkip: (i, reason) => skipped.push(`${i.id}: ${reason}`),
      onProgress: bar.update,
    }, async (ctx) => {
      const inst = byId.get(ctx.issue.id)!;
      if (!args['no-bm25'] && bm25?.repo !== inst.repo) {
        await bm25?.git.close();
        const git = await GitRepo.open(mirrorPath(args.mirrors!, inst.repo)!);
        bm25 = { repo: inst.repo, git, ranker: new WholeFileBm25(git, { includeTests: args['bm25-tests'], files: args['bm25-files'] as 'source' | 'all' }) };
      }
      if (atCommit?.index !== ctx.codeIndex) {
        const placers: (Placements | undefined)[] = [];
        for (const s of systems) {
          const ranking = s.kind === 'lexical' ? s.ranking : s.kind === 'model' ? s.model.candidates.ranking : undefined;
          const placement: PlacementOptions = s.kind === 'model' ? modelPlacement : { nonSource: ranking?.nonSource, peripheral: ranking?.peripheral, coChange: ranking?.coChange };
          placers.push(ranking ? await openPlacements(ctx.repo, ctx.codeIndex, {
            bm25: { ...DEFAULT_RANKING.bm25, ...ranking.bm25, ...ranking.fileBm25 }, ...placement,
          }) : undefined);
        }
        // the code graph for candidate expansion (--expand) and for models reading its features
        const expand = Number(args.expand);
        const graphOptions = expand > 0 || systems.some((s) => s.kind === 'model' && readsGraph(s.model)) ? { graph: await ctx.graph(), expand } : {};
        atCommit = {
          index: ctx.codeIndex,
          rankers: systems.map((s) => (s.kind === 'lexical' ? new Localizer(ctx.codeIndex, s.ranking)
            : s.kind === 'model' ? new ModelRanker(ctx.codeIndex, s.perIssue?.get(inst.instance_id) ?? s.model, graphOptions) : undefined)),
          placers,
        };
      }
      const gold = inst.gold_files;
      const indexed = new Set([...ctx.codeIndex.filePaths, ...(ctx.codeIndex.nonSource?.paths ?? [])]);
      const outcome: IssueOutcome = {
        id: inst.instance_id, repo: inst.repo, language: inst.language, gold,
        notIndexed: gold.filter((g) => !indexed.has(g)), values: [], ranks: [], top: [],
      };
      for (const [s, system] of systems.entries()) {
        let ranked: string[];
        const ranker = atCommit.rankers[s];
        const placer = atCommit.placers[s];
        if (system.kind === 'bm25') ranked = await bm25!.ranker.rank(ctx.commit, inst.problem_statement);
        else if (ranker instanceof ModelRanker) {
          const loc = ranker.localize(ctx.parsed, history ? ctx.history() : {}, { top: placer!.depth(top), matchedTermsPerItem: 0 });
          ranked = placer!.finish(await placer!.demote(loc, ctx.parsed), ranker.extractor.localizer.queryOf(ctx.parsed), top).files.map((f) => f.id);
        } else {
          const localizer = ranker as Localizer;
          const query = localizer.queryOf(ctx.parsed);
          const loc = localizer.localize(query, { top: placer!.depth(top), matchedTermsPerItem: 0, signals: ctx.parsed.signals });
          ranked = placer!.finish(await placer!.demote(loc, ctx.parsed), query, top).files.map((f) => f.id);
        }
        ranked = ranked.slice(0, top);
        const ranks = goldRanks(ranked, gold);
        outcome.values.push(allGoldMetrics(ranks));
        outcome.ranks.push(ranks);
        outcome.top.push(ranked.slice(0, outTop));
      }
      outcomes.push(outcome);
    });
  } finally {
    bar.stop();
    await bm25?.git.close();
  }
  for (const s of skipped) process.stderr.write(`multi-swe: warning: skipped ${s}\n`);

  const groups: { group: string; issues: IssueOutcome[] }[] = [{ group: 'all', issues: outcomes }];
  for (const language of [...new Set(outcomes.map((o) => o.language))].sort()) groups.push({ group: language, issues: outcomes.filter((o) => o.language === language) });
  if (folds) {
    repositoryFolds(outcomes, folds).forEach((fold, f) => groups.push({ group: `fold ${f + 1} (${[...new Set(fold.map((o) => o.repo))].join(', ')})`, issues: fold }));
  }
  const rows = groups.flatMap(({ group, issues: list }) => systems.map((system, s) => ({
    system: system.name, group, issues: list.length,
    values: KEYS.map((k) => {
      const m = list.reduce((sum, o) => sum + o.values[s][k], 0) / list.length;
      return k === 'MRR' ? m : 100 * m;
    }),
  })));
  if (args.out) writeFileSync(args.out, `${JSON.stringify({ systems: systems.map((s) => s.name), keys: KEYS, outcomes }, null, 1)}\n`);
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ data: args.data, evaluated: outcomes.length, skipped: skipped.length, keys: KEYS, systems: systems.map((s) => s.name), rows, adapted: adaptInfo })}\n`);
    return;
  }
  const nonSource = outcomes.filter((o) => o.notIndexed.length > 0).length;
  process.stdout.write(`\n${args.data}: ${outcomes.length} issues evaluated (${skipped.length} skipped); ${nonSource} have a gold file the code index has no document for\n\n`);
  if (adaptInfo.length > 0) process.stdout.write(`${adaptInfo.join('\n')}\n\n`);
  process.stdout.write('| group | issues | system | file Acc@1 / 3 / 5 / 10 | MRR |\n|---|---|---|---|---|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.group} | ${r.issues} | ${r.system} | ${r.values.slice(0, 4).map((v) => v.toFixed(1)).join(' / ')} | ${r.values[4].toFixed(3)} |\n`);
  }
}

main().catch((e) => {
  process.stderr.write(e instanceof IssuelocError ? `multi-swe: ${e.message}\n` : `multi-swe: internal error: ${(e as Error).stack ?? e}\n`);
  process.exitCode = e instanceof IssuelocError ? 2 : 3;
});
