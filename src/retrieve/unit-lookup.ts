/**
 * Index-wide lookups of a {@link SignalResolver} (src/retrieve/signals.ts) made without an
 * object per name or per file: the function-level documents of a file, and those whose last name
 * part is a given name. Both give their documents ascending, as lists pushed in document order would.
 */
import type { IndexedUnit } from '../index/code-index.js';

/** FNV-1a of the length of s[from … end) and of its last (at most 6) UTF-16 code units: enough to spread names over buckets. */
function hashOf(s: string, from: number): number {
  let h = Math.imul(0x811c9dc5 ^ (s.length - from), 16777619);
  for (let i = Math.max(from, s.length - 6); i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Start of the last name part of a qualified name (after its last dot). */
const lastPartStart = (q: string) => q.lastIndexOf('.') + 1;

/**
 * The documents of each last name part (`lastNamePart` of src/corpus/names.ts): hash buckets
 * chained through one array, a name compared only with the documents of its bucket.
 */
export class DocsByName {
  private readonly head: Int32Array;
  private readonly next: Int32Array;
  private readonly mask: number;

  constructor(private readonly units: readonly IndexedUnit[]) {
    const D = units.length;
    let size = 1024;
    while (size < D) size *= 2;
    this.mask = size - 1;
    this.head = new Int32Array(size).fill(-1);
    this.next = new Int32Array(D).fill(-1);
    // last document first, each put before the others of its bucket: chains ascend
    for (let d = D - 1; d >= 0; d--) {
      const q = units[d].qualifiedName;
      if (!q) continue;
      const b = hashOf(q, lastPartStart(q)) & this.mask;
      this.next[d] = this.head[b];
      this.head[b] = d;
    }
  }

  /** The documents whose last name part is `name`, ascending; undefined when none. */
  get(name: string): number[] | undefined {
    let out: number[] | undefined;
    for (let d = this.head[hashOf(name, 0) & this.mask]; d >= 0; d = this.next[d]) {
      const q = this.units[d].qualifiedName;
      const from = lastPartStart(q);
      if (q.length - from === name.length && q.endsWith(name)) (out ??= []).push(d);
    }
    return out;
  }
}

/**
 * The function-level documents of each file-level document: a range per file when the documents
 * come file by file (as an index lays them out), else lists.
 */
export class DocsOfFile {
  private readonly start: Int32Array | undefined;
  private readonly lists: number[][] | undefined;

  constructor(fileOfUnit: Uint32Array, files: number) {
    let grouped = true;
    for (let d = 1; d < fileOfUnit.length && grouped; d++) grouped = fileOfUnit[d] >= fileOfUnit[d - 1];
    if (grouped) {
      const start = new Int32Array(files + 1);
      for (let d = 0; d < fileOfUnit.length; d++) start[fileOfUnit[d] + 1]++;
      for (let f = 0; f < files; f++) start[f + 1] += start[f];
      this.start = start;
    } else {
      this.lists = Array.from({ length: files }, () => []);
      fileOfUnit.forEach((f, d) => this.lists![f].push(d));
    }
  }

  /** The documents of file `f`, ascending (a new array: the caller may keep it). */
  of(f: number): number[] {
    if (this.lists) return this.lists[f].slice();
    const out: number[] = [];
    for (let d = this.start![f]; d < this.start![f + 1]; d++) out.push(d);
    return out;
  }
}
