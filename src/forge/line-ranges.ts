/**
 * The lines of ranked modules and functions at the base commit, for links to them: the files of
 * the items are read at the commit and split into units again (tree-sitter, as indexing does),
 * so a module's lines are its class's own (the `class` line included), which the function-level
 * index does not hold.
 */
import { decodeSource, isBinary } from '../corpus/decode.js';
import { extractUnits } from '../corpus/extract.js';
import type { CodeUnit } from '../corpus/types.js';
import { GitRepo } from '../repo/git.js';
import { moduleIdOf, shownUnit } from '../corpus/names.js';

/** 1-based, inclusive lines of an item in its file. */
export interface LineRange {
  /** The file the item is in. */
  path: string;
  start: number;
  end: number;
}

/**
 * Lines of the units of one file by item id: each function or class (the unit an id shows among
 * those sharing it, {@link shownUnit}: Python's `@overload` stubs link their implementation, as
 * the ranking's own lines do, src/retrieve/item-lines.ts), and each module (`path:Top`: its
 * top-level class or function; for a module of nested units only, from the first line of its
 * first unit to the last of its last). Whole-file items have
 * no entry: they link to the file.
 */
export function lineRangesOf(units: readonly CodeUnit[]): Map<string, LineRange> {
  const byId = new Map<string, CodeUnit[]>();
  const spans = new Map<string, LineRange>();
  for (const u of units) {
    if (u.kind === 'file' || !u.qualifiedName) continue;
    const same = byId.get(u.id);
    if (same) same.push(u);
    else byId.set(u.id, [u]);
    const m = moduleIdOf(u);
    const s = spans.get(m);
    if (s) {
      s.start = Math.min(s.start, u.startLine);
      s.end = Math.max(s.end, u.endLine);
    } else {
      spans.set(m, { path: u.path, start: u.startLine, end: u.endLine });
    }
  }
  const ranges = new Map<string, LineRange>();
  for (const [id, same] of byId) {
    const u = shownUnit(same)!;
    ranges.set(id, { path: u.path, start: u.startLine, end: u.endLine });
  }
  for (const [id, s] of spans) if (!ranges.has(id)) ranges.set(id, s);
  return ranges;
}

/**
 * The lines of `ids` (module and function ids, `path:Qualified.name`) at `commit` of the
 * repository at `repoPath`; ids whose file or unit is not found are left out (they link to
 * their file, if any).
 */
export async function lineRangesAt(repoPath: string, commit: string, ids: readonly string[]): Promise<Map<string, LineRange>> {
  const repo = await GitRepo.open(repoPath);
  const found = new Map<string, LineRange>();
  const read = new Map<string, Map<string, LineRange> | null>();
  try {
    for (const id of ids) {
      // the path is the longest prefix before a ':' that is a file (paths may hold ':' too)
      for (let colon = id.lastIndexOf(':'); colon > 0; colon = id.lastIndexOf(':', colon - 1)) {
        const path = id.slice(0, colon);
        if (!read.has(path)) {
          const blob = await repo.readFileAt(commit, path);
          read.set(path, blob && blob.type === 'blob' && !isBinary(blob.data) ? lineRangesOf(await extractUnits(path, decodeSource(blob.data))) : null);
        }
        const r = read.get(path)?.get(id);
        if (r) {
          found.set(id, r);
          break;
        }
      }
    }
  } finally {
    await repo.close();
  }
  return found;
}
