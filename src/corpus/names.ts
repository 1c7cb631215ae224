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

/** A path's file name without its last extension (`a/b/c.test.ts` → `c.test`; `.bashrc` unchanged). */
export function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
