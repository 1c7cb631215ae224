/**
 * Unified-diff parsing and hunk application, for gold patches (SWE-bench, Loc-Bench) and commit
 * diffs. The rules follow the reference evaluator ref_eval.py (docs/benchmark-gold.md; `parse_patch`,
 * `locate_hunk`, `edited_lines`), which in turn follows GNU `patch` in locating a hunk by its
 * context when the header's line number is off.
 */
import { IssuelocError } from '../errors.js';

/** One line of a hunk body: context (' '), removed old-side line ('-') or added new-side line ('+'). */
export interface HunkLine {
  tag: ' ' | '-' | '+';
  /** The line without its tag character and without the newline. */
  text: string;
}

/** One `@@ -oldStart,oldCount +newStart,newCount @@` hunk. Line numbers are 1-based. */
export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: HunkLine[];
}

/**
 * The changes a patch makes to one file.
 *
 * - `path`: the old-side path, or the new-side path when the file is added (ref_eval's key).
 * - `oldPath`: `null` when the file is added (`--- /dev/null`).
 * - `newPath`: `null` when the file is deleted (`+++ /dev/null`).
 * Paths have their `a/` and `b/` prefixes and any tab-separated timestamp removed.
 */
export interface FilePatch {
  path: string;
  oldPath: string | null;
  newPath: string | null;
  hunks: Hunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const DEV_NULL = '/dev/null';

/** Undo git's C-style quoting of a path (`"a/caf\303\251.py"`), or return the path unchanged. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"') || path.length < 2) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, a: 7, v: 11, '\\': 92, '"': 34 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      bytes.push(parseInt(oct, 8));
      i += oct.length;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Path of a `--- ` / `+++ ` header line: tab suffix dropped, unquoted, `a/`/`b/` prefix dropped. */
function headerPath(line: string, prefix: 'a/' | 'b/'): string {
  const raw = unquote(line.slice(4).split('\t')[0]);
  return raw.startsWith(prefix) ? raw.slice(2) : raw;
}

/** A file a git diff renames without changing its text (`similarity index 100%`, no hunks). */
export interface PureRename {
  from: string;
  to: string;
}

/** What {@link readPatch} finds in a diff. */
export interface PatchContents {
  /** The file patches (see {@link parsePatch}). */
  files: FilePatch[];
  /**
   * Renames without a text diff (`rename from` / `rename to` and no `---`/`+++` lines), in order.
   * They are not in `files`, as in ref_eval's `parse_patch`: callers count them.
   */
  pureRenames: PureRename[];
}

/**
 * Parse a unified diff (as `git diff` / `diff -u` / SWE-bench `patch` fields write it).
 *
 * A file section starts at a `--- ` line directly followed by a `+++ ` line; a hunk body is read
 * by its header's line counts (so removed lines that look like `--- x` stay inside the hunk);
 * `\ No newline at end of file` markers are skipped; an empty body line counts as an empty
 * context line (some tools strip the lone space). Sections of the same path are merged, in
 * order. Entries with no `---`/`+++` lines (binary files, pure renames, mode changes) are not
 * returned — exactly as ref_eval's `parse_patch`; {@link readPatch} lists the pure renames.
 * CRLF line ends (a patch saved on Windows, or a file with CRLF lines in an LF diff) are read as
 * `\n`, as sources are (`sourceLines`, src/corpus/decode.ts), so paths never end in `\r` and hunks match the base.
 *
 * @param text the diff text.
 * @returns the file patches in order of first appearance.
 * @throws IssuelocError when a hunk header appears before any file header, or a hunk body ends
 *   before its header's line counts are reached (a truncated patch).
 */
export function parsePatch(text: string): FilePatch[] {
  return readPatch(text).files;
}

/**
 * {@link parsePatch}, and the pure renames of the diff (git's `diff --git` sections with
 * `rename from`/`rename to` lines and no text diff).
 * @throws IssuelocError as {@link parsePatch}.
 */
export function readPatch(text: string): PatchContents {
  const lines = text.split(/\r?\n/);
  const files = new Map<string, FilePatch>();
  const pureRenames: PureRename[] = [];
  // the `diff --git` section being read: its rename lines, and whether it had a file header
  let renameFrom: string | null = null;
  let renameTo: string | null = null;
  let sectionHasHeader = false;
  const endSection = () => {
    if (renameFrom !== null && renameTo !== null && !sectionHasHeader) pureRenames.push({ from: renameFrom, to: renameTo });
    renameFrom = renameTo = null;
    sectionHasHeader = false;
  };
  let cur: FilePatch | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith('diff --git ')) {
      endSection();
      i += 1;
      continue;
    }
    if (line.startsWith('rename from ')) renameFrom = unquote(line.slice(12));
    else if (line.startsWith('rename to ')) renameTo = unquote(line.slice(10));
    if (line.startsWith('--- ') && i + 1 < lines.length && lines[i + 1].startsWith('+++ ')) {
      sectionHasHeader = true;
      const oldP = headerPath(line, 'a/');
      const newP = headerPath(lines[i + 1], 'b/');
      const key = oldP === DEV_NULL ? newP : oldP;
      cur = files.get(key) ?? null;
      if (!cur) {
        cur = {
          path: key,
          oldPath: oldP === DEV_NULL ? null : oldP,
          newPath: newP === DEV_NULL ? null : newP,
          hunks: [],
        };
        files.set(key, cur);
      }
      i += 2;
      continue;
    }
    const m = HUNK_HEADER.exec(line);
    if (m) {
      if (!cur) throw new IssuelocError(`patch line ${i + 1}: hunk header before any '--- '/'+++ ' file header`);
      const hunk: Hunk = {
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      const headerLine = i + 1;
      i += 1;
      let nOld = 0;
      let nNew = 0;
      while (nOld < hunk.oldCount || nNew < hunk.newCount) {
        if (i >= lines.length) {
          throw new IssuelocError(
            `patch line ${headerLine}: hunk of ${cur.path} is truncated ` +
              `(read ${nOld}/${hunk.oldCount} old and ${nNew}/${hunk.newCount} new lines)`,
          );
        }
        const l = lines[i];
        i += 1;
        if (l.startsWith('\\')) continue;
        const tag = l[0] === '-' || l[0] === '+' ? l[0] : ' ';
        if (tag === '-') nOld++;
        else if (tag === '+') nNew++;
        else {
          nOld++;
          nNew++;
        }
        hunk.lines.push({ tag, text: l.slice(1) });
      }
      cur.hunks.push(hunk);
      continue;
    }
    i += 1;
  }
  endSection();
  return { files: [...files.values()], pureRenames };
}

