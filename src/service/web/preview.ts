/**
 * Where the ranked items of a result are in the repository, for the web page: each item's path
 * and line range at the base commit (to link it on the forge) and, when asked, the lines of a
 * function with the words that hold the item's matched terms marked (tokenized as the index
 * tokenizes code, so `parseHTTPServer` is marked for the term `http`).
 */
import { decodeSource, isBinary, sourceLines } from '../../corpus/decode.js';
import { extractUnits } from '../../corpus/extract.js';
import type { CodeUnit } from '../../corpus/types.js';
import { DEFAULT_INDEX_SETTINGS } from '../../index/code-index.js';
import type { GitRepo } from '../../repo/git.js';
import { tokenize } from '../../text/tokenize.js';
import { shownUnit, splitItemId } from '../../corpus/names.js';

/** Most lines of one preview; longer units are cut there (`more` tells how many were left). */
export const PREVIEW_LINES = 60;
/** Files larger than this are not read (the index skips them too by default). */
const MAX_FILE_BYTES = DEFAULT_INDEX_SETTINGS.maxFileBytes;
/** Bytes of files one request reads at most; items in files past it are left out. */
export const MAX_PREVIEW_BYTES = 8 * MAX_FILE_BYTES;
/** Paths one request looks up at most (an id with many `:` is tried at each); items past it are left out. */
export const MAX_PREVIEW_LOOKUPS = 1000;

/** One item asked for: its id (`path`, `path:Top`, `path:Q.name`), and whether to send its lines. */
export interface PreviewItem {
  id: string;
  /** Terms to mark in the lines (the item's `matchedTerms`). */
  terms?: string[];
  lines?: boolean;
}

/** Where an item is, and its lines when asked. */
export interface ItemPreview {
  id: string;
  path: string;
  /** 1-based, inclusive; absent for a whole file. */
  startLine?: number;
  endLine?: number;
  /** Lines from `startLine` (at most {@link PREVIEW_LINES}), as git numbers them (`sourceLines`). */
  lines?: string[];
  /** Marked words: [line index in `lines`, start column, end column (exclusive), the terms it holds]. */
  marks?: [number, number, number, string[]][];
  /** Lines of the unit past the preview. */
  more?: number;
}

/**
 * The previews of `items` at `commit` (a full SHA the caller verified), in order; an item whose
 * file is absent, binary or too large is left out, and so are the items past the request's
 * budget ({@link MAX_PREVIEW_BYTES} read, {@link MAX_PREVIEW_LOOKUPS} paths looked up).
 */
export async function previewItems(git: GitRepo, commit: string, items: readonly PreviewItem[]): Promise<ItemPreview[]> {
  const files = new Map<string, Promise<ParsedFile | undefined>>();
  const budget = { bytes: MAX_PREVIEW_BYTES, lookups: MAX_PREVIEW_LOOKUPS };
  const fileOf = (path: string) => {
    let f = files.get(path);
    if (!f) files.set(path, (f = budget.lookups-- > 0 ? parseFile(git, commit, path, budget) : Promise.resolve(undefined)));
    return f;
  };
  const out: ItemPreview[] = [];
  for (const item of items) {
    const found = await locate(item.id, fileOf);
    if (!found) continue;
    const { path, file, unit } = found;
    const p: ItemPreview = { id: item.id, path };
    if (unit) { p.startLine = unit.startLine; p.endLine = unit.endLine; }
    if (item.lines) {
      const start = unit?.startLine ?? 1;
      const end = unit?.endLine ?? file.lines.length;
      const last = Math.min(end, start + PREVIEW_LINES - 1);
      p.lines = file.lines.slice(start - 1, last);
      p.marks = markTerms(p.lines, item.terms ?? []);
      if (end > last) p.more = end - last;
    }
    out.push(p);
  }
  return out;
}

interface ParsedFile {
  lines: string[];
  units: CodeUnit[];
}

async function parseFile(git: GitRepo, commit: string, path: string, budget: { bytes: number }): Promise<ParsedFile | undefined> {
  const obj = await git.readFileAt(commit, path);
  if (!obj || obj.type !== 'blob' || obj.data.length > MAX_FILE_BYTES || obj.data.length > budget.bytes || isBinary(obj.data)) return undefined;
  budget.bytes -= obj.data.length;
  const text = decodeSource(obj.data);
  return { lines: sourceLines(text), units: await extractUnits(path, text) };
}

/** The file and unit of an id: the whole id as a path, else split as every item id is (`splitItemId`). */
async function locate(id: string, fileOf: (path: string) => Promise<ParsedFile | undefined>): Promise<{ path: string; file: ParsedFile; unit?: CodeUnit } | undefined> {
  const whole = await fileOf(id);
  if (whole) return { path: id, file: whole };
  const { path, qualifiedName } = splitItemId(id);
  const file = qualifiedName ? await fileOf(path) : undefined;
  const unit = file && shownUnit(file.units.filter((u) => u.id === id));
  return unit ? { path, file, unit } : undefined;
}

/** The words of `lines` whose tokens include one of `terms` (the index's tokenizer: split identifiers, lower case). */
export function markTerms(lines: readonly string[], terms: readonly string[]): [number, number, number, string[]][] {
  const wanted = new Set(terms);
  const marks: [number, number, number, string[]][] = [];
  if (wanted.size === 0) return marks;
  lines.forEach((line, i) => {
    for (const m of line.matchAll(/[A-Za-z0-9_]+/g)) {
      const hit = [...new Set(tokenize(m[0], { stem: DEFAULT_INDEX_SETTINGS.stem }))].filter((t) => wanted.has(t));
      if (hit.length > 0) marks.push([i, m.index, m.index + m[0].length, hit]);
    }
  });
  return marks;
}
