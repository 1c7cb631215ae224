/**
 * Index-wide lookups of a {@link SignalResolver} (src/retrieve/signals.ts) made without an
 * object per name or per file: the function-level documents of a file, and those whose last name
 * part is a given name. Both give their documents ascending, as lists pushed in document order would.
 *
 * The name table ({@link DocsByName}) of an index opened from a cache folder is stored beside the
 * index, `index/<commit>.<key>.names.bin` (a checked file, src/util/checked-file.ts, tag
 * {@link NAME_TABLE_TAG}), written by `issueloc index` (src/cli/index-cmd.ts) or by the first
 * process that needs it, and read by later ones instead of made again (on sympy, making it cost a
 * `localize` call 15–25 ms CPU; reading it ≈ 1 ms). The file holds a CRC-32 of the names
 * it was made from: a table that does not fit its index (or a corrupt file) gives one warning and
 * is made again and rewritten, never used.
 */
import { existsSync, statSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import type { UnitTable } from '../index/unit-table.js';
import { readCheckedFile, writeCheckedFile } from '../util/checked-file.js';

/**
 * Tag of a stored name table (src/util/checked-file.ts): bump it when {@link hashOf}, the bucket
 * count or the layout of {@link DocsByName.parts} changes.
 */
export const NAME_TABLE_TAG = 'names.v1';

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

  /** @param stored the chains as {@link fromPayload} read them; else they are made from the table's names. */
  constructor(private readonly table: UnitTable, stored?: { head: Int32Array; next: Int32Array }) {
    const D = table.length;
    const size = bucketCount(D);
    this.mask = size - 1;
    if (stored) {
      this.head = stored.head;
      this.next = stored.next;
      return;
    }
    const { names, nameStart } = table.columns;
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

  /**
   * The table as stored: a header (uint32 LE: D, buckets, the names' byte length and their
   * CRC-32), the bucket heads, then each document's next (int32 LE each; −1 ends a chain).
   */
  parts(): ArrayBufferView[] {
    const { length } = namesOf(this.table);
    return [Uint32Array.from([this.table.length, this.head.length, length, namesCrc(this.table)]), this.head, this.next];
  }

  /**
   * The name table of `table` from the payload {@link parts} wrote.
   * @throws Error when the payload is not of this table (its size, bucket count, names' length or
   *   CRC differ) or its chains are not ascending lists of its documents.
   */
  static fromPayload(table: UnitTable, payload: Buffer): DocsByName {
    const D = table.length, size = bucketCount(D);
    if (payload.length !== 4 * (4 + size + D)) throw new Error('name table: wrong size');
    // an ArrayBuffer of its own, 4-aligned, for the typed arrays (the payload may sit at any offset)
    const words = new Int32Array(payload.byteOffset % 4 === 0 ? payload.buffer : new Uint8Array(payload).buffer, payload.byteOffset % 4 === 0 ? payload.byteOffset : 0, payload.length / 4);
    if (words[0] !== D || words[1] !== size || words[2] !== namesOf(table).length || (words[3] >>> 0) !== namesCrc(table)) {
      throw new Error('name table: made from other names');
    }
    const head = words.subarray(4, 4 + size), next = words.subarray(4 + size);
    for (let b = 0; b < size; b++) if (head[b] < -1 || head[b] >= D) throw new Error('name table: bad bucket');
    for (let d = 0; d < D; d++) if (next[d] !== -1 && (next[d] <= d || next[d] >= D)) throw new Error('name table: bad chain');
    return new DocsByName(table, { head, next });
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

/** Buckets of a name table of D documents: a power of two, at least 1024 and D. */
function bucketCount(D: number): number {
  let size = 1024;
  while (size < D) size *= 2;
  return size;
}

/** The names' bytes of `table` (those its documents use). */
const namesOf = (table: UnitTable) => table.columns.names.subarray(0, table.columns.nameStart[table.length]);

/** CRC-32 of the names' bytes of `table` (0 for none). */
function namesCrc(table: UnitTable): number {
  const names = namesOf(table);
  return names.length === 0 ? 0 : crc32(names) >>> 0;
}

/** The {@link DocsByName} of each unit table, made or read once. */
const byTable = new WeakMap<UnitTable, DocsByName>();
/** The file each unit table's name table is stored in ({@link storeDocsByNameAt}). */
const storedAt = new WeakMap<UnitTable, { file: string; onWritten: ((bytes: number) => void) | undefined }>();

/**
 * Keeps the name table of `table` (the unit table of an index opened from a cache folder) in
 * `file`: {@link docsByNameOf} reads it from there when it is whole and made from these names,
 * else makes it and writes it there (a cache that cannot be written keeps none). Only beside an
 * index that was saved, `indexFile` present: an index answered unsaved (a full or read-only
 * cache, blobs git could not give) leaves no file of its own behind. `onWritten`: told the bytes
 * of the file when it is written (the cache's size estimate, src/index/cache-usage.ts).
 */
export function storeDocsByNameAt(table: UnitTable, file: string, indexFile: string, onWritten?: (bytes: number) => void): void {
  if (!byTable.has(table) && existsSync(indexFile)) storedAt.set(table, { file, onWritten });
}

/** The {@link DocsByName} of `table` (one per table; read from, or written to, its file when {@link storeDocsByNameAt} gave one). */
export function docsByNameOf(table: UnitTable): DocsByName {
  let m = byTable.get(table);
  if (m) return m;
  const stored = storedAt.get(table);
  m = stored === undefined ? undefined : readCheckedFile(stored.file, NAME_TABLE_TAG, (payload) => DocsByName.fromPayload(table, payload));
  if (!m) {
    m = new DocsByName(table);
    if (stored !== undefined) {
      try {
        writeCheckedFile(stored.file, NAME_TABLE_TAG, m.parts(), { fsync: false });
        stored.onWritten?.(statSync(stored.file).size);
      } catch { /* a read-only or full cache: made again next time */ }
    }
  }
  byTable.set(table, m);
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
