import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import Table from 'cli-table3';
import { IssuelocError } from '../errors.js';
import { openIndex } from '../index/open-index.js';
import type { Localization } from '../retrieve/localize.js';
import { RetrieveRerank } from '../rerank/retrieve-rerank.js';
import type { RankedItem } from '../retrieve/rollup.js';
import { readIssueText } from './issue-input.js';
import { extractIssueSignals, type IssueSignals } from '../text/issue-signals.js';
import { queryTermsOf } from '../retrieve/query.js';
import { rankingOptions, parseRankingOptions, indexOptions, parseIndexSettings } from './options.js';
import { progressBar } from './progress.js';
import { localizeWithModel } from './model-localize.js';
import { openRetrieval, rerankSummary, retrievalOptions, type OpenedRetrieval } from './retrieval-options.js';

const LEVELS = ['file', 'module', 'function'] as const;
type Level = (typeof LEVELS)[number];

/** `issueloc localize`: rank files, modules and functions for an issue. */
export function registerLocalizeCommand(program: Command): void {
  const cmd = program
    .command('localize')
    .description('rank the files, modules and functions most likely to need change for an issue')
    .option('--repo <path>', 'git repository (work tree or bare)', '.')
    .option('--rev <rev>', 'base commit to search (any git revision)', 'HEAD')
    .option('--issue <text>', 'the issue text')
    .option('--issue-file <path>', 'file holding the issue text ("-" for stdin)')
    .addOption(new Option('--level <level>', 'which rankings to show').choices([...LEVELS, 'all']).default('all'))
    .option('--top <n>', 'items per level', (v) => positiveInt(v, '--top'), 10)
    .option('--json', 'machine output: one JSON object')
    .option('--explain', 'also show which issue-text signals (stack frames, paths, names) raised each item')
    .option('--model <file>', 'rerank with a learned model: a file written by issueloc train, or "default" (docs/learning-to-rank.md)')
    .option('--no-progress', 'no progress bar on stderr');
  indexOptions(cmd);
  rankingOptions(cmd);
  retrievalOptions(cmd);
  cmd.action(async (o) => {
    const { text, source } = readIssueText(o);
    const settings = parseIndexSettings(o);
    if (queryTermsOf(text, { stem: settings.stem ?? false }).size === 0) {
      throw new IssuelocError(`issue text (from ${source}) has no searchable word: only stop words and punctuation`);
    }
    const bar = progressBar('indexing', o.progress);
    const opened = await openIndex(o.repo, { rev: o.rev, cacheDir: o.cacheDir, settings, onProgress: bar.update });
    bar.stop();
    let retrieval: OpenedRetrieval | undefined;
    try {
      const { codeIndex } = opened;
      retrieval = await openRetrieval(o, opened.cacheDir, (m) => process.stderr.write(`issueloc: ${m}\n`));
      const embedBar = progressBar('embedding functions', o.progress);
      const pipeline = await RetrieveRerank.open(opened.repo, codeIndex, { ranking: parseRankingOptions(o), ...retrieval, cacheDir: opened.cacheDir, onProgress: embedBar.update })
        .finally(embedBar.stop);
      const t0 = performance.now();
      const { localization: result, rerank } = o.model
        ? { localization: (await localizeWithModel(opened, text, o.model, o.top)).localization, rerank: undefined }
        : await pipeline.localize(text, { top: o.top, signals: extractIssueSignals(text) });
      const queryMillis = performance.now() - t0;
      if (rerank) process.stderr.write(`issueloc: ${rerankSummary(rerank)}\n`);
      const levels: Level[] = o.level === 'all' ? [...LEVELS] : [o.level];
      if (o.json) {
        const out: Record<string, unknown> = {
          repo: resolve(o.repo), commit: opened.commit, level: o.level,
          index: { built: opened.built, millis: Math.round(opened.millis), documents: codeIndex.units.length, files: codeIndex.stats.files, skipped: codeIndex.stats.skipped },
          queryMillis: Math.round(queryMillis * 100) / 100,
          ...(rerank ? { rerank } : {}),
        };
        // scores are float32 sums: 6 significant digits say all they hold
        for (const l of levels) out[plural(l)] = result[plural(l)].map((it) => ({ ...it, score: Number(it.score.toPrecision(6)) }));
        process.stdout.write(`${JSON.stringify(out)}\n`);
      } else if (result.functions.length > 0) {
        printText(result, levels, opened.commit, Boolean(o.explain));
        if (o.explain) printSignals(extractIssueSignals(text));
      }
      if (result.functions.length === 0) {
        process.stderr.write(result.matchedQueryTerms === 0
          ? 'issueloc: no word of the issue occurs in the indexed code\n'
          : 'issueloc: nothing matched\n');
        process.exitCode = 1;
      }
    } finally {
      await retrieval?.close();
      await opened.repo.close();
    }
  });
}

function plural(l: Level): 'files' | 'modules' | 'functions' {
  return `${l}s` as 'files' | 'modules' | 'functions';
}

function printText(result: Localization, levels: Level[], commit: string, explain: boolean): void {
  process.stdout.write(`base commit ${commit.slice(0, 12)}\n`);
  for (const l of levels) {
    const items: RankedItem[] = result[plural(l)];
    const head = ['#', 'score', l, 'matched issue terms', ...(explain ? ['signals'] : [])];
    const table = new Table({ head, style: { head: [], border: [] } });
    items.forEach((it, i) => table.push([
      i + 1, it.score.toFixed(2), it.id, (it.matchedTerms ?? []).join(' '),
      ...(explain ? [(it.signals ?? []).map((name, k) => (it.evidence?.[k] ? `${name} (${it.evidence[k]})` : name)).join('\n') || '–'] : []),
    ]));
    process.stdout.write(`\n${plural(l)}\n${table.toString()}\n`);
  }
}

/**
 * `--explain`: what the issue text was read as, the evidence behind the signal names of the
 * tables (frameFile/frameFunction: stack frames; mentionedFile/mentionedUnit: paths and dotted
 * names; namedFunction: names written as calls or inline code). At most 8 of each.
 */
function printSignals(s: IssueSignals): void {
  const cap = (xs: string[]) => (xs.length > 8 ? `${xs.slice(0, 8).join(', ')}, … (${xs.length})` : xs.join(', ')) || '–';
  const frames = s.frames.map((f) => [f.file, f.line, f.function].filter((x) => x !== undefined).join(':'));
  process.stdout.write('\nissue read as (signals)\n' +
    `  stack frames:   ${cap(frames)}\n` +
    `  paths:          ${cap(s.filePaths)}\n` +
    `  dotted names:   ${cap(s.dottedNames)}\n` +
    `  names in code:  ${cap([...new Set([...s.calledNames, ...s.inlineCode])])}\n`);
}

/** Parses a positive integer option or throws a one-line error naming it. */
export function positiveInt(v: string, name: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new IssuelocError(`${name} takes a positive whole number, got '${v}'`);
  return n;
}
