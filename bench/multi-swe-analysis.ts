/**
 * bench/multi-swe-analysis: why gold files miss the top k on the multi-language dev set, per
 * language (docs/multi-language.md). Reads the per-issue results of bench/multi-swe (`--out`) and the
 * code index of each base commit (from the cache bench/multi-swe filled: same `--cache-dir`).
 *
 *   node dist/bench/multi-swe.js --out /tmp/ms.json
 *   node dist/bench/multi-swe-analysis.js --results /tmp/ms.json [--system 'issueloc default'] [--k 5]
 *       [--data FILE] [--mirrors DIR] [--cache-dir DIR] [--examples 3] [--json]
 *
 * Each missed gold file (not in the system's top k, in an issue that fails all-gold Acc@k) gets
 * one cause (bench/lib/miss-causes.ts); each missed issue gets the flags of its text (qualified
 * mentions, stack traces; with whether the signal extractor found frames). Prints a table of
 * causes by language, a table of flags, and a few examples per language and cause.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { languageOf } from '../src/corpus/languages.js';
import { parsePatch, type FilePatch } from '../src/dataset/patch.js';
import { IssuelocError } from '../src/errors.js';
import { forEachIssue, type LabelledIssue } from '../src/ltr/labelled-issues.js';
import { readInstances, readOutcomes } from './lib/multi-swe-data.js';
import { dataFile, MIRRORS_DIR } from './lib/data.js';
import { MISS_CAUSES, missCause, textFlags, TEXT_FLAGS, type MissCause, type TextFlag } from './lib/miss-causes.js';

const OPTIONS = {
  results: { type: 'string' },
  system: { type: 'string', default: 'issueloc default' },
  k: { type: 'string', default: '5' },
  data: { type: 'string', default: dataFile('multi-swe/multi-swe-dev.jsonl') },
  mirrors: { type: 'string', default: MIRRORS_DIR },
  'cache-dir': { type: 'string', default: '/tmp/issueloc-bench-cache' },
  examples: { type: 'string', default: '3' },
  json: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

/** The options, parsed in main() so that a bad option is a usage error (exit 2), not a crash. */
let args: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];


/** Old-side lines a file patch changes: removed lines, and the line each insertion follows. */
function changedOldLines(fp: FilePatch): number[] {
  const out: number[] = [];
  for (const h of fp.hunks) {
    let old = h.oldStart;
    for (const l of h.lines) {
      if (l.tag === '-') out.push(old++);
      else if (l.tag === ' ') old++;
      else out.push(Math.max(1, old - 1));
    }
  }
  return out;
}

