/**
 * bench/lite-failures: why a model misses on SWE-bench Lite. Ranks every Lite issue with a model
 * (default: the built-in one), takes the issues whose gold file is not in the top 5 (file misses)
 * and those whose gold functions are not in the top 10 (function misses), and gives each miss
 * its causes, read off the issue, the gold patch and the ranking (rules below), with the first
 * cause in that order as its primary cause.
 *
 *   node dist/bench/lite-failures.js [--data FILE] [--model model.json] [--mirrors DIR]
 *       [--cache-dir DIR] [--features-cache DIR] [--placements] [--out misses.json] [--before misses.json]
 *
 * `--placements` ranks as issueloc's default does: the model, then the placement rules
 * (src/retrieve/placements.ts).
 *
 * Causes, in order of precedence:
 * - `not in the corpus`: a gold file is a test, documentation or non-Python file (the corpus
 *   holds non-test Python files only), so it cannot be ranked;
 * - `multi-file` / `multi-function`: the patch edits more than one file (function level: more
 *   than one existing function);
 * - `new code`: the patch adds a def or class (the gold, existing functions only, is what the
 *   fix had to touch besides it);
 * - `vocabulary mismatch`: a gold function is not among the model's candidates (the lexical
 *   pipeline's top 200: the issue's words barely reach its code);
 * - `ranking tie`: a gold item scores exactly as the item at the cut-off (rank 5 or 10);
 * - `gold named nowhere`: no gold file is named in the issue (path, file name or dotted module),
 *   and at the function level no gold function's name occurs as a word;
 * - `near miss`: the gold item is at rank 6–10 (file) or 11–20 (function);
 * - `outranked`: none of the above.
 *
 * `--out` writes the per-issue misses (JSON); `--before` reads such a file from an earlier run and
 * prints which issues moved in or out of the misses.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { benchArgs } from './lib/args.js';
import { readLabelledIssues } from '../src/ltr/datasets.js';
import { forEachIssue } from '../src/ltr/labelled-issues.js';
import { FeatureCache } from '../src/ltr/feature-cache.js';
import { FeatureExtractor } from '../src/ltr/features/extract.js';
import { RankingModel, rankLevels } from '../src/ltr/model.js';
import { trainingQueryOf } from '../src/ltr/training-query.js';
import { isTestPath } from '../src/corpus/languages.js';
import { openPlacements } from '../src/retrieve/placements.js';
import { DEFAULT_TITLE_WEIGHT } from '../src/retrieve/query.js';
import { listsOf, localizationOf } from './lib/metrics-table.js';
import { MIRRORS_DIR, dataFile } from './lib/data.js';

const { values: args } = benchArgs({
  options: {
    data: { type: 'string', default: dataFile('swebench-lite/swebench_lite.jsonl') },
    model: { type: 'string', default: 'src/ltr/default-model.json' },
    placements: { type: 'boolean', default: false },
    mirrors: { type: 'string', default: MIRRORS_DIR },
    'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
    'features-cache': { type: 'string', default: '/tmp/issueloc-ltr-features' },
    out: { type: 'string' },
    before: { type: 'string' },
  },
});

export const CAUSES = ['not in the corpus', 'multi-file', 'multi-function', 'new code', 'vocabulary mismatch', 'ranking tie', 'gold named nowhere', 'near miss', 'outranked'] as const;
type Cause = (typeof CAUSES)[number];
type MissLevel = 'file' | 'function';
const CUT: Record<MissLevel, number> = { file: 5, function: 10 };

/** One missed issue at one level. */
interface Miss { id: string; repo: string; level: MissLevel; rank: number | null; causes: Cause[]; primary: Cause }

