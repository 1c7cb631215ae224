/**
 * Which files are candidates and positives of a dataset and of the file-level evaluation: source
 * files by the one rule of `isSourceFile` (src/corpus/select.ts), vendored folders included,
 * tests by the caller.
 */
import { isTestPath } from '../corpus/languages.js';
import { isSourceFile } from '../corpus/select.js';

/** Decides whether a path is a candidate file (a source file of the dataset). */
export type SourceFilter = (path: string) => boolean;

/**
 * The candidate files of `dataset build`, `dataset import` and `eval` ("file localisation for
 * issues at large": every source file is a candidate): `isSourceFile` with every language,
 * vendored folders included (a fix there is a real positive) and no size cap (paths only; `eval
 * --max-file-bytes` applies when a blob is read).
 *
 * @param withTests keep test files (default true: the paper ranks all source files).
 */
export function candidateFileFilter(withTests = true): SourceFilter {
  const rule = { includeTests: withTests, includeVendored: true };
  return (p) => isSourceFile(p, rule);
}

/** Whether any of `paths` is a test file (`isTestPath`). */
export function touchesTests(paths: Iterable<string>): boolean {
  for (const p of paths) if (isTestPath(p)) return true;
  return false;
}