async function main() {
  try {
    args = parseArgs({ options: OPTIONS }).values;
  } catch (e) {
    throw new IssuelocError((e as Error).message);
  }
  if (!args.results) throw new IssuelocError('--results: give the per-issue file of bench/multi-swe --out');
  const k = Number(args.k);
  if (!Number.isInteger(k) || k < 1) throw new IssuelocError(`--k: expected a positive integer, got '${args.k}'`);
  const results = readOutcomes(args.results);
  const s = results.systems.indexOf(args.system!);
  if (s < 0) throw new IssuelocError(`--system '${args.system}' is not in ${args.results} (${results.systems.join(', ')})`);
  const instances = new Map(readInstances(args.data!).map((r) => [r.instance_id, r]));
  const missed = results.outcomes.filter((o) => o.ranks[s].some((r) => r === null || r > k));
  const issues: LabelledIssue[] = missed.map((o) => {
    const inst = instances.get(o.id);
    if (!inst) throw new IssuelocError(`${args.results}: issue ${o.id} is not in --data ${args.data}`);
    return { id: o.id, repo: o.repo, commit: inst.base_commit, text: inst.problem_statement, created: NaN, gold: { file: o.gold, module: [], function: [] } };
  });
  const byId = new Map(missed.map((o) => [o.id, o]));
  const misses: { id: string; language: string; path: string; rank: number | null; cause: MissCause }[] = [];
  const flags: { id: string; language: string; flags: TextFlag[]; frames: number }[] = [];
  await forEachIssue(issues, { repoRoot: args.mirrors!, cacheRoot: args['cache-dir']!, history: false }, (ctx) => {
    const o = byId.get(ctx.issue.id)!;
    const inst = instances.get(o.id)!;
    const patches = new Map(parsePatch(inst.patch).map((fp) => [fp.oldPath ?? fp.path, fp]));
    const { units, filePaths } = ctx.codeIndex;
    const indexed = new Set(filePaths);
    const top = o.top[s].slice(0, k);
    o.gold.forEach((path, g) => {
      const rank = o.ranks[s][g];
      if (rank !== null && rank <= k) return;
      const own = units.filter((u) => u.path === path && u.kind !== 'file');
      const fp = patches.get(path);
      const cause = missCause({
        path, rank, source: languageOf(path) !== undefined, indexed: indexed.has(path), units: own.length,
        changedLines: fp ? changedOldLines(fp) : [], unitRanges: own.map((u) => [u.startLine, u.endLine] as const),
        top, gold: o.gold, text: inst.problem_statement,
      });
      misses.push({ id: o.id, language: o.language, path, rank, cause });
    });
    flags.push({ id: o.id, language: o.language, flags: textFlags(inst.problem_statement), frames: ctx.parsed.signals.frames.length });
  });

  const languages = [...new Set(results.outcomes.map((o) => o.language))].sort();
  const cols = [...languages, 'all'];
  const inLang = <T extends { language: string }>(xs: T[], l: string) => (l === 'all' ? xs : xs.filter((x) => x.language === l));
  const accAtK = (l: string) => {
    const os = inLang(results.outcomes, l);
    return (100 * os.filter((o) => o.ranks[s].every((r) => r !== null && r <= k)).length) / os.length;
  };
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ system: args.system, k, misses, flags })}\n`);
    return;
  }
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |\n`;
  let out = `\nMisses of '${args.system}' at k = ${k} (a gold file outside the top ${k}), by language\n\n`;
  out += row(['', ...cols]) + row(['---', ...cols.map(() => '---:')]);
  out += row(['issues', ...cols.map((l) => inLang(results.outcomes, l).length)]);
  out += row([`all-gold Acc@${k}`, ...cols.map((l) => accAtK(l).toFixed(1))]);
  out += row(['issues missed', ...cols.map((l) => inLang(flags, l).length)]);
  out += row([`issues with more than ${k} gold files (unreachable)`, ...cols.map((l) => inLang(results.outcomes, l).filter((o) => o.gold.length > k).length)]);
  out += row(['gold files missed', ...cols.map((l) => inLang(misses, l).length)]);
  for (const cause of MISS_CAUSES) out += row([`– ${cause}`, ...cols.map((l) => inLang(misses, l).filter((m) => m.cause === cause).length)]);
  // per issue: an issue turns into a hit only when every one of its misses is mended
  const causesOf = new Map<string, Set<MissCause>>();
  for (const m of misses) causesOf.set(m.id, (causesOf.get(m.id) ?? new Set()).add(m.cause));
  const issueRows = (l: string) => inLang(flags, l).map((f) => causesOf.get(f.id) ?? new Set<MissCause>());
  out += `\nMissed issues by cause: with a miss of that cause / with misses of that cause only\n\n`;
  out += row(['', ...cols]) + row(['---', ...cols.map(() => '---:')]);
  for (const cause of MISS_CAUSES) {
    out += row([cause, ...cols.map((l) => { const rs = issueRows(l); return `${rs.filter((c) => c.has(cause)).length} / ${rs.filter((c) => c.size === 1 && c.has(cause)).length}`; })]);
  }
  out += `\nText of the missed issues (issues with each flag; frames = issues where the signal extractor found stack frames)\n\n`;
  out += row(['', ...cols]) + row(['---', ...cols.map(() => '---:')]);
  for (const flag of Object.keys(TEXT_FLAGS) as TextFlag[]) out += row([flag, ...cols.map((l) => inLang(flags, l).filter((f) => f.flags.includes(flag)).length)]);
  out += row(['stack trace, frames found', ...cols.map((l) => inLang(flags, l).filter((f) => f.flags.includes('stack trace') && f.frames > 0).length)]);
  out += `\nExamples (issue: gold file, rank)\n\n`;
  const n = Number(args.examples);
  for (const l of languages) {
    for (const cause of MISS_CAUSES) {
      const ms = inLang(misses, l).filter((m) => m.cause === cause);
      if (ms.length > 0) out += `- ${l}, ${cause}: ${ms.slice(0, n).map((m) => `${m.id}: ${m.path} (${m.rank ?? '–'})`).join('; ')}\n`;
    }
  }
  process.stdout.write(out);
}

main().catch((e) => {
  process.stderr.write(e instanceof IssuelocError ? `multi-swe-analysis: ${e.message}\n` : `multi-swe-analysis: internal error: ${(e as Error).stack ?? e}\n`);
  process.exitCode = e instanceof IssuelocError ? 2 : 3;
});
