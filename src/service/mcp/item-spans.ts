/**
 * An item's lines for `explain_item` (a `localize` answer's items carry theirs from the pipeline):
 * the line range of a function or module (`path:Qualified.name`, `path:Top`) and a preview of its
 * lines, read from git at the base commit and cut into units by the same extractor as the index (src/corpus/extract.ts), so an
 * agent can open exactly those lines. The index keeps no text; the few files of a top-k are read
 * again (one `git cat-file` per repository, files cached per commit, a few at a time).
 */
import { decodeSource, isBinary, sourceLines } from '../../corpus/decode.js';
import { extractUnits } from '../../corpus/extract.js';
import type { CodeUnit } from '../../corpus/types.js';
import { DEFAULT_INDEX_SETTINGS } from '../../index/code-index.js';
import { GitRepo } from '../../repo/git.js';
import { shownUnit, splitItemId } from '../../corpus/names.js';

/** Lines of one item: 1-based, inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

/** A preview of an item's lines, bounded in lines and characters. */
export interface Preview {
  range: LineRange;
  /** The lines shown, each `<line number>: <text>` (long lines cut), at most {@link PreviewBounds.lines}. */
  lines: string[];
  /** true when lines of the range were left out. */
  cut: boolean;
}

/** Bounds of a preview. */
export interface PreviewBounds {
  /** Lines shown at most (default 60). */
  lines: number;
  /** Characters of one line at most (default 160). */
  lineChars: number;
}

export const DEFAULT_PREVIEW_BOUNDS: PreviewBounds = { lines: 60, lineChars: 160 };

/** Files kept parsed per repository. */
const CACHED_FILES = 64;

/** The units of the files of one repository, read from git on demand; {@link close} it when done. */
export class ItemSpans {
  private git: Promise<GitRepo> | undefined;
  /** `commit\0path` → its text and units, least recently used first. */
  private readonly files = new Map<string, Promise<{ text: string; units: CodeUnit[] } | undefined>>();

  constructor(readonly repoPath: string) {}

  /**
   * The line range of an item id at a commit: the whole file for a file id, the first unit of
   * that qualified name for a function or module (ids need not be unique: a redefinition shares
   * its first definition's id); undefined when the file is missing, binary, over the index's
   * file size cap, or holds no such unit.
   */
  async rangeOf(commit: string, id: string, isFile = false): Promise<LineRange | undefined> {
    const found = await this.unitOf(commit, id, isFile);
    return found && { start: found.unit.startLine, end: found.unit.endLine };
  }

  /**
   * A preview of an item: its first lines (up to the bounds), numbered.
   * @returns undefined when {@link rangeOf} is.
   */
  async previewOf(commit: string, id: string, bounds: PreviewBounds = DEFAULT_PREVIEW_BOUNDS, isFile = false): Promise<Preview | undefined> {
    const found = await this.unitOf(commit, id, isFile);
    if (!found) return undefined;
    const { startLine, endLine } = found.unit;
    const all = sourceLines(found.text);
    const last = Math.min(endLine, startLine + bounds.lines - 1);
    const lines: string[] = [];
    for (let n = startLine; n <= last; n++) {
      const line = all[n - 1] ?? '';
      lines.push(`${n}: ${line.length > bounds.lineChars ? `${line.slice(0, bounds.lineChars)}…` : line}`);
    }
    return { range: { start: startLine, end: endLine }, lines, cut: last < endLine };
  }

  /** Stops the git process. */
  async close(): Promise<void> {
    const git = this.git;
    this.git = undefined;
    this.files.clear();
    await (await git?.catch(() => undefined))?.close();
  }

  /**
   * The unit of an item id ({@link splitItemId}: split at its last `:`) and its file's text; a file's
   * id (`isFile`), or an id naming no file when split (a path holding `:`, indexed whole), is a path.
   */
  private async unitOf(commit: string, id: string, isFile = false): Promise<{ unit: CodeUnit; text: string } | undefined> {
    let { path, qualifiedName: name } = isFile ? { path: id, qualifiedName: '' } : splitItemId(id);
    let file = await this.fileAt(commit, path);
    if (!file && name !== '') {
      [path, name] = [id, ''];
      file = await this.fileAt(commit, path);
    }
    if (!file) return undefined;
    const unit = name === '' ? file.units[0] : shownUnit(file.units.filter((u) => u.qualifiedName === name && u.kind !== 'file'));
    return unit && { unit, text: file.text };
  }

  private fileAt(commit: string, path: string) {
    const key = `${commit}\0${path}`;
    let file = this.files.get(key);
    if (file) {
      this.files.delete(key);
      this.files.set(key, file);
      return file;
    }
    file = this.read(commit, path).catch(() => undefined);
    this.files.set(key, file);
    while (this.files.size > CACHED_FILES) this.files.delete(this.files.keys().next().value!);
    return file;
  }

  private async read(commit: string, path: string): Promise<{ text: string; units: CodeUnit[] } | undefined> {
    if (!this.git) {
      this.git = GitRepo.open(this.repoPath);
      this.git.catch(() => { this.git = undefined; });
    }
    const obj = await (await this.git).readFileAt(commit, path);
    if (!obj || obj.type !== 'blob' || obj.data.length > DEFAULT_INDEX_SETTINGS.maxFileBytes || isBinary(obj.data)) return undefined;
    const text = decodeSource(obj.data);
    return { text, units: await extractUnits(path, text) };
  }
}
