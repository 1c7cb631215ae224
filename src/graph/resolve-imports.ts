/**
 * Import specifiers (src/graph/blob-facts.ts) resolved to the repository's files, per language:
 * Python `a.b.c` → `…/a/b/c.py` or `…/a/b/c/__init__.py` (relative `.x` from the file's package);
 * JS/TS `./x` → `x.ts`, `x.js`, `x/index.ts`, … (relative specifiers only: packages are outside);
 * Java/Kotlin/Scala `a.b.C` → `…/a/b/C.java` (`a.b.*`: the files of `…/a/b/`); Go `mod/x/y` → the
 * files of the longest folder the path ends with; Rust `crate::a::b` / `super::` / `mod a;` →
 * `a.rs`, `a/mod.rs` under the crate's `src/`; C/C++ `#include "x/y.h"` → beside the file, else any
 * file whose path ends with `x/y.h`. A specifier matching nothing in the repository (a library) is
 * left out; one matching many files keeps at most {@link MAX_TARGETS}.
 */
import { languageOf } from '../corpus/languages.js';

/** Files one specifier resolves to at most (a wildcard or a Go package of many files). */
export const MAX_TARGETS = 20;

const JS_EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.d.ts'];

/** Lookup of a commit's files by path and by path suffix. */
export class FileTable {
  private readonly byPath = new Map<string, number>();
  private readonly byBase = new Map<string, number[]>();
  private readonly byDir = new Map<string, number[]>();

  constructor(readonly paths: readonly string[]) {
    paths.forEach((p, i) => {
      this.byPath.set(p, i);
      push(this.byBase, p.slice(p.lastIndexOf('/') + 1), i);
      push(this.byDir, dirOf(p), i);
    });
  }

  /** The file at exactly `path`. */
  at(path: string): number | undefined { return this.byPath.get(path); }

  /** Files whose path is `suffix` or ends with `/suffix`. */
  endingWith(suffix: string): number[] {
    const base = suffix.slice(suffix.lastIndexOf('/') + 1);
    return (this.byBase.get(base) ?? []).filter((i) => { const p = this.paths[i]; return p === suffix || p.endsWith(`/${suffix}`); });
  }

  /** Files directly in folder `dir` ('' is the root). */
  inDir(dir: string): readonly number[] { return this.byDir.get(dir) ?? []; }

  /** Folders that are `suffix` or end with `/suffix`. */
  dirsEndingWith(suffix: string): string[] {
    return [...this.byDir.keys()].filter((d) => d === suffix || d.endsWith(`/${suffix}`));
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v); else m.set(k, [v]);
}

const dirOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));

/** Joins `rel` (with `./`, `../`) to folder `dir`; undefined when it climbs above the root. */
function joinPath(dir: string, rel: string): string | undefined {
  const parts = dir ? dir.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') { if (parts.length === 0) return undefined; parts.pop(); } else parts.push(seg);
  }
  return parts.join('/');
}

/**
 * The files (indexes into `files.paths`) that `path`'s import specifiers `specs` name, without
 * `path` itself, each once.
 */
export function resolveImports(path: string, specs: readonly string[], files: FileTable): number[] {
  const language = languageOf(path);
  const self = files.at(path);
  const out = new Set<number>();
  for (const spec of specs) {
    const targets = resolveOne(language, path, spec, files);
    for (const t of targets.slice(0, MAX_TARGETS)) if (t !== self) out.add(t);
  }
  return [...out];
}

function resolveOne(language: string | undefined, path: string, spec: string, files: FileTable): number[] {
  const dir = dirOf(path);
  switch (language) {
    case 'python': case 'cython': return python(dir, spec, files, language === 'cython');
    case 'javascript': case 'typescript': return javascript(dir, spec, files);
    case 'java': case 'kotlin': case 'scala': return jvm(spec, files);
    case 'go': return goPackage(spec, files);
    case 'rust': return rust(path, spec, files);
    case 'c': case 'cpp': case 'objc': return include(dir, spec, files);
    default: return [];
  }
}

function firstOf(files: FileTable, candidates: readonly string[]): number[] {
  for (const c of candidates) {
    const hit = files.endingWith(c);
    if (hit.length > 0) return hit;
  }
  return [];
}

