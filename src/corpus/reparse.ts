/**
 * Incremental re-parsing: a file's tree of one version turned into the tree of another by
 * tree-sitter's edit + `parse(text, oldTree)`, which re-parses only the changed region (what
 * editors do on each keystroke). Used where many versions of the same files are parsed in a row
 * (the commit miner: a file's version before a commit is the one after the commit before it).
 */
import type { Edit, Point, Tree } from 'web-tree-sitter';

/** A parse kept for the next version of the same file; its owner deletes `tree` when done. */
export interface KeptParse {
  /** The grammar that parsed `text` (a tree is reused for the same grammar only). */
  grammar: string;
  /** The text that was parsed. */
  text: string;
  /** Its tree (unedited). */
  tree: Tree;
}

/**
 * The one edit that turns `before` into `after`: the span between their common prefix and their
 * common suffix. Exact for any two texts, so the re-parse gives the tree a full parse of `after`
 * gives. Indices and columns are string (UTF-16) offsets, as web-tree-sitter's are.
 */
export function editBetween(before: string, after: string): Edit {
  const m = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < m && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < m - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  // never between the two halves of a surrogate pair
  if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) prefix--;
  if (suffix > 0 && isLowSurrogate(before.charCodeAt(before.length - suffix))) suffix--;
  const start = pointAt(before, 0, { row: 0, column: 0 }, prefix);
  return {
    startIndex: prefix,
    oldEndIndex: before.length - suffix,
    newEndIndex: after.length - suffix,
    startPosition: start,
    oldEndPosition: pointAt(before, prefix, start, before.length - suffix),
    newEndPosition: pointAt(after, prefix, start, after.length - suffix),
  };
}

/** The tree of `kept` edited to stand for `text` (a copy: `kept.tree` is left as it was); the caller deletes it. */
export function editedTree(kept: KeptParse, text: string): Tree {
  const tree = kept.tree.copy();
  tree.edit(editBetween(kept.text, text));
  return tree;
}

/** The point (row, column) of offset `to` of `text`, counted on from `from` at point `at`. */
function pointAt(text: string, from: number, at: Point, to: number): Point {
  let { row } = at;
  let lineStart = from - at.column;
  for (let k = text.indexOf('\n', from); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) {
    row++;
    lineStart = k + 1;
  }
  return { row, column: to - lineStart };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
