/**
 * Records shared by the corpus, index and retrieval stages.
 * Names follow docs/architecture.md of the shared notes.
 */

/** What a code unit is: a whole file, a class (or struct/interface/impl…), or a function/method. */
export type UnitKind = 'file' | 'class' | 'function';

/**
 * One retrievable piece of source code at a commit.
 *
 * - `id`: `path` for files, `path:Qualified.name` for classes and functions
 *   (e.g. `src/requests/models.py:Response.json`; nested: `a.py:Outer.Inner.method`).
 * - `startLine`/`endLine`: 1-based, inclusive; decorators/annotations included.
 * - `text`: the unit's source (for a file: the whole file).
 */
export interface CodeUnit {
  id: string;
  path: string;
  kind: UnitKind;
  qualifiedName: string;
  /**
   * Leading parts of `qualifiedName` that are namespaces (C++ `namespace`, Rust inline `mod`, TS
   * `namespace`): qualifiers of the name, not its module (`moduleIdOf`, src/corpus/names.ts).
   * Absent when none (every Python unit).
   */
  namespaceParts?: number;
  startLine: number;
  endLine: number;
  text: string;
}
