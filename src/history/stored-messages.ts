/**
 * A commit-message index ({@link CosineIndex} of src/history/similarity.ts) as a cache file
 * holds it, laid out to be used as it lies: a read builds no object per term or posting; a
 * query's terms are found by binary search and only their postings are decoded.
 *
 * Sections (T terms, in ascending UTF-8 byte order, so a term's id is its rank):
 *   termStart (int32, T + 1: byte offsets into termBytes) · postStart (int32, T + 1: the number
 *   of postings before each term) · postByte (int32, T + 1: byte offsets into postingBytes)
 *   · termBytes (the terms' UTF-8 bytes, one after the other) · postingBytes.
 * The postings of a term: documents ascending, each as the varint (LEB128) of 2 × (the gap to
 * the previous document minus 1; the first: its id) + (tf > 1 ? 1 : 0), then, when that bit is
 * set, the varint of tf. A reader computes 1 + ln tf as the built index does ({@link logTfOf}),
 * so the scores are those of the index the file was written from, bit for bit.
 */
import { logTfOf, type CosineTables, type StoredCosine, type TermPostings } from './similarity.js';

/** The sections of a stored message index (see the module comment). */
export interface MessageSections {
  readonly termStart: Int32Array;
  readonly postStart: Int32Array;
  readonly postByte: Int32Array;
  readonly termBytes: Uint8Array;
  readonly postingBytes: Uint8Array;
}

/** A growable byte buffer of varints. */
class ByteSink {
  buf = new Uint8Array(1 << 16);
  size = 0;

  varint(v: number): void {
    if (this.size + 5 > this.buf.length) {
      const next = new Uint8Array(this.buf.length * 2);
      next.set(this.buf.subarray(0, this.size));
      this.buf = next;
    }
    while (v >= 0x80) {
      this.buf[this.size++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.size++] = v;
  }
}

/** The sections of `tables` (terms reordered by their UTF-8 bytes; the postings as they are). */
export function encodeMessages(tables: CosineTables): MessageSections {
  const { terms, postStart: from, postDoc, postTf } = tables;
  const T = terms.length;
  const encoded = terms.map((t) => Buffer.from(t, 'utf8'));
  const order = Array.from({ length: T }, (_, t) => t).sort((a, b) => Buffer.compare(encoded[a], encoded[b]));
  const termStart = new Int32Array(T + 1);
  const postStart = new Int32Array(T + 1);
  const postByte = new Int32Array(T + 1);
  const termBytes = Buffer.concat(order.map((t) => encoded[t]));
  const sink = new ByteSink();
  order.forEach((t, rank) => {
    termStart[rank + 1] = termStart[rank] + encoded[t].length;
    postStart[rank + 1] = postStart[rank] + (from[t + 1] - from[t]);
    let prev = -1;
    for (let p = from[t]; p < from[t + 1]; p++) {
      const tf = postTf[p];
      if (postDoc[p] <= prev || tf < 1) throw new Error('message postings out of order');
      sink.varint(2 * (postDoc[p] - prev - 1) + (tf > 1 ? 1 : 0));
      if (tf > 1) sink.varint(tf);
      prev = postDoc[p];
    }
    postByte[rank + 1] = sink.size;
  });
  return { termStart, postStart, postByte, termBytes, postingBytes: sink.buf.subarray(0, sink.size) };
}

/** Whether `a` starts at 0, ends at `end` and never descends. */
export function ascending(a: Int32Array, end: number): boolean {
  if (a[0] !== 0 || a[a.length - 1] !== end) return false;
  for (let k = 1; k < a.length; k++) if (a[k] < a[k - 1]) return false;
  return true;
}

/**
 * A stored message index over `size` documents, as {@link CosineIndex} uses it. The sections'
 * lengths and ends are checked here; the offsets of a term when it is looked up or its postings
 * decoded (a query reads a few terms of tens of thousands: the file's checksum already holds, so
 * only a bug of the writer could break them, and that throws when met).
 */
export class StoredMessages implements StoredCosine {
  private readonly terms: Buffer;
  private readonly postings_: Uint8Array;
  private readonly decoded = new Map<number, TermPostings>();
  private readonly looked = new Map<string, number>();

  /** @throws Error when the sections do not fit together. */
  constructor(private readonly s: MessageSections, readonly norms: Float64Array) {
    const T = s.termStart.length - 1;
    if (T < 0 || s.postStart.length !== T + 1 || s.postByte.length !== T + 1) throw new Error('bad message sections');
    if (s.termStart[0] !== 0 || s.termStart[T] !== s.termBytes.length || s.postByte[0] !== 0 || s.postByte[T] !== s.postingBytes.length) throw new Error('bad message offsets');
    if (s.postStart[0] !== 0) throw new Error('bad message postings');
    this.terms = Buffer.from(s.termBytes.buffer, s.termBytes.byteOffset, s.termBytes.length);
    this.postings_ = s.postingBytes;
  }

  get postStart(): Int32Array {
    return this.s.postStart;
  }

  termId(term: string): number | undefined {
    const known = this.looked.get(term);
    if (known !== undefined) return known < 0 ? undefined : known;
    const key = Buffer.from(term, 'utf8');
    const { termStart } = this.s;
    let lo = 0, hi = termStart.length - 2, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const from = termStart[mid], to = termStart[mid + 1];
      if (!(from >= 0 && from <= to && to <= this.terms.length)) throw new Error('stored message index: the terms cannot be read');
      const c = this.terms.compare(key, 0, key.length, from, to);
      if (c === 0) { found = mid; break; }
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    if (this.looked.size < 100_000) this.looked.set(term, found);
    return found < 0 ? undefined : found;
  }

  postings(t: number): TermPostings {
    let p = this.decoded.get(t);
    if (!p) this.decoded.set(t, (p = this.decode(t)));
    return p;
  }

  private decode(t: number): TermPostings {
    const { postStart, postByte } = this.s;
    const bytes = this.postings_;
    const n = postStart[t + 1] - postStart[t];
    const end = postByte[t + 1];
    const N = this.norms.length;
    // offsets in order, at least a byte per posting
    if (!(n >= 0 && postByte[t] >= 0 && end - postByte[t] >= n && end <= bytes.length)) throw new Error(`stored message index: the postings of term ${t} cannot be decoded`);
    const doc = new Int32Array(n);
    const logTf = new Float32Array(n);
    let at = postByte[t];
    const varint = (): number => {
      let v = 0, scale = 1, b: number;
      do {
        if (at >= end || scale > 2 ** 28) throw new Error(`stored message index: the postings of term ${t} cannot be decoded`);
        b = bytes[at++];
        v += (b & 0x7f) * scale;
        scale *= 128;
      } while (b & 0x80);
      return v;
    };
    let prev = -1;
    for (let i = 0; i < n; i++) {
      const v = varint();
      const d = prev + 1 + Math.floor(v / 2);
      if (d >= N) throw new Error(`stored message index: the postings of term ${t} cannot be decoded`);
      doc[i] = prev = d;
      logTf[i] = v % 2 === 1 ? logTfOf(varint()) : 1;
    }
    if (at !== end) throw new Error(`stored message index: the postings of term ${t} cannot be decoded`);
    return { doc, logTf };
  }
}
