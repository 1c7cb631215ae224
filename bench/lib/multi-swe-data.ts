/** The multi-language dev set's records and the per-issue file of bench/multi-swe (`--out`). */
import { readFileSync } from 'node:fs';
import { IssuelocError } from '../../src/errors.js';

/** One line of multi-swe-dev.jsonl. */
export interface Instance {
  instance_id: string; repo: string; language: string; base_commit: string;
  problem_statement: string; patch: string; gold_files: string[];
}

/** One evaluated issue: per system, the metric values, the gold ranks and the top 10. */
export interface IssueOutcome {
  id: string; repo: string; language: string;
  gold: string[];
  /** Gold files the code index has no document for (non-source, or a language without units). */
  notIndexed: string[];
  values: Record<string, number>[];
  ranks: (number | null)[][];
  top: string[][];
}

/**
 * The records of a multi-swe JSONL file.
 * @throws IssuelocError naming the file (and line) when it cannot be read or a line is not a record.
 */
export function readInstances(path: string): Instance[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new IssuelocError(`--data ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return text.split('\n').filter((l) => l.trim() !== '').map((l, i) => {
    try {
      const r = JSON.parse(l) as Instance;
      if (typeof r.repo !== 'string' || typeof r.base_commit !== 'string' || !Array.isArray(r.gold_files)) throw new Error('missing repo, base_commit or gold_files');
      return r;
    } catch (e) {
      throw new IssuelocError(`--data ${path}: line ${i + 1}: ${(e as Error).message}`);
    }
  });
}

/**
 * The per-issue file bench/multi-swe writes with `--out`.
 * @throws IssuelocError naming the file when it cannot be read or is not such a file.
 */
export function readOutcomes(path: string): { systems: string[]; outcomes: IssueOutcome[] } {
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as { systems: string[]; outcomes: IssueOutcome[] };
    if (!Array.isArray(r.systems) || !Array.isArray(r.outcomes)) throw new Error('not a per-issue file of bench/multi-swe --out');
    return r;
  } catch (e) {
    throw new IssuelocError(`${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
