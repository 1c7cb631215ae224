import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { createRequire } from 'node:module';
import type CliTable from 'cli-table3';
import { cacheMaxBytes } from '../index/cache-usage.js';
import type { Localization } from '../retrieve/rollup.js';
import { checkIssueText, openLocalizer } from '../pipeline/localizer.js';
import { LEVELS, levelsOf, localizeJson, nothingShown, plural, type Level } from '../pipeline/result-json.js';
import type { RankedItem } from '../retrieve/rollup.js';
import { DEFAULT_MAX_ISSUE_BYTES, readIssueInput } from './issue-input.js';
import { SINGLE_ISSUE_FORMATS } from '../issues/single-issue.js';
import { MAX_ISSUE_FILE_BYTES } from '../issues/read-text.js';
import type { IssueSignals } from '../text/issue-signals.js';
import { rankingOptions, indexOptions, parseIndexSettings, wholeOption } from './options.js';
import { parseRankingOptions } from '../retrieve/ranking-spec.js';
import { progressBar } from '../util/progress-bar.js';
import { restoreHeapGrowth } from './heap-growth.js';
import { flexibleWidths, MAX_EVIDENCE_CHARS, printable, shorten, tableWidth, wrapWords } from './table-layout.js';
import { rerankSummary, retrievalOptions, stageSettings } from './retrieval-options.js';

/** `issueloc localize`: rank files, modules and functions for an issue. */
export function registerLocalizeCommand(program: Command): void {
  const cmd = program
    .command('localize')
    .description('rank the files, modules and functions most likely to need change for an issue')
    .option('--repo <path>', 'git repository (work tree or bare)', '.')
    .option('--rev <rev>', 'base commit to search (any git revision)', 'HEAD')
    .option('--issue <text>', 'the issue text')
    .option('--issue-file <path>', 'file holding the issue text ("-" for stdin)')
    .addOption(new Option('--issue-format <format>', 'the issue as plain text, or JSON of a GitHub issue (gh issue view --json title,body) or a Jira REST issue; auto tells them apart').choices([...SINGLE_ISSUE_FORMATS]).default('auto'))
    .option('--max-issue-bytes <n>', 'refuse an issue text longer than this many bytes (1 MiB by default)', wholeOption('--max-issue-bytes', 1, MAX_ISSUE_FILE_BYTES), DEFAULT_MAX_ISSUE_BYTES)
    .addOption(new Option('--level <level>', 'which rankings to show').choices([...LEVELS, 'all']).default('all'))
    .option('--top <n>', 'items per level (a larger n than there are items shows them all)', wholeOption('--top', 1), 10)
    .option('--json', 'machine output: one JSON object')
    .option('--explain', 'also show which issue-text signals (stack frames, paths, names) raised each item')
    .option('--model <model>', 'the learned model that reranks the lexical candidates: "default" (the built-in one; the default unless ranking options or --embedder set up the lexical or dense stage), "none" (the lexical ranking alone), a file written by issueloc train, or "repo" / "repo@REV" (the built-in model adapted to this repository\'s history before the base commit or REV: issueloc adapt; docs/learning-to-rank.md)')
    .option('--no-progress', 'no progress bar on stderr');
  indexOptions(cmd);
  rankingOptions(cmd);
  retrievalOptions(cmd);
  cmd.action(async (o, command: Command) => {
    // every option is checked before the issue is read or anything indexed
    const settings = parseIndexSettings(o);
    const ranking = parseRankingOptions(o);
    const stages = stageSettings(o, command);
    const { text, source, warning, format } = await readIssueInput(o);
    if (warning) process.stderr.write(`issueloc: warning: ${warning}\n`);
    checkIssueText(text, { stem: settings.stem, source });
    const bars = {
      index: progressBar('indexing', o.progress), history: progressBar('reading git history', o.progress),
      embed: progressBar('embedding functions', o.progress), adapt: progressBar('adapting to past commits', o.progress),
    };
    const localizer = await openLocalizer({
      repo: o.repo, rev: o.rev, cacheDir: o.cacheDir, maxCacheBytes: cacheMaxBytes(o.cacheMaxSize), index: settings,
      ranking, model: o.model, ...stages,
      onProgress: (step, done, total) => {
        restoreHeapGrowth(); // a long step: V8's young generation may grow again (bin/issueloc.js)
        bars[step].update(done, total);
      },
      onWarning: (m) => process.stderr.write(`issueloc: warning: ${m}\n`),
    });
    try {
      const result = await localizer.localize(text, { top: o.top, format }).finally(() => { for (const bar of Object.values(bars)) bar.stop(); });
      if (result.rerank) process.stderr.write(`issueloc: ${rerankSummary(result.rerank)}\n`);
      const levels = levelsOf(o.level);
      if (o.json) process.stdout.write(`${JSON.stringify(localizeJson(result, resolve(o.repo), o.level, localizer.embedderInfo, Boolean(o.explain)))}\n`);
      // the same rule in both modes: exit 0 when any level shown ranks anything
      const shown = levels.some((l) => result[plural(l)].length > 0);
      if (!o.json && shown) {
        printText(result, levels, result.commit, Boolean(o.explain));
        if (result.stages.includes('model')) process.stdout.write(`\n${wrapWords(MODEL_SCORES_NOTE, tableWidth())}\n`);
        if (o.explain) printSignals(result.signals);
      }
      if (!shown) {
        process.stderr.write(`issueloc: ${nothingShown(result, levels)}\n`);
        process.exitCode = 1;
      }
    } finally {
      await localizer.close();
    }
  });
}

