import type { InvertedIndex, TermLookup, TermPostings } from './inverted-index.js';
import { isInt, isRecord, isStringArray, openCheckedBlocks, writeCheckedBlocks, type CheckedBlocks } from '../util/checked-file.js';

/**
 * Persistence of an {@link InvertedIndex} plus a JSON header, a Uint32Array and bytes of the
 * caller's own, as a file of checked blocks (src/util/checked-file.ts, tag {@link INDEX_FILE_TAG}):
 * a head read and verified whole at open, laid out to be used as it lies (a few views, no object
 * per term), and the term records in blocks of B terms, each read and verified when a lookup or
 * a query first needs it; a term's postings are decoded on first use ({@link StoredIndex}).
 *
 * Head layout (little-endian; T terms, N = ⌈T / B⌉ blocks, D documents, F fields, A aux words,
 * B = {@link BLOCK}):
 *   header length H (uint32) · header JSON (H bytes, UTF-8) · padding to a multiple of 4
 *   · keyStart (uint32, N + 1: offsets of the blocks' first terms in the keys) · aux (uint32, A)
 *   · fieldLength (D × F, exact: uint16 when every length fits, else uint32) · padding to 4
 *   · keys (the first term of each block, UTF-8, one after the other) · bytes (the caller's own, X bytes).
 * Block b: the records of terms bB … bB + B − 1, in ascending UTF-8 byte order (so a term's id is
 * its rank): varint (LEB128) of the bytes shared with the previous term of the block (0 for the
 * first), varint of the length of the rest, the rest, varint of the document frequency, varint of
 * the postings' byte length, the postings.
 * The postings of a term, documents ascending, each as the varint of the gap to the previous
 * document minus 1 (the first: its id), then its field tfs: with F = 3, one byte
 * `tf0 | tf1 << 2 | tf2 << 4` when tf0, tf1 ≤ 3 and tf2 ≤ 14, else the byte 0xF0 and three
 * varints; with another F, F varints.
 *
 * Writes go to a temporary file in the same folder, are flushed, then renamed over the target,
 * so a reader never sees a half-written index.
 */
export const INDEX_FILE_TAG = 'index.v5';

/** Terms per block of the term dictionary (binary search over blocks, then a scan). */
const BLOCK = 16;

interface Header<M> {
  meta: M;
  fieldNames: string[];
  docCount: number;
  termCount: number;
  auxLength: number;
  /** Length of the caller's bytes. */
  extraBytes: number;
  /** Bytes per field length: 2 or 4. */
  lengthBytes: number;
  /** Bytes of the blocks' first terms. */
  keyBytes: number;
}

/** A growable byte buffer. */
class ByteSink {
  buf = new Uint8Array(1 << 16);
  size = 0;

  private room(n: number): void {
    if (this.size + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.size + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.size));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.size++] = b;
  }

  varint(v: number): void {
    this.room(5);
    while (v >= 0x80) {
      this.buf[this.size++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.size++] = v;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.size);
    this.size += b.length;
  }

  view(): Uint8Array {
    return this.buf.subarray(0, this.size);
  }
}

/** Appends the postings of one term to `out` (layout: see the module comment). */
function encodePostings({ doc, tf }: TermPostings, F: number, out: ByteSink): void {
  let prev = -1;
  for (let i = 0; i < doc.length; i++) {
    out.varint(doc[i] - prev - 1);
    prev = doc[i];
    if (F === 3) {
      const a = tf[3 * i], b = tf[3 * i + 1], c = tf[3 * i + 2];
      if (a <= 3 && b <= 3 && c <= 14) out.byte(a | (b << 2) | (c << 4));
      else {
        out.byte(0xf0);
        out.varint(a);
        out.varint(b);
        out.varint(c);
      }
    } else {
      for (let f = 0; f < F; f++) out.varint(tf[i * F + f]);
    }
  }
}

/** The UTF-8 bytes of each term of `index` by id; undefined when every term is ASCII (its bytes are its char codes). */
function termBytes(index: InvertedIndex): Buffer[] | undefined {
  for (let t = 0; t < index.termCount; t++) {
    if (!/^[\x00-\x7f]*$/.test(index.term(t))) return Array.from({ length: index.termCount }, (_, u) => Buffer.from(index.term(u), 'utf8'));
  }
  return undefined;
}