/** Line numbers of the `tag` lines of a file patch on their side, by the hunk headers. */
function taggedLines(file: FilePatch, tag: '-' | '+'): number[] {
  const out: number[] = [];
  for (const h of file.hunks) {
    const [start, count] = tag === '-' ? [h.oldStart, h.oldCount] : [h.newStart, h.newCount];
    let n = count > 0 ? start : start + 1;
    for (const l of h.lines) {
      if (l.tag === tag) out.push(n++);
      else if (l.tag === ' ') n++;
    }
  }
  return out;
}

/**
 * The old-side line numbers a file patch removes, by its hunk headers (no offset search).
 * @returns 1-based line numbers, ascending.
 */
export function removedOldLines(file: FilePatch): number[] {
  return taggedLines(file, '-');
}

/**
 * The new-side line numbers a file patch adds, by its hunk headers (no offset search).
 * @returns 1-based line numbers, ascending.
 */
export function addedNewLines(file: FilePatch): number[] {
  return taggedLines(file, '+');
}

/**
 * 1-based line where `block` (a hunk's old side) occurs in `oldLines`, nearest to `start` (ties:
 * the later line first, as ref_eval tries `start + d` before `start - d`) and not before `lo`;
 * `null` if it occurs nowhere. Follows ref_eval's `locate_hunk` (GNU patch's offset search).
 */
export function locateHunk(oldLines: readonly string[], block: readonly string[], start: number, lo: number): number | null {
  const n = block.length;
  const matchesAt = (cand: number): boolean => {
    if (cand < lo || cand + n - 1 > oldLines.length) return false;
    for (let k = 0; k < n; k++) if (oldLines[cand - 1 + k] !== block[k]) return false;
    return true;
  };
  for (let delta = 0; delta <= oldLines.length; delta++) {
    if (matchesAt(start + delta)) return start + delta;
    if (delta > 0 && matchesAt(start - delta)) return start - delta;
  }
  return null;
}

/** What applying a file's hunks to its base text did. */
export interface AppliedPatch {
  /** Old-side (base) line numbers the hunks remove, 1-based, after locating each hunk. */
  removed: Set<number>;
  /** New-side (patched) line numbers the hunks add, 1-based. */
  added: Set<number>;
  /** The patched file's lines. */
  newLines: string[];
}

/**
 * Apply hunks to a base file's lines, locating each hunk by its old side nearest to its header
 * line plus the offset found for the previous hunk (as GNU `patch` does). A hunk whose old side
 * is found nowhere is applied at its header line. Exactly ref_eval's `edited_lines`.
 *
 * @param hunks the file's hunks, in patch order.
 * @param oldLines the base file split on `\n` (CRLF already normalised).
 */
export function applyHunks(hunks: readonly Hunk[], oldLines: readonly string[]): AppliedPatch {
  const removed = new Set<number>();
  const added = new Set<number>();
  const newLines: string[] = [];
  let oldPos = 1; // next old line to copy
  let offset = 0;
  for (const h of hunks) {
    let firstOld = h.oldCount > 0 ? h.oldStart : h.oldStart + 1; // "-N,0" inserts after line N
    const block = h.lines.filter((l) => l.tag !== '+').map((l) => l.text);
    if (block.length > 0) {
      const found = locateHunk(oldLines, block, firstOld + offset, oldPos);
      if (found !== null) {
        offset = found - firstOld;
        firstOld = found;
      }
    }
    newLines.push(...oldLines.slice(Math.max(oldPos - 1, 0), Math.max(firstOld - 1, 0)));
    let o = firstOld;
    for (const l of h.lines) {
      if (l.tag === '-') {
        removed.add(o);
        o++;
      } else if (l.tag === '+') {
        newLines.push(l.text);
        added.add(newLines.length);
      } else {
        newLines.push(l.text);
        o++;
      }
    }
    oldPos = o;
  }
  newLines.push(...oldLines.slice(Math.max(oldPos - 1, 0)));
  return { removed, added, newLines };
}
