/**
 * Issue-text signals for localisation (stack frames, mentioned paths and names: README "How it
 * ranks") and the identifier counts of the issue-type analysis (Spearman ρ between
 * identifiers/file names and each metric: docs/evaluation.md).
 *
 * Everything here is a linear scan of the text: a 1 MB issue body is handled in milliseconds and
 * no input makes it slow or throw (`bench/text-speed.ts` measures adversarial bodies).
 */

import { scanIdentifiers, type IdentifierPattern } from './identifiers.js';
import { findCalledNames, findDottedNames, findFilePaths, findInlineCodeNames, findScopedNames, forEachFilePath } from './mentions.js';
import { parseStackFrames, type StackFrame } from './stack-frames.js';
import { IssuelocError } from '../errors.js';

export type { StackFrame, FrameLanguage } from './stack-frames.js';
export type { IdentifierPattern } from './identifiers.js';

/**
 * What an issue text names in code. All lists are unique, in order of first occurrence, as
 * written in the text (case kept; file paths with `/` separators).
 *
 * - `identifiers`: words matching the four patterns of the method notes (UPPER_SNAKE and
 *   lower_snake with ≥ 2 parts, dotted paths ending in CamelCase or digits, CamelCase words that
 *   split into ≥ 2 parts); see `identifiers.ts`.
 * - `filePaths`: paths or file names with a code extension (`src/foo/bar.py`, `Foo.java`).
 * - `dottedNames`: module/package/class paths (`django.db.models.query`, `org.apache.Foo`).
 * - `scopedNames`: names joined by `::` or `#` (`crate::module::func`, `ns::Class::method`,
 *   `Gson#toJson`).
 * - `frames`: stack-trace frames (Python, JVM, JS/TS, Go, Rust, C#, C/C++ debuggers); see `stack-frames.ts`.
 * - `calledNames`: names written directly before `(` (`foo_bar`, `obj.method`).
 * - `inlineCode`: identifiers inside backtick spans (`` `simplify` ``), dotted ones also by last part.
 */
export interface IssueSignals {
  identifiers: string[];
  filePaths: string[];
  dottedNames: string[];
  scopedNames: string[];
  frames: StackFrame[];
  calledNames: string[];
  inlineCode: string[];
}

/**
 * Each list of {@link IssueSignals} keeps at most this many entries (the first ones): the most of
 * any list in 3,000 real issues (SWE-bench Lite, Loc-Bench, Multi-SWE, Maven, Tomcat) is 388, so
 * the cap binds only on texts built to be hard, and it bounds the work of resolving signals.
 */
export const MAX_SIGNALS_PER_KIND = 1000;

/**
 * Extracts the {@link IssueSignals} of an issue text (title and body, cleaned or raw), each list
 * cut to its first {@link MAX_SIGNALS_PER_KIND} entries. Linear time.
 * @throws IssuelocError when `text` is not a string.
 */
export function extractIssueSignals(text: string): IssueSignals {
  checkText(text);
  const identifiers = new Set<string>();
  scanIdentifiers(text, (s, e) => {
    if (identifiers.size < MAX_SIGNALS_PER_KIND) identifiers.add(text.slice(s, e));
  });
  return {
    identifiers: [...identifiers],
    filePaths: first(findFilePaths(text)),
    dottedNames: first(findDottedNames(text)),
    scopedNames: first(findScopedNames(text)),
    frames: first(parseStackFrames(text)),
    calledNames: first(findCalledNames(text)),
    inlineCode: first(findInlineCodeNames(text)),
  };
}

function first<T>(xs: T[]): T[] {
  return xs.length > MAX_SIGNALS_PER_KIND ? xs.slice(0, MAX_SIGNALS_PER_KIND) : xs;
}

/**
 * Identifier and file-name counts of an issue text: occurrences per pattern, their `total`, the
 * number of `distinct` identifier strings, and `fileNames`, the occurrences of file names with a
 * code extension. Occurrences, not distinct words, are what "number of identifiers" means in the
 * method ("file localisation from issues at large", regex extraction per issue).
 */
export interface IdentifierCounts extends Record<IdentifierPattern, number> {
  total: number;
  distinct: number;
  fileNames: number;
}

/**
 * Counts the identifiers of `text` by pattern (see {@link IdentifierCounts}).
 * @throws IssuelocError when `text` is not a string.
 */
export function countIdentifiers(text: string): IdentifierCounts {
  checkText(text);
  const counts: IdentifierCounts = { upperSnake: 0, lowerSnake: 0, dotted: 0, camelCase: 0, total: 0, distinct: 0, fileNames: 0 };
  const distinct = new Set<string>();
  scanIdentifiers(text, (s, e, pattern) => {
    counts[pattern]++;
    counts.total++;
    distinct.add(text.slice(s, e));
  });
  counts.distinct = distinct.size;
  counts.fileNames = countFileNames(text);
  return counts;
}

/** Occurrences of file names with a code extension (each mention counts, unlike `filePaths`). */
function countFileNames(text: string): number {
  let n = 0;
  forEachFilePath(text, () => n++);
  return n;
}

function checkText(text: unknown): void {
  if (typeof text !== 'string') throw new IssuelocError(`issue text must be a string, got ${typeof text}`);
}