/**
 * The ranking tables, fitted to {@link tableWidth}: each item with its lines (`start-end`) and its
 * matched terms, wrapped at spaces (both below the item, beside its signals, when long ids leave
 * the terms less than 20 columns); with `explain`, the
 * signals of an item go on a row of their own below it, one line each, the evidence shortened to
 * at most {@link MAX_EVIDENCE_CHARS} characters (`--json` keeps it whole). Ids are never cut;
 * control characters of ids and evidence (a file name with a newline or an escape sequence) are
 * escaped ({@link printable}).
 */
function printText(result: Localization, levels: Level[], commit: string, explain: boolean): void {
  process.stdout.write(`base commit ${commit.slice(0, 12)}\n`);
  // loaded for the tables alone (`--json` needs none)
  const Table = createRequire(import.meta.url)('cli-table3') as typeof CliTable;
  const width = tableWidth();
  for (const l of levels) {
    const items: RankedItem[] = result[plural(l)];
    if (items.length === 0) {
      // files of top-level code only rank as files, never as modules or functions
      process.stdout.write(`\n${plural(l)}\n(no ${l} matched)\n`);
      continue;
    }
    const terms = items.map((it) => termsCell(it, explain));
    const head = ['#', 'score', l, 'lines', 'matched issue terms'];
    const rows = items.map((it, i) => [String(i + 1), it.score.toFixed(2), printable(it.id), linesOf(it), terms[i]]);
    const termsWidth = flexibleWidths([head, ...rows], [{ col: 4, min: 0 }], width).get(4)!;
    // long ids leave the terms less than 20 columns: they go below the item, with its lines
    const below = termsWidth < Math.min(20, Math.max(...rows.map((r) => r[4].length)));
    // the row below an item spans all but its first column: the room inside the borders
    const room = width - String(items.length).length - 7;
    // below: the id column takes the room the notes span (cli-table3 would widen the score's)
    const scoreWidth = Math.max(...[head, ...rows].map((r) => r[1].length)) + 2;
    const idWidth = Math.max(...[head, ...rows].map((r) => [...r[2]].length)) + 2;
    const colWidths = below ? [String(items.length).length + 2, scoreWidth, Math.max(idWidth, room + 1 - scoreWidth)] : [];
    const table = new Table({ head: below ? head.slice(0, 3) : head, colWidths, style: { head: [], border: [] } });
    items.forEach((it, i) => {
      const [rank, score, id, lines] = rows[i];
      table.push(below ? [rank, score, id] : [rank, score, id, lines, wrapWords(terms[i], termsWidth)]);
      const notes = (explain ? it.signals ?? [] : []).map((name, k) => {
        const evidence = it.evidence?.[k];
        return evidence ? `${name} (${shorten(printable(evidence), Math.max(12, Math.min(MAX_EVIDENCE_CHARS, room - name.length - 3)))})` : name;
      });
      if (below) {
        const first = [lines && `lines ${lines}`, terms[i] && `matched: ${terms[i]}`].filter(Boolean).join('; ');
        if (first) notes.unshift(wrapWords(first, room));
      }
      if (notes.length > 0) table.push(['', { colSpan: below ? 2 : 4, content: notes.join('\n') }]);
    });
    process.stdout.write(`\n${plural(l)}\n${table.toString()}\n`);
  }
}

/** What the text output says below the tables when the learned model ranked them (as the web page does). */
export const MODEL_SCORES_NOTE = 'scores: the model\'s raw scores; only their order means something (they can be negative)';

/**
 * An item's matched terms as the table shows them; an item that matched none (placed by a
 * signal: a co-change, a path in the issue) names its signals instead, pointing at `--explain`
 * unless the signals' own row already says why.
 */
export function termsCell(it: RankedItem, explain: boolean): string {
  const terms = it.matchedTerms ?? [];
  if (terms.length > 0 || explain || !it.signals?.length) return terms.join(' ');
  return `(no term; raised by ${it.signals.join(', ')}: --explain says why)`;
}

/** An item's lines as the table shows them: `start-end`, `start` for one line, empty when unknown. */
function linesOf(it: RankedItem): string {
  if (it.startLine === undefined || it.endLine === undefined) return '';
  return it.startLine === it.endLine ? String(it.startLine) : `${it.startLine}-${it.endLine}`;
}

/**
 * `--explain`: what the issue text was read as, the evidence behind the signal names of the
 * tables (frameFile/frameFunction: stack frames; mentionedFile/mentionedUnit: paths and dotted
 * names; namedFunction: names written as calls or inline code). At most 8 of each, each shortened
 * to {@link MAX_EVIDENCE_CHARS} characters, the lists wrapped to {@link tableWidth}.
 */
function printSignals(s: IssueSignals): void {
  const indent = ' '.repeat(18);
  const width = Math.max(40, tableWidth() - indent.length);
  const cap = (xs: string[]) => {
    const shown = xs.slice(0, 8).map((x) => shorten(printable(x)));
    const line = (xs.length > 8 ? `${shown.join(', ')}, … (${xs.length})` : shown.join(', ')) || '–';
    return wrapWords(line, width).split('\n').join(`\n${indent}`);
  };
  const frames = s.frames.map((f) => [f.file, f.line, f.function].filter((x) => x !== undefined).join(':'));
  process.stdout.write('\nissue read as (signals)\n' +
    `  stack frames:   ${cap(frames)}\n` +
    `  paths:          ${cap(s.filePaths)}\n` +
    `  dotted names:   ${cap([...s.dottedNames, ...s.scopedNames])}\n` +
    `  names in code:  ${cap([...new Set([...s.calledNames, ...s.inlineCode])])}\n`);
}