function python(dir: string, spec: string, files: FileTable, cython: boolean): number[] {
  const dots = /^\.*/.exec(spec)![0].length;
  const rest = spec.slice(dots).split('.').filter(Boolean);
  const exts = cython ? ['.pyx', '.pxd', '.py'] : ['.py'];
  const forms = (parts: string[]) => parts.length === 0 ? [] : [...exts.map((e) => parts.join('/') + e), `${parts.join('/')}/__init__.py`];
  if (dots > 0) {
    let base: string | undefined = dir;
    for (let k = 1; k < dots && base !== undefined; k++) base = base ? dirOf(base) : undefined;
    if (base === undefined) return [];
    for (const form of forms(rest)) {
      const at = files.at(base ? `${base}/${form}` : form);
      if (at !== undefined) return [at];
    }
    return [];
  }
  // `a.b.c` may be a module or a name in module `a.b`: the longest module first
  for (let n = rest.length; n >= 1; n--) {
    const hit = firstOf(files, forms(rest.slice(0, n)));
    if (hit.length > 0) return n === 1 && hit.length > 1 ? [] : hit; // a bare top-level name matching many files is ambiguous
  }
  return [];
}

function javascript(dir: string, spec: string, files: FileTable): number[] {
  if (!spec.startsWith('.')) return [];
  const base = joinPath(dir, spec);
  if (base === undefined) return [];
  const stem = base.replace(/\.(m|c)?js$/, '');
  const tries = [base, ...JS_EXTENSIONS.map((e) => stem + e), ...JS_EXTENSIONS.map((e) => `${base}/index${e}`)];
  for (const t of tries) {
    const at = files.at(t);
    if (at !== undefined) return [at];
  }
  return [];
}

function jvm(spec: string, files: FileTable): number[] {
  const parts = spec.split('.');
  if (parts[parts.length - 1] === '*') {
    const dirs = files.dirsEndingWith(parts.slice(0, -1).join('/'));
    return dirs.flatMap((d) => files.inDir(d).filter((i) => /\.(java|kt|scala)$/.test(files.paths[i])));
  }
  // `a.b.C` or `a.b.C.member` (static import, nested class): the longest prefix naming a file
  for (let n = parts.length; n >= 2; n--) {
    const stem = parts.slice(0, n).join('/');
    const hit = firstOf(files, [`${stem}.java`, `${stem}.kt`, `${stem}.scala`]);
    if (hit.length > 0) return hit;
  }
  return [];
}

function goPackage(spec: string, files: FileTable): number[] {
  const parts = spec.split('/');
  // the longest tail of the path, of two segments at least (`errors` alone names no folder of ours)
  for (let k = 0; k <= parts.length - 2; k++) {
    const dirs = files.dirsEndingWith(parts.slice(k).join('/'));
    if (dirs.length > 0) return dirs.flatMap((d) => files.inDir(d).filter((i) => files.paths[i].endsWith('.go') && !files.paths[i].endsWith('_test.go')));
  }
  return [];
}

function rust(path: string, spec: string, files: FileTable): number[] {
  const dir = dirOf(path);
  const base = path.slice(path.lastIndexOf('/') + 1);
  const parts = spec.split('::').filter(Boolean);
  if (parts.length === 0) return [];
  const srcRoot = path.includes('/src/') ? path.slice(0, path.lastIndexOf('/src/') + 4) : path.startsWith('src/') ? 'src' : dir;
  // the folder of `self`: a `mod.rs`, `lib.rs` or `main.rs` is its module's folder; `a.rs` has `a/`
  const selfDir = /^(mod|lib|main)\.rs$/.test(base) ? dir : `${dir ? `${dir}/` : ''}${base.slice(0, -3)}`;
  let root: string;
  let rest: string[];
  if (parts[0] === 'crate') { root = srcRoot; rest = parts.slice(1); }
  else if (parts[0] === 'super') { root = dirOf(selfDir); rest = parts.slice(1); while (rest[0] === 'super') { root = dirOf(root); rest = rest.slice(1); } }
  else if (parts[0] === 'self') { root = selfDir; rest = parts.slice(1); }
  else if (parts.length === 1) { root = selfDir; rest = parts; } // `mod a;`
  else return []; // another crate
  for (let n = rest.length; n >= 1; n--) {
    const stem = [root, ...rest.slice(0, n)].filter(Boolean).join('/');
    for (const t of [`${stem}.rs`, `${stem}/mod.rs`]) {
      const at = files.at(t);
      if (at !== undefined) return [at];
    }
  }
  return [];
}

function include(dir: string, spec: string, files: FileTable): number[] {
  const near = joinPath(dir, spec);
  const at = near === undefined ? undefined : files.at(near);
  if (at !== undefined) return [at];
  const hit = files.endingWith(spec.replace(/^(\.\.?\/)+/, ''));
  return hit.length <= 3 ? hit : [];
}
