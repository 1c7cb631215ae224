/**
 * Which files are candidates and positives: source files by the corpus extension table
 * (`src/corpus/languages.ts`, code only), optionally without test files (`isTestPath`).
 */
import { isTestPath, languageOf } from '../corpus/languages.js';

/** Decides whether a path is a source file of the dataset. */
export type SourceFilter = (path: string) => boolean;

/**
 * The source filter.
 *
 * @param withTests keep test files (default true: the paper ranks all source files).
 */
export function sourceFilter(withTests = true): SourceFilter {
  return withTests ? (p) => languageOf(p) !== undefined : (p) => languageOf(p) !== undefined && !isTestPath(p);
}

/** Whether any of `paths` is a test file (`isTestPath`). */
export function touchesTests(paths: Iterable<string>): boolean {
  for (const p of paths) if (isTestPath(p)) return true;
  return false;
}
