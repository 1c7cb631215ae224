/**
 * Index-wide lookups of a {@link SignalResolver} (src/retrieve/signals.ts) made without an
 * object per name or per file: the function-level documents of a file, and those whose last name
 * part is a given name. Both give their documents ascending, as lists pushed in document order would.
 */
import type { UnitTable } from '../index/unit-table.js';

/** FNV-1a of the length of b[from … end) and of its last (at most 6) bytes: enough to spread names over buckets. */
function hashOf(b: Uint8Array, from: number, end: number): number {
  let h = Math.imul(0x811c9dc5 ^ (end - from), 16777619);
  for (let i = Math.max(from, end - 6); i < end; i++) h = Math.imul(h ^ b[i], 16777619);
  return h >>> 0;
}

const DOT = 0x2e;

/** Start of the last name part of the name in b[from … end) (after its last dot; UTF-8 has no other byte 0x2e). */
function lastPartStart(b: Uint8Array, from: number, end: number): number {
  let i = end - 1;
  while (i >= from && b[i] !== DOT) i--;
  return i + 1;
}

/**
 * The documents of each last name part (`lastNamePart` of src/corpus/names.ts): hash buckets
 * chained through one array, made from the names' bytes (no string per document), a name compared
 * only with the documents of its bucket.
 */
export class DocsByName {
  private readonly head: Int32Array;
  private readonly next: Int32Array;
  private readonly mask: number;
  private readonly utf8 = new TextEncoder();
  private query = new Uint8Array(64);

  constructor(private readonly table: UnitTable) {
    const D = table.length;
    const { names, nameStart } = table.columns;
    let size = 1024;
    while (size < D) size *= 2;
    this.mask = size - 1;
    this.head = new Int32Array(size).fill(-1);
    this.next = new Int32Array(D).fill(-1);
    // last document first, each put before the others of its bucket: chains ascend
    for (let d = D - 1; d >= 0; d--) {
      const from = nameStart[d], end = nameStart[d + 1];
      if (from === end) continue;
      const b = hashOf(names, lastPartStart(names, from, end), end) & this.mask;
      this.next[d] = this.head[b];
      this.head[b] = d;
    }
  }

  /** The documents whose last name part is `name`, ascending; undefined when none. */
  get(name: string): number[] | undefined {
    if (this.query.length < 3 * name.length) this.query = new Uint8Array(3 * name.length);
    const q = this.query;
    const n = this.utf8.encodeInto(name, q).written;
    const { names, nameStart } = this.table.columns;
    let out: number[] | undefined;
    for (let d = this.head[hashOf(q, 0, n) & this.mask]; d >= 0; d = this.next[d]) {
      const end = nameStart[d + 1];
      const from = lastPartStart(names, nameStart[d], end);
      if (end - from !== n) continue;
      let same = true;
      for (let i = 0; i < n && same; i++) same = names[from + i] === q[i];
      if (same) (out ??= []).push(d);
    }
    return out;
  }
}

/** The {@link DocsByName} of each unit table, made once. */
const byTable = new WeakMap<UnitTable, DocsByName>();

/** The {@link DocsByName} of `table` (one per table). */
export function docsByNameOf(table: UnitTable): DocsByName {
  let m = byTable.get(table);
  if (!m) byTable.set(table, (m = new DocsByName(table)));
  return m;
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
