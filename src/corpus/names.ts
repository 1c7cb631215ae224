/**
 * Short names of code units and files, as issue text writes them: the last part of a qualified
 * name (`Model.save` → `save`) and a file's name without folder and extension
 * (`django/db/models/base.py` → `base`).
 */

/** The last dot-separated part of a qualified name (`A.B.c` → `c`; a name without dots unchanged). */
export function lastNamePart(qualifiedName: string): string {
  const i = qualifiedName.lastIndexOf('.');
  return i < 0 ? qualifiedName : qualifiedName.slice(i + 1);
}

/**
 * Module id of a unit: `path:TopLevelName`, its top-level class (of a method) or function — the
 * first part of its qualified name after its `namespaceParts` namespace qualifiers
 * (`fmt.Formatter.format` in `namespace fmt` → `path:fmt.Formatter`; Python `A.b` → `path:A`); the
 * file itself when the unit has no qualified name (a file-level document).
 */
export function moduleIdOf(unit: { path: string; qualifiedName: string; namespaceParts?: number }): string {
  const { path, qualifiedName } = unit;
  if (!qualifiedName) return path;
  let end = -1;
  for (let k = 0; k <= (unit.namespaceParts ?? 0); k++) {
    end = qualifiedName.indexOf('.', end + 1);
    if (end < 0) break;
  }
  return `${path}:${end < 0 ? qualifiedName : qualifiedName.slice(0, end)}`;
}

/**
 * The path and qualified name an item id names, read by the grammar {@link moduleIdOf} and
 * `unitId` (src/retrieve/unit-ids.ts) write: `path:Qualified.name`, or `path` alone for a file
 * and a document indexed whole. A qualified name holds no `:` (its parts are joined by `.`:
 * `ns::f` is `ns.f`), a path may (`a:b/c.py`), so the id splits at its last `:`; an id that is
 * itself a path (`isPath`, where the paths are known: a file-level id of a path holding `:`) is
 * not split.
 */
export function splitItemId(id: string, isPath?: (path: string) => boolean): { path: string; qualifiedName: string } {
  const colon = id.lastIndexOf(':');
  if (colon < 0 || isPath?.(id)) return { path: id, qualifiedName: '' };
  return { path: id.slice(0, colon), qualifiedName: id.slice(colon + 1) };
}

/** A path's file name without its last extension (`a/b/c.test.ts` → `c.test`; `.bashrc` unchanged). */
export function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * The unit an id shows among the units that share it (overloads, redefinitions: the ids need not
 * be unique, src/corpus/extract.ts): the one of most lines, the first of them on ties. For
 * Python's `@overload` stubs that is the implementation, which follows them.
 */
export function shownUnit<U extends { startLine: number; endLine: number }>(units: Iterable<U>): U | undefined {
  let best: U | undefined;
  for (const u of units) if (!best || u.endLine - u.startLine > best.endLine - best.startLine) best = u;
  return best;
}
