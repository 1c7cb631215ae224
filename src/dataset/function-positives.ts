/**
 * Function-level positives (gold functions) of a change, by the rule of SweRank's SweLoc and
 * LocAgent as written down in the reference evaluator ref_eval.py (docs/benchmark-gold.md)
 * (`gold_functions`, `module_of`):
 *
 * an existing function (same qualified name in the base file) is a positive when a removed line
 * (old-side line number) lies in its span in the base file, or an added line (new-side line
 * number) lies in its span in the patched file. Code inserted inside a function body counts; a
 * new function inserted between two others does not; a removed function counts.
 */
import { moduleIdOf, splitItemId } from '../corpus/names.js';
import type { CodeUnit } from '../corpus/types.js';
import { sourceLines } from '../corpus/decode.js';
import { applyHunks, type FilePatch } from './patch.js';

/** Extracts the code units of one file (the corpus extractor, `src/corpus/extract.ts`). */
export type UnitExtractor = (path: string, text: string) => Promise<CodeUnit[]>;

/** A function's qualified name and 1-based inclusive line span (decorators included). */
export interface FunctionSpan {
  qualifiedName: string;
  /** Namespace qualifiers leading the name (`CodeUnit.namespaceParts`; absent: none). */
  namespaceParts?: number;
  startLine: number;
  endLine: number;
}

/**
 * Qualified names of the base file's functions that a change edits (the rule above).
 *
 * @param oldFunctions functions of the base file, in file order.
 * @param newFunctions functions of the patched file.
 * @param removed old-side line numbers the change removes (1-based).
 * @param added new-side line numbers the change adds (1-based).
 * @returns qualified names in base-file order, each once.
 */
export function editedFunctionNames(
  oldFunctions: readonly FunctionSpan[],
  newFunctions: readonly FunctionSpan[],
  removed: ReadonlySet<number>,
  added: ReadonlySet<number>,
): string[] {
  const hit = (span: FunctionSpan, lines: ReadonlySet<number>): boolean => {
    // iterate over the smaller of the span and the line set
    if (span.endLine - span.startLine + 1 <= lines.size) {
      for (let l = span.startLine; l <= span.endLine; l++) if (lines.has(l)) return true;
      return false;
    }
    for (const l of lines) if (l >= span.startLine && l <= span.endLine) return true;
    return false;
  };
  const existing = new Set(oldFunctions.map((f) => f.qualifiedName));
  const gold = new Set<string>();
  for (const f of oldFunctions) if (hit(f, removed)) gold.add(f.qualifiedName);
  for (const f of newFunctions) if (existing.has(f.qualifiedName) && hit(f, added)) gold.add(f.qualifiedName);
  const out: string[] = [];
  for (const f of oldFunctions) {
    if (gold.delete(f.qualifiedName)) out.push(f.qualifiedName);
  }
  return out;
}

/** An edited function: its id `path:Qualified.name` and its module (`moduleIdOf` of its unit). */
export interface EditedFunction {
  id: string;
  module: string;
}

/**
 * The functions of `path` a change edits ({@link editedFunctionNames}), with their modules from
 * their spans (a C++ namespace qualifies a module, it is none).
 */
export function editedFunctionsIn(
  path: string,
  oldFunctions: readonly FunctionSpan[],
  newFunctions: readonly FunctionSpan[],
  removed: ReadonlySet<number>,
  added: ReadonlySet<number>,
): EditedFunction[] {
  const spanOf = new Map<string, FunctionSpan>();
  for (const f of oldFunctions) if (!spanOf.has(f.qualifiedName)) spanOf.set(f.qualifiedName, f);
  return editedFunctionNames(oldFunctions, newFunctions, removed, added).map((qualifiedName) => ({
    id: `${path}:${qualifiedName}`, module: moduleIdOf({ path, qualifiedName, namespaceParts: spanOf.get(qualifiedName)?.namespaceParts }),
  }));
}

/** Function units of a file, as spans. */
async function functionsOf(extract: UnitExtractor, path: string, text: string): Promise<FunctionSpan[]> {
  const units = await extract(path, text);
  return units.filter((u) => u.kind === 'function');
}

/** Options of {@link editedFunctionsOfFile}. */
export interface EditedFunctionOptions {
  /**
   * Do not count removed or added lines that are blank (default false, as ref_eval). Loc-Bench's
   * `edit_functions` behave this way: a function whose only change is a deleted blank line is
   * not gold there.
   */
  ignoreBlankLines?: boolean;
}

/**
 * Gold functions of one file patch applied to its base text.
 *
 * The hunks are applied as GNU `patch` would (located by context, `applyHunks`), both texts are
 * run through the corpus extractor, and `editedFunctionNames` picks the edited ones.
 *
 * @param file the file's patch (its `path` is the base-side path).
 * @param baseText the file's content at the base commit.
 * @param extract the corpus extractor (same one that builds the retrieval corpus, so gold ids
 *   and document ids agree).
 * @param options see {@link EditedFunctionOptions}.
 * @returns the functions (ids `path:Qualified.name` and modules), in base-file order.
 */
export async function editedFunctionsOfFile(
  file: FilePatch,
  baseText: string,
  extract: UnitExtractor,
  options: EditedFunctionOptions = {},
): Promise<EditedFunction[]> {
  const oldLines = sourceLines(baseText);
  const applied = applyHunks(file.hunks, oldLines);
  const oldFunctions = await functionsOf(extract, file.path, oldLines.join('\n'));
  if (oldFunctions.length === 0) return [];
  const newFunctions = await functionsOf(extract, file.path, applied.newLines.join('\n'));
  let { removed, added } = applied;
  if (options.ignoreBlankLines) {
    const blank = (s: string | undefined): boolean => s === undefined || s.trim() === '';
    removed = new Set([...removed].filter((n) => !blank(oldLines[n - 1])));
    added = new Set([...added].filter((n) => !blank(applied.newLines[n - 1])));
  }
  return editedFunctionsIn(file.path, oldFunctions, newFunctions, removed, added);
}

/**
 * Module of a function id: `path:TopLevelName` (the top-level class of a method, or the
 * top-level function itself), as LocAgent/SweRank roll functions up to modules. An id does not
 * say which leading parts are namespaces (C++, Rust `mod`, TS): where the unit is at hand, take
 * its module (`EditedFunction.module`, `moduleIdOf`); this is right for Python and for names
 * outside namespaces.
 * @param functionId `path:Qualified.name`
 */
export function moduleOf(functionId: string): string {
  return moduleIdOf(splitItemId(functionId));
}

/** Modules of function ids, first occurrence kept (order preserved). */
export function modulesOf(functionIds: readonly string[]): string[] {
  return [...new Set(functionIds.map(moduleOf))];
}