/** The bytes of an ASCII string. */
function asciiBytes(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

/**
 * Writes `index`, `meta` and `aux` to `path` atomically (temp file + rename). Term ids of the
 * stored index are the ranks of the terms in UTF-8 byte order, whatever they were in `index`.
 */
export function writeIndexFile<M>(path: string, index: InvertedIndex, meta: M, aux: Uint32Array = new Uint32Array(0), extra: Uint8Array = new Uint8Array(0)): void {
  const T = index.termCount;
  const F = index.fieldNames.length;
  const encoded = termBytes(index);
  const order = Array.from({ length: T }, (_, t) => t);
  if (encoded) order.sort((a, b) => Buffer.compare(encoded[a], encoded[b]));
  else {
    // ASCII terms (the tokenizer's): their string order is their UTF-8 byte order, and a string is its bytes
    const terms = order.map((t) => index.term(t));
    order.sort((a, b) => (terms[a] < terms[b] ? -1 : terms[a] > terms[b] ? 1 : 0));
  }
  const bytesOf = encoded ? (t: number) => encoded[t] : (t: number) => asciiBytes(index.term(t));
  const blocks = Math.ceil(T / BLOCK);
  const blockStart = new Uint32Array(blocks + 1);
  const keyStart = new Uint32Array(blocks + 1);
  const keys = new ByteSink();
  const records = new ByteSink();
  const postings = new ByteSink();
  let prev: Uint8Array = new Uint8Array(0);
  order.forEach((t, rank) => {
    const term = bytesOf(t);
    let shared = 0;
    if (rank % BLOCK === 0) {
      blockStart[rank / BLOCK] = records.size;
      keyStart[rank / BLOCK] = keys.size;
      keys.bytes(term);
    } else {
      while (shared < term.length && shared < prev.length && term[shared] === prev[shared]) shared++;
    }
    records.varint(shared);
    records.varint(term.length - shared);
    records.bytes(term.subarray(shared));
    records.varint(index.documentFrequency(t));
    postings.size = 0;
    encodePostings(index.postings(t), F, postings);
    records.varint(postings.size);
    records.bytes(postings.view());
    prev = term;
  });
  blockStart[blocks] = records.size;
  keyStart[blocks] = keys.size;
  let lengthBytes = 2;
  for (const n of index.fieldLength) if (n > 0xffff) lengthBytes = 4;
  const fieldLength = lengthBytes === 2 ? Uint16Array.from(index.fieldLength) : Uint32Array.from(index.fieldLength);
  const header: Header<M> = {
    meta, fieldNames: [...index.fieldNames], docCount: index.docCount, termCount: T, auxLength: aux.length, extraBytes: extra.length, lengthBytes,
    keyBytes: keys.size,
  };
  const headerBuf = Buffer.from(JSON.stringify(header), 'utf8');
  const pre = Buffer.alloc(4);
  pre.writeUInt32LE(headerBuf.length, 0);
  const pad = (n: number) => Buffer.alloc((4 - (n % 4)) % 4);
  writeCheckedBlocks(path, INDEX_FILE_TAG, [
    pre, headerBuf, pad(headerBuf.length), keyStart, aux, fieldLength, pad(fieldLength.byteLength), keys.view(), extra,
  ], records.view(), blockStart);
}

/**
 * Opens an index file written by {@link writeIndexFile}, verified: the head's checksum, then its
 * structure (section sizes agree with the header, one block per B terms, `validMeta` accepts the
 * caller's header; the key offsets are checked as a lookup reads them). A block is verified (its CRC-32) when first read: a
 * corrupt one throws {@link CorruptCacheFileError} from the lookup or query reading it (one
 * warning line names the file, removed then); its records are checked as they are read, the
 * postings of a term when they are decoded (both throw: past the checksum, only a bug could break them).
 * @returns undefined when the file is missing, or corrupt (then one warning line names it).
 */
export function readIndexFile<M>(path: string, validMeta: (m: unknown) => m is M): StoredIndexFile<M> | undefined {
  return openCheckedBlocks(path, INDEX_FILE_TAG, (head, blocks) => {
    try {
      return decodeIndex(head, blocks, validMeta);
    } catch (e) {
      blocks.close();
      throw e;
    }
  });
}

/**
 * What {@link readIndexFile} gives: the index, the caller's header, words and bytes (views of the
 * head's bytes), and `close`, which closes the file (the index reads no block after it).
 */
export interface StoredIndexFile<M> {
  index: InvertedIndex;
  meta: M;
  aux: Uint32Array;
  extra: Uint8Array;
  close(): void;
}

function decodeIndex<M>(buf: Buffer, blocks: CheckedBlocks, validMeta: (m: unknown) => m is M): StoredIndexFile<M> {
  // the head starts an ArrayBuffer of its own: its sections are views
  const h = buf.readUInt32LE(0);
  const header = JSON.parse(buf.toString('utf8', 4, 4 + h)) as unknown;
  if (!isHeader(header) || !validMeta(header.meta)) throw new Error('bad header');
  const { termCount: T, docCount: D, auxLength: A, extraBytes: X, lengthBytes, keyBytes } = header;
  const F = header.fieldNames.length;
  const N = Math.ceil(T / BLOCK);
  let o = buf.byteOffset + 4 + h;
  o += (4 - (o % 4)) % 4;
  const lengthSection = lengthBytes * D * F;
  const padded = (n: number) => n + ((4 - (n % 4)) % 4);
  const size = o - buf.byteOffset + 4 * (N + 1 + A) + padded(lengthSection) + keyBytes + X;
  if (size !== buf.length || blocks.count !== N) throw new Error('bad size');
  const keyStart = new Uint32Array(buf.buffer, o, N + 1);
  o += 4 * (N + 1);
  const aux = new Uint32Array(buf.buffer, o, A);
  o += 4 * A;
  const fieldLength = lengthBytes === 2 ? new Uint16Array(buf.buffer, o, D * F) : new Uint32Array(buf.buffer, o, D * F);
  o += padded(lengthSection);
  const keys = new Uint8Array(buf.buffer, o, keyBytes);
  o += keyBytes;
  const extra = new Uint8Array(buf.buffer, o, X);
  // the keys' offsets are checked where a lookup reads them, a block's records as they are walked
  if (keyStart[0] !== 0 || keyStart[N] !== keyBytes) throw new Error('bad offsets');
  return {
    index: new StoredIndex(header.fieldNames, D, T, fieldLength, keys, keyStart, blocks), meta: header.meta as M, aux, extra,
    close: () => blocks.close(),
  };
}

/** Error of records that do not decode (a block whose checksum held: a bug of the writer). */
function corruptRecords(what: string): Error {
  return new Error(`stored index: ${what} cannot be decoded`);
}

/**
 * An {@link InvertedIndex} over the head and blocks of a stored file: term ids are ranks in term
 * order, found by binary search over the blocks' first terms (in the head) and a scan of one
 * block (remembered per string); a block is read (and verified) on first use and kept, its
 * records located then, a term's postings decoded on first use and kept.
 */
class StoredIndex implements InvertedIndex, TermLookup {
  /** The postings decoded so far (a query decodes a few terms'). */
  private readonly decoded = new Map<number, TermPostings>();
  /** The blocks read so far. */
  private readonly read: (Uint8Array | undefined)[];
  /**
   * Per term: byte offset of its document frequency in its block, 0 until its block is walked
   * (an offset is never 0: a record starts with its term). Zeroed memory: pages no read touched
   * are never written.
   */
  private readonly at: Int32Array;
  private readonly looked = new Map<string, number>();
  private readonly utf8 = new TextEncoder();
  private query = new Uint8Array(256);
  private term0 = new Uint8Array(256);

  constructor(
    readonly fieldNames: readonly string[],
    readonly docCount: number,
    readonly termCount: number,
    readonly fieldLength: Uint16Array | Uint32Array,
    private readonly keys: Uint8Array,
    private readonly keyStart: Uint32Array,
    private readonly blocks: CheckedBlocks,
  ) {
    this.at = new Int32Array(termCount);
    this.read = new Array<Uint8Array | undefined>(blocks.count);
  }

  get termIds(): TermLookup {
    return this;
  }

  /** The bytes of block `b`, read and verified on first use (throws CorruptCacheFileError). */
  private block(b: number): Uint8Array {
    return (this.read[b] ??= this.blocks.read(b));
  }

  /** Reads a varint at `p` of `r` below `end`; the offset after it is left in {@link next}. */
  private varint(r: Uint8Array, p: number, end: number): number {
    let v = 0, scale = 1, b: number;
    do {
      if (p >= end || scale > 2 ** 28) throw corruptRecords('a term record');
      b = r[p++];
      v += (b & 0x7f) * scale;
      scale *= 128;
    } while (b & 0x80);
    this.next = p;
    return v;
  }

  private next = 0;

  /**
   * Walks block `b` from its start, rebuilding each term in `term0`; `visit(id, length)` is
   * called per term (its bytes in term0[0 … length)) and stops the walk by returning true.
   * Records the offset of every term's document frequency passed.
   */
  private walk(b: number, visit: (t: number, length: number) => boolean): void {
    const r = this.block(b);
    const end = r.length;
    let p = 0;
    let length = 0;
    for (let t = b * BLOCK, last = Math.min(this.termCount, t + BLOCK); t < last; t++) {
      const shared = this.varint(r, p, end);
      const rest = this.varint(r, this.next, end);
      p = this.next;
      if (shared > length || p + rest > end) throw corruptRecords('a term record');
      length = shared + rest;
      if (this.term0.length < length) {
        const grown = new Uint8Array(2 * length);
        grown.set(this.term0.subarray(0, shared));
        this.term0 = grown;
      }
      this.term0.set(r.subarray(p, p + rest), shared);
      p += rest;
      this.at[t] = p;
      this.varint(r, p, end);
      const bytes = this.varint(r, this.next, end);
      const stop = visit(t, length);
      p = this.next + bytes;
      if (p > end) throw corruptRecords('a term record');
      if (stop) return;
    }
  }

  /** Order of the first term of block `b` against the query bytes query[0 … n). */
  private compareKey(b: number, n: number): number {
    const { keys, query } = this;
    const from = this.keyStart[b], length = this.keyStart[b + 1] - from;
    if (length < 0 || from + length > keys.length) throw corruptRecords('a block key');
    const m = Math.min(n, length);
    for (let i = 0; i < m; i++) {
      const c = keys[from + i] - query[i];
      if (c !== 0) return c;
    }
    return length - n;
  }

  /** Order of term bytes term0[0 … length) against the query bytes query[0 … n). */
  private compare(length: number, n: number): number {
    const { term0, query } = this;
    const m = Math.min(n, length);
    for (let i = 0; i < m; i++) {
      const c = term0[i] - query[i];
      if (c !== 0) return c;
    }
    return length - n;
  }

  get(term: string): number | undefined {
    const known = this.looked.get(term);
    if (known !== undefined) return known < 0 ? undefined : known;
    if (this.query.length < 3 * term.length) this.query = new Uint8Array(3 * term.length);
    const n = this.utf8.encodeInto(term, this.query).written;
    // the last block whose first term is ≤ the term
    let lo = 0, hi = this.keyStart.length - 2, block = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareKey(mid, n) <= 0) { block = mid; lo = mid + 1; } else hi = mid - 1;
    }
    let found = -1;
    if (block >= 0) {
      this.walk(block, (t, length) => {
        const c = this.compare(length, n);
        if (c === 0) found = t;
        return c >= 0;
      });
    }
    if (this.looked.size < 100_000) this.looked.set(term, found);
    return found < 0 ? undefined : found;
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }

  /** Offset of the document frequency of term `t` in its block (walked on first use). */
  private recordOf(t: number): number {
    if (this.at[t] === 0) this.walk(Math.floor(t / BLOCK), () => false);
    return this.at[t];
  }

  documentFrequency(t: number): number {
    const p = this.recordOf(t);
    const r = this.block(Math.floor(t / BLOCK));
    return this.varint(r, p, r.length);
  }

  term(t: number): string {
    let out = '';
    this.walk(Math.floor(t / BLOCK), (u, length) => {
      if (u === t) out = Buffer.from(this.term0.buffer, this.term0.byteOffset, length).toString('utf8');
      return u === t;
    });
    return out;
  }

  postings(t: number): TermPostings {
    let p = this.decoded.get(t);
    if (!p) this.decoded.set(t, (p = this.decode(t)));
    return p;
  }

  private decode(t: number): TermPostings {
    const F = this.fieldNames.length;
    const D = this.docCount;
    const at = this.recordOf(t);
    const bytes = this.block(Math.floor(t / BLOCK));
    const blockEnd = bytes.length;
    const n = this.varint(bytes, at, blockEnd);
    const size = this.varint(bytes, this.next, blockEnd);
    let p = this.next;
    const end = p + size;
    if (end > blockEnd || n > D || size < 2 * n) throw corruptRecords(`the postings of term ${t}`);
    const doc = new Uint32Array(n);
    const tf = new Uint16Array(n * F);
    const varint = (): number => {
      const v = this.varint(bytes, p, end);
      p = this.next;
      return v;
    };
    let prev = -1;
    for (let i = 0; i < n; i++) {
      const b0 = bytes[p];
      const gap = b0 < 0x80 && p < end ? (p++, b0) : varint();
      const d = prev + 1 + gap;
      if (d >= D) throw corruptRecords(`the postings of term ${t}`);
      doc[i] = prev = d;
      if (F === 3) {
        if (p >= end) throw corruptRecords(`the postings of term ${t}`);
        const h = bytes[p++];
        if (h !== 0xf0) {
          if ((h >> 4) === 15) throw corruptRecords(`the postings of term ${t}`);
          tf[3 * i] = h & 3;
          tf[3 * i + 1] = (h >> 2) & 3;
          tf[3 * i + 2] = h >> 4;
          continue;
        }
      }
      for (let f = 0; f < F; f++) {
        const v = varint();
        if (v > 65535) throw corruptRecords(`the postings of term ${t}`);
        tf[i * F + f] = v;
      }
    }
    if (p !== end) throw corruptRecords(`the postings of term ${t}`);
    return { doc, tf };
  }
}

function isHeader(x: unknown): x is Header<unknown> {
  return isRecord(x) && isStringArray(x.fieldNames) && x.fieldNames.length > 0 && isInt(x.docCount) && isInt(x.termCount) &&
    isInt(x.auxLength) && isInt(x.extraBytes) && (x.lengthBytes === 2 || x.lengthBytes === 4) && isInt(x.keyBytes);
}
