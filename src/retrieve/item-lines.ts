/**
 * Line ranges of ranked items, from the units the index keeps (1-based, inclusive, as git numbers
 * lines): a function its own lines; a module (a class, a top-level function) the lines from its
 * first function's first line to its last function's last line (the index keeps functions, not
 * classes: a class's header and fields before its first method lie outside); a file the lines of
 * its best function by the scores of the stage that ranked the functions (`Localization.bestOfFile`:
 * however deep that function ranks, so a file's lines never depend on how many items are shown),
 * or its whole lines when it is indexed whole. An item whose lines are unknown (a file none of
 * whose functions scored) keeps none.
 */
import type { CodeIndex, IndexedUnit } from '../index/code-index.js';
import type { Localization, RankedItem } from './rollup.js';
import { unitIdsOf } from './unit-ids.js';

interface Span { startLine: number; endLine: number }

/** Per loaded index, the units of each path (ascending unit numbers), built on first use. */
const unitsByPath = new WeakMap<CodeIndex, Map<string, number[]>>();

function unitsOfPaths(index: CodeIndex, paths: ReadonlySet<string>): number[] {
  let byPath = unitsByPath.get(index);
  if (!byPath) {
    byPath = new Map();
    index.units.forEach((u, d) => {
      const list = byPath!.get(u.path);
      if (list) list.push(d); else byPath!.set(u.path, [d]);
    });
    unitsByPath.set(index, byPath);
  }
  const out: number[] = [];
  for (const p of paths) {
    const list = byPath.get(p);
    if (list) for (const d of list) out.push(d);
  }
  return out.sort((a, b) => a - b);
}

/**
 * Units by id and module spans by module id, of the units in `paths` alone, in unit order (a
 * process that ranks one issue reads the lines of a few dozen files, not of the whole index; the
 * units of each path are listed once per loaded index).
 */
function spans(index: CodeIndex, paths: ReadonlySet<string>): { units: Map<string, IndexedUnit>; modules: Map<string, Span> } {
  const s = { units: new Map<string, IndexedUnit>(), modules: new Map<string, Span>() };
  const ids = unitIdsOf(index);
  for (const d of unitsOfPaths(index, paths)) {
    const u = index.units[d];
    const id = ids.id(d);
    if (!s.units.has(id)) s.units.set(id, u);
    if (!u.qualifiedName) continue;
    const m = ids.module(d);
    const span = s.modules.get(m);
    if (!span) s.modules.set(m, { startLine: u.startLine, endLine: u.endLine });
    else { span.startLine = Math.min(span.startLine, u.startLine); span.endLine = Math.max(span.endLine, u.endLine); }
  }
  return s;
}

/** The paths an item id can name: the id itself and each prefix before a `:` (a path may hold one). */
function pathsOf(ids: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const id of ids) {
    out.add(id);
    for (let i = id.indexOf(':'); i >= 0; i = id.indexOf(':', i + 1)) out.add(id.slice(0, i));
  }
  return out;
}

/**
 * Per file-level document, the function-level document of its best function by `scores` (highest
 * positive score; at equal scores the lower document, as `hitsByRank` orders them), −1 when none
 * scores above 0: one pass over the scores, O(documents).
 */
export function bestOfFiles(scores: Float32Array, fileOfUnit: Uint32Array, fileCount: number): Int32Array {
  const best = new Int32Array(fileCount).fill(-1);
  for (let d = 0; d < scores.length; d++) {
    const s = scores[d];
    if (!(s > 0)) continue;
    const f = fileOfUnit[d];
    const b = best[f];
    if (b < 0 || s > scores[b]) best[f] = d;
  }
  return best;
}

/** Per loaded index, each file path's file-level document, built on first use. */
const fileNumbers = new WeakMap<CodeIndex, Map<string, number>>();

function fileNumberOf(index: CodeIndex, path: string): number | undefined {
  let m = fileNumbers.get(index);
  if (!m) {
    m = new Map(index.filePaths.map((p, f) => [p, f]));
    fileNumbers.set(index, m);
  }
  return m.get(path);
}

/**
 * A copy of `loc` whose items carry `startLine`/`endLine`, without `bestOfFile`. A file's best
 * function is `loc.bestOfFile`'s; without it (a stage that did not give one), its first function
 * in `loc.functions`.
 */
export function withLines(loc: Localization, index: CodeIndex): Localization {
  const { bestOfFile: bestDocs, ...rest } = loc;
  const bestOfFile = new Map<string, IndexedUnit>();
  if (bestDocs) {
    for (const it of loc.files) {
      const f = fileNumberOf(index, it.id);
      const d = f === undefined ? -1 : bestDocs[f];
      if (d >= 0) bestOfFile.set(it.id, index.units[d]);
    }
  }
  const { units, modules } = spans(index, pathsOf([...loc.functions, ...loc.modules, ...loc.files].map((it) => it.id)));
  if (!bestDocs) {
    for (const it of loc.functions) {
      const u = units.get(it.id);
      if (u?.qualifiedName && !bestOfFile.has(u.path)) bestOfFile.set(u.path, u);
    }
  }
  const lined = (it: RankedItem, s: Span | undefined): RankedItem => (s ? { ...it, startLine: s.startLine, endLine: s.endLine } : it);
  return {
    ...rest,
    functions: loc.functions.map((it) => lined(it, units.get(it.id))),
    modules: loc.modules.map((it) => lined(it, modules.get(it.id))),
    files: loc.files.map((it) => lined(it, bestOfFile.get(it.id) ?? units.get(it.id))),
  };
}