/** Whether the issue text names `path` (the path, its file name, or its dotted module). */
function namesFile(text: string, path: string): boolean {
  const name = path.split('/').pop()!;
  const dotted = path.replace(/\.py$/, '').replace(/\/__init__$/, '').replace(/\//g, '.');
  const stripped = dotted.replace(/^(lib|src)\./, '');
  return text.includes(path) || text.includes(name) || text.includes(dotted) || text.includes(stripped);
}

/** Whether the issue text has the last part of a gold function's name as a word. */
function namesFunction(text: string, fn: string): boolean {
  const name = fn.slice(fn.indexOf(':') + 1).split('.').pop()!;
  return new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[$]/g, '\\$')}([^A-Za-z0-9_]|$)`).test(text);
}

/** Whether a unified diff adds a def or a class. */
function addsCode(patch: string): boolean {
  return /^\+\s*(async\s+def|def|class)\s+\w/m.test(patch);
}

async function main() {
  const patches = new Map<string, string>();
  for (const line of readFileSync(args.data!, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { instance_id: string; patch: string };
    patches.set(r.instance_id, r.patch);
  }
  const dataset = await readLabelledIssues(args.data!, args.mirrors!);
  const model = RankingModel.load(args.model!);
  const settings = { index: dataset.indexSettings, history: true, similar: false };
  const cache = new FeatureCache(args['features-cache']!, { candidates: model.candidates, ...settings });
  const misses: Miss[] = [];
  let evaluated = 0;
  await forEachIssue(dataset.issues, { repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, indexSettings: dataset.indexSettings, history: true }, async (ctx) => {
    evaluated++;
    let q = cache.get(ctx.issue);
    if (!q) { q = trainingQueryOf(ctx, new FeatureExtractor(ctx.codeIndex, model.candidates)); cache.set(ctx.issue, q); }
    let ranked = rankLevels(q, model);
    if (args.placements) {
      // issueloc's default: the model's ranking, then the placement rules (src/retrieve/placements.ts)
      const placements = await openPlacements(ctx.repo, ctx.codeIndex, { bm25: model.candidates.ranking.bm25 });
      const loc = await placements.demote(localizationOf(ranked, placements.depth(100)), ctx.parsed);
      ranked = listsOf(placements.finish(loc, ctx.parsed.queryTerms({ stem: ctx.codeIndex.settings.stem, titleWeight: model.candidates.ranking.titleWeight ?? DEFAULT_TITLE_WEIGHT }), 100));
    }
    const { gold, text } = ctx.issue;
    const patch = patches.get(ctx.issue.id) ?? '';
    const candidates = new Set(q.ids);
    // file scores: a file's best candidate under the file scorer
    const fileScores = new Map<string, number>();
    const fs = model.scorers.file.score(q.features, q.n);
    q.paths.forEach((p, i) => fileScores.set(p, Math.max(fileScores.get(p) ?? -Infinity, fs[i])));
    const fnScores = model.scorers.function.score(q.features, q.n);
    const fnScore = new Map(q.ids.map((id, i) => [id, fnScores[i]]));
    for (const level of ['file', 'function'] as const) {
      const list = ranked[level];
      const ranks = gold[level].map((g) => { const i = list.indexOf(g); return i < 0 ? null : i + 1; });
      const worst = ranks.some((r) => r === null) ? null : Math.max(...(ranks as number[]));
      if (worst !== null && worst <= CUT[level]) continue;
      const causes: Cause[] = [];
      if (gold.file.some((f) => !f.endsWith('.py') || isTestPath(f))) causes.push('not in the corpus');
      if (level === 'file' && gold.file.length > 1) causes.push('multi-file');
      if (level === 'function' && gold.function.length > 1) causes.push('multi-function');
      if (addsCode(patch)) causes.push('new code');
      if (gold.function.some((f) => !candidates.has(f))) causes.push('vocabulary mismatch');
      const scoreOf = level === 'file' ? fileScores : fnScore;
      const cutScore = scoreOf.get(list[CUT[level] - 1]);
      if (cutScore !== undefined && gold[level].some((g, k) => (ranks[k] ?? 0) > CUT[level] && scoreOf.get(g) === cutScore)) causes.push('ranking tie');
      const named = gold.file.some((f) => namesFile(text, f)) || (level === 'function' && gold.function.some((f) => namesFunction(text, f)));
      if (!named) causes.push('gold named nowhere');
      if (worst !== null && worst <= 2 * CUT[level]) causes.push('near miss');
      if (causes.length === 0) causes.push('outranked');
      misses.push({ id: ctx.issue.id, repo: ctx.issue.repo, level, rank: worst, causes, primary: causes[0] });
    }
  });
  const rows = CAUSES.map((cause) => {
    const cells = (['file', 'function'] as const).flatMap((level) => {
      const ms = misses.filter((m) => m.level === level);
      return [ms.filter((m) => m.primary === cause).length, ms.filter((m) => m.causes.includes(cause)).length];
    });
    return `| ${cause} | ${cells.join(' | ')} |`;
  });
  const nFile = misses.filter((m) => m.level === 'file').length, nFn = misses.filter((m) => m.level === 'function').length;
  process.stdout.write(`\n${args.data}: ${evaluated} issues; model ${args.model}: ${nFile} file misses (gold file not in the top 5), ${nFn} function misses (gold functions not in the top 10), ${misses.filter((m) => m.level === 'file' && misses.some((o) => o.id === m.id && o.level === 'function')).length} both\n\n`);
  process.stdout.write('| cause | file misses: primary | file misses: any | function misses: primary | function misses: any |\n|---|---|---|---|---|\n');
  process.stdout.write(`${rows.join('\n')}\n| total | ${nFile} | | ${nFn} | |\n`);
  if (args.out) writeFileSync(args.out, JSON.stringify({ model: args.model, evaluated, misses }, null, 1));
  if (args.before) {
    const before = JSON.parse(readFileSync(args.before, 'utf8')) as { misses: Miss[] };
    const key = (m: Miss) => `${m.level} ${m.id}`;
    const was = new Map(before.misses.map((m) => [key(m), m]));
    const now = new Map(misses.map((m) => [key(m), m]));
    const fixed = [...was.values()].filter((m) => !now.has(key(m)));
    const broken = [...now.values()].filter((m) => !was.has(key(m)));
    process.stdout.write(`\nagainst ${args.before}: ${fixed.length} misses fixed, ${broken.length} new misses\n`);
    for (const m of fixed) process.stdout.write(`  fixed  ${m.level.padEnd(8)} ${m.id} (was: ${m.primary})\n`);
    for (const m of broken) process.stdout.write(`  new    ${m.level.padEnd(8)} ${m.id} (${m.primary}, rank ${m.rank ?? '–'})\n`);
  }
}

main().catch((e) => {
  process.stderr.write(`lite-failures: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 3;
});
