/**
 * bench/multi-swe-heldout: held-out figures of ranking settings chosen by folds of repositories,
 * from the per-issue file of `bench/multi-swe --configs grid.json --out FILE` (the first system
 * of the grid is the default the others are compared with).
 *
 *   node dist/bench/multi-swe-heldout.js --results FILE [--folds 5] [--objective acc5+mrr|mrr|acc5]
 *
 * Two protocols, printed as Markdown tables of file Acc@1/3/5/10 and MRR, default against chosen:
 * - one setting for every language: for each of `--folds` folds of repositories
 *   (bench/lib/folds.ts), the setting with the best objective on the other folds, scored on the fold;
 * - a setting per language: for each repository, the setting with the best objective on the other
 *   repositories of its language (the default when the language has no other repository).
 * The objective is the mean over issues of the chosen metric(s); ties keep the earlier setting.
 * Exit codes: 0 printed, 2 bad usage or an unreadable results file.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { IssuelocError } from '../src/errors.js';
import type { IssueOutcome } from './lib/multi-swe-data.js';
import { repositoryFolds } from './lib/folds.js';

const OBJECTIVES: Record<string, string[]> = { 'acc5+mrr': ['Acc@5', 'MRR'], mrr: ['MRR'], acc5: ['Acc@5'] };

type Pick = { outcome: IssueOutcome; system: number };

function mean(list: readonly Pick[], key: string): number {
  return list.reduce((s, p) => s + p.outcome.values[p.system][key], 0) / list.length;
}

/** The system with the best objective on `train` (the first one when `train` is empty). */
function best(train: readonly IssueOutcome[], systems: number, objective: string[]): number {
  let at = 0;
  let top = -Infinity;
  if (train.length === 0) return 0;
  for (let s = 0; s < systems; s++) {
    const v = objective.reduce((sum, k) => sum + mean(train.map((outcome) => ({ outcome, system: s })), k), 0);
    if (v > top + 1e-12) { top = v; at = s; }
  }
  return at;
}

function cells(list: readonly Pick[], keys: readonly string[]): string {
  return `${keys.slice(0, 4).map((k) => (100 * mean(list, k)).toFixed(1)).join(' / ')} | ${mean(list, keys[4]).toFixed(3)}`;
}

function main(): void {
  let args;
  try {
    args = parseArgs({ options: { results: { type: 'string' }, folds: { type: 'string', default: '5' }, objective: { type: 'string', default: 'acc5+mrr' } } }).values;
  } catch (e) {
    throw new IssuelocError(`${(e as Error).message} (usage: multi-swe-heldout --results FILE [--folds N] [--objective acc5+mrr|mrr|acc5])`);
  }
  if (!args.results) throw new IssuelocError('--results FILE is required (the --out file of bench/multi-swe --configs)');
  const objective = OBJECTIVES[args.objective!];
  if (!objective) throw new IssuelocError(`--objective: expected one of ${Object.keys(OBJECTIVES).join(', ')}, got '${args.objective}'`);
  const k = Number(args.folds);
  if (!Number.isInteger(k) || k < 2) throw new IssuelocError(`--folds: expected an integer of 2 or more, got '${args.folds}'`);
  let data: { systems: string[]; keys: string[]; outcomes: IssueOutcome[] };
  try {
    data = JSON.parse(readFileSync(args.results, 'utf8'));
  } catch (e) {
    throw new IssuelocError(`--results ${args.results}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const { systems, keys, outcomes } = data;
  const n = systems.length;
  const asDefault = (list: readonly IssueOutcome[]): Pick[] => list.map((outcome) => ({ outcome, system: 0 }));
  const out: string[] = [`one setting, ${k} folds of repositories (objective ${args.objective}; default = ${systems[0]})`, '',
    '| fold | issues | chosen | default Acc@1/3/5/10 | MRR | chosen Acc@1/3/5/10 | MRR |', '|---|---|---|---|---|---|---|'];
  const folds = repositoryFolds(outcomes, k);
  const global: Pick[] = [];
  folds.forEach((fold, f) => {
    const s = best(folds.filter((_, g) => g !== f).flat(), n, objective);
    const picks = fold.map((outcome) => ({ outcome, system: s }));
    global.push(...picks);
    out.push(`| ${f + 1} (${[...new Set(fold.map((o) => o.repo.split('/')[1]))].sort().join(', ')}) | ${fold.length} | ${systems[s]} | ${cells(asDefault(fold), keys)} | ${cells(picks, keys)} |`);
  });
  out.push(`| all | ${outcomes.length} | held-out | ${cells(asDefault(outcomes), keys)} | ${cells(global, keys)} |`, '');
  out.push(`a setting per language, each repository held out of its language (objective ${args.objective})`, '',
    '| language | held-out repository | issues | chosen | default Acc@1/3/5/10 | MRR | chosen Acc@1/3/5/10 | MRR |', '|---|---|---|---|---|---|---|---|');
  const perLanguage: Pick[] = [];
  for (const language of [...new Set(outcomes.map((o) => o.language))].sort()) {
    const ofLanguage = outcomes.filter((o) => o.language === language);
    const picks: Pick[] = [];
    for (const repo of [...new Set(ofLanguage.map((o) => o.repo))].sort()) {
      const test = ofLanguage.filter((o) => o.repo === repo);
      const train = ofLanguage.filter((o) => o.repo !== repo);
      const s = best(train, n, objective);
      const p = test.map((outcome) => ({ outcome, system: s }));
      picks.push(...p);
      out.push(`| ${language} | ${repo} | ${test.length} | ${systems[s]}${train.length ? '' : ' (no other repository)'} | ${cells(asDefault(test), keys)} | ${cells(p, keys)} |`);
    }
    perLanguage.push(...picks);
    out.push(`| ${language} | all | ${ofLanguage.length} | held-out | ${cells(asDefault(ofLanguage), keys)} | ${cells(picks, keys)} |`);
  }
  out.push(`| all | all | ${outcomes.length} | held-out | ${cells(asDefault(outcomes), keys)} | ${cells(perLanguage, keys)} |`);
  process.stdout.write(`${out.join('\n')}\n`);
}

try {
  main();
} catch (e) {
  process.stderr.write(e instanceof IssuelocError ? `multi-swe-heldout: ${e.message}\n` : `multi-swe-heldout: internal error: ${(e as Error).stack ?? e}\n`);
  process.exitCode = e instanceof IssuelocError ? 2 : 3;
}
