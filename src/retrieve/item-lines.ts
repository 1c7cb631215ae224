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
import { fileNumberOf, unitIdsOf } from './unit-ids.js';
import { splitItemId } from '../corpus/names.js';
import { DocsOfFile } from './unit-lookup.js';
import type { TermMatcher } from './annotate.js';
import { tokenize } from '../text/tokenize.js';

interface Span { startLine: number; endLine: number }

/** The units of one path: the first (lowest) document of each unit id, and each module's span. */
interface PathSpans {
  units: Map<string, number>;
  modules: Map<string, Span>;
}

/** Paths whose spans are kept per loaded index (the most recently made first out past it). */
const KEPT_PATHS = 2048;

/** Per loaded index, the spans of the paths asked, built on first use. */
const byIndex = new WeakMap<CodeIndex, { docsOfFile: DocsOfFile; spans: Map<string, PathSpans> }>();

/**
 * The {@link PathSpans} of `path` (undefined: no unit), made once per loaded index from its units
 * in unit order (a query reads the lines of a few dozen files; a file of thousands of functions
 * is listed once, not per query).
 */
function spansOfPath(index: CodeIndex, path: string): PathSpans | undefined {
  let memo = byIndex.get(index);
  if (!memo) byIndex.set(index, (memo = { docsOfFile: new DocsOfFile(index.fileOfUnit, index.filePaths.length), spans: new Map() }));
  let s = memo.spans.get(path);
  if (s) return s;
  // a unit's path is its file's (src/index/unit-table.ts)
  const f = fileNumberOf(index, path);
  const docs = f === undefined ? [] : memo.docsOfFile.of(f);
  if (docs.length === 0) return undefined;
  s = { units: new Map(), modules: new Map() };
  const ids = unitIdsOf(index);
  const { table } = index;
  for (const d of docs) {
    const id = ids.id(d);
    // the unit an id shows: of most lines, the first on ties (shownUnit, src/corpus/names.ts)
    const seen = s.units.get(id);
    if (seen === undefined || table.endLine(d) - table.startLine(d) > table.endLine(seen) - table.startLine(seen)) s.units.set(id, d);
    if (table.columns.nameStart[d] === table.columns.nameStart[d + 1]) continue;
    const m = ids.module(d);
    const span = s.modules.get(m);
    const startLine = table.startLine(d), endLine = table.endLine(d);
    if (!span) s.modules.set(m, { startLine, endLine });
    else { span.startLine = Math.min(span.startLine, startLine); span.endLine = Math.max(span.endLine, endLine); }
  }
  if (memo.spans.size >= KEPT_PATHS) memo.spans.delete(memo.spans.keys().next().value!);
  memo.spans.set(path, s);
  return s;
}

/** The path an item id names ({@link splitItemId}; a path of the index is not split). */
function pathOfId(index: CodeIndex, id: string): string {
  return splitItemId(id, (p) => fileNumberOf(index, p) !== undefined).path;
}

/** The unit of id `id`: its lowest document in the path the id names. */
function unitOf(index: CodeIndex, id: string): IndexedUnit | undefined {
  const d = spansOfPath(index, pathOfId(index, id))?.units.get(id);
  return d === undefined ? undefined : index.table.unit(d);
}

/** The span of module `id`: from the first line to the last of its functions in the path the id names. */
function moduleSpanOf(index: CodeIndex, id: string): Span | undefined {
  const s = spansOfPath(index, pathOfId(index, id))?.modules.get(id);
  return s && { startLine: s.startLine, endLine: s.endLine };
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

/** The unit of the document function `id` was scored as (`Localization.docOfFunction`), if known. */
function scoredUnit(index: CodeIndex, id: string, docOf: ((id: string) => number | undefined) | undefined): IndexedUnit | undefined {
  const d = docOf?.(id);
  return d === undefined || unitIdsOf(index).id(d) !== id ? undefined : index.table.unit(d);
}

/**
 * `Localization.docOfFunction` of a ranking's `functions`: the document each was scored as
 * (`scored`), but none for an `@overload` stub, a document holding the term `overload` (its
 * decorator), whose id shows the implementation's lines ({@link unitOf}, `shownUnit`).
 * @param matcher the index's term lookup (the lexical `Localizer`); `stem` its settings'.
 */
export function scoredDocsOf(
  functions: readonly RankedItem[], scored: (id: string) => number | undefined, matcher: Pick<TermMatcher, 'holdsTerm'>, stem: boolean,
): (id: string) => number | undefined {
  const own = new Map<string, number>();
  for (const { id } of functions) {
    const d = scored(id);
    if (d !== undefined) own.set(id, d);
  }
  const [overload] = tokenize('overload', { stem });
  const ids = [...own.keys()];
  const stubs = matcher.holdsTerm(ids.map((id) => own.get(id)!), overload);
  ids.forEach((id, i) => { if (stubs[i]) own.delete(id); });
  return (id) => own.get(id);
}

/**
 * A copy of `loc` whose items carry `startLine`/`endLine`, without `bestOfFile`, `docOfFunction` and `annotate`
 * (a function shows the lines of the unit it was scored as, when known). A file's best
 * function is `loc.bestOfFile`'s; without it (a stage that did not give one), its first function
 * in `loc.functions`.
 */
export function withLines(loc: Localization, index: CodeIndex): Localization {
  const { bestOfFile: bestDocs, docOfFunction, annotate: _annotate, ...rest } = loc;
  const bestOfFile = new Map<string, IndexedUnit>();
  if (bestDocs) {
    for (const it of loc.files) {
      const f = fileNumberOf(index, it.id);
      const d = f === undefined ? -1 : bestDocs(f);
      if (d >= 0) bestOfFile.set(it.id, index.table.unit(d));
    }
  }
  if (!bestDocs) {
    for (const it of loc.functions) {
      const u = unitOf(index, it.id);
      if (u?.qualifiedName && !bestOfFile.has(u.path)) bestOfFile.set(u.path, u);
    }
  }
  const lined = (it: RankedItem, s: Span | undefined): RankedItem => (s ? { ...it, startLine: s.startLine, endLine: s.endLine } : it);
  return {
    ...rest,
    functions: loc.functions.map((it) => lined(it, scoredUnit(index, it.id, docOfFunction) ?? unitOf(index, it.id))),
    modules: loc.modules.map((it) => lined(it, moduleSpanOf(index, it.id))),
    files: loc.files.map((it) => lined(it, bestOfFile.get(it.id) ?? unitOf(index, it.id))),
  };
}
