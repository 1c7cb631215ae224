/**
 * The JSON of a blob cache entry (`{ key, units }`, src/index/blob-terms.ts) written and read as
 * bytes: the bytes `JSON.stringify` gives, without the string it makes, the [term, count] pair
 * arrays of the bodies, or their encoding to UTF-8; and read back into counts by term id without
 * an array or a string per pair. A cold index of sympy writes 908 entries (20 MB) and a warm one
 * reads them, ≈ 1.6 million pairs.
 *
 * Reading takes only the bytes this writer gives (no white space, keys in its order, strings
 * without escapes, integers in plain digits); anything else is left to `JSON.parse` by the
 * caller, so what an entry holds never depends on which of the two read it.
 */
import type { UnitKind } from '../corpus/types.js';
import { IdCounts } from './inverted-index.js';

/** What indexing keeps of one code unit of a blob: its place and its body's term counts. */
export interface UnitTerms {
  kind: UnitKind;
  qualifiedName: string;
  /** Namespace qualifiers leading the qualified name (`CodeUnit.namespaceParts`; absent: none). */
  namespaceParts?: number;
  startLine: number;
  endLine: number;
  /**
   * [term, count] pairs of the unit's body (source text, cut to the configured word budget); a
   * unit just parsed holds them by the ids of its build's dictionary (in JSON: the pairs).
   */
  body: readonly (readonly [string, number])[] | IdCounts;
  /** Tokens in the body (the BM25F body-field length). */
  bodyLength: number;
}

/** A term dictionary the reader counts into: the id of a term, made when new. */
export interface TermDictionary {
  readonly terms: readonly string[];
  termId(term: string): number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KINDS: readonly UnitKind[] = ['file', 'class', 'function'];

/** The UTF-8 bytes of an ASCII string. */
const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

const OPEN_KEY = ascii('{"key":');
const OPEN_UNITS = ascii(',"units":[');
const OPEN_KIND = ascii('{"kind":"');
const OPEN_NAME = ascii('","qualifiedName":');
const OPEN_NAMESPACE = ascii(',"namespaceParts":');
const OPEN_START = ascii(',"startLine":');
const OPEN_END = ascii(',"endLine":');
const OPEN_BODY = ascii(',"body":[');
const OPEN_LENGTH = ascii('],"bodyLength":');
const KIND_BYTES = KINDS.map(ascii);

/**
 * Writes blob entries as `JSON.stringify({ key, units })` would, byte for byte, into one buffer
 * reused from entry to entry. The JSON of each term of a dictionary is made once.
 */
export class BlobEntryWriter {
  private buf = Buffer.allocUnsafe(1 << 16);
  private size = 0;
  private dictionary: readonly string[] | undefined;
  private termJson: (Uint8Array | undefined)[] = [];
  /** A number not a safe integer ≥ 0 was met: the entry is left to `JSON.stringify`. */
  private odd = false;

  /**
   * The entry's bytes (a view of the writer's buffer, valid until the next call), or undefined
   * when a body is not by term ids (`IdCounts`) or a number is not a safe integer ≥ 0: then
   * `JSON.stringify` writes it.
   */
  encode(key: string, units: readonly UnitTerms[]): Uint8Array | undefined {
    if (!units.every((u) => u.body instanceof IdCounts)) return undefined;
    this.size = 0;
    this.odd = false;
    this.bytes(OPEN_KEY);
    this.json(key);
    this.bytes(OPEN_UNITS);
    units.forEach((u, i) => {
      if (i > 0) this.byte(0x2c);
      this.bytes(OPEN_KIND);
      this.bytes(ascii(u.kind));
      this.bytes(OPEN_NAME);
      this.json(u.qualifiedName);
      // as the object spread of the build: the field only when not 0
      if (u.namespaceParts !== undefined) {
        this.bytes(OPEN_NAMESPACE);
        this.int(u.namespaceParts);
      }
      this.bytes(OPEN_START);
      this.int(u.startLine);
      this.bytes(OPEN_END);
      this.int(u.endLine);
      this.bytes(OPEN_BODY);
      this.body(u.body as IdCounts);
      this.bytes(OPEN_LENGTH);
      this.int(u.bodyLength);
      this.byte(0x7d);
    });
    this.byte(0x5d);
    this.byte(0x7d);
    return this.odd ? undefined : this.buf.subarray(0, this.size);
  }

  private body({ terms, entries }: IdCounts): void {
    if (terms !== this.dictionary) {
      this.dictionary = terms;
      this.termJson = [];
    }
    for (let k = 0; k < entries.length; k += 2) {
      if (k > 0) this.byte(0x2c);
      this.byte(0x5b);
      const id = entries[k];
      this.bytes(this.termJson[id] ??= Buffer.from(JSON.stringify(terms[id]), 'utf8'));
      this.byte(0x2c);
      this.int(entries[k + 1]);
      this.byte(0x5d);
    }
  }

  private room(n: number): void {
    if (this.size + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.size + n) cap *= 2;
    const next = Buffer.allocUnsafe(cap);
    this.buf.copy(next, 0, 0, this.size);
    this.buf = next;
  }

  private byte(b: number): void {
    this.room(1);
    this.buf[this.size++] = b;
  }

  private bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.size);
    this.size += b.length;
  }

  /** A string as JSON. */
  private json(s: string): void {
    const text = JSON.stringify(s);
    this.room(3 * text.length);
    this.size += this.buf.write(text, this.size, 'utf8');
  }

  /** A number as JSON (`JSON.stringify` of a safe integer ≥ 0: its decimal digits). */
  private int(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) {
      this.odd = true; // never in an entry the build makes: JSON.stringify writes it
      return;
    }
    this.room(16);
    if (n < 10) {
      this.buf[this.size++] = 0x30 + n;
      return;
    }
    const start = this.size;
    while (n > 0) {
      this.buf[this.size++] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    this.buf.subarray(start, this.size).reverse();
  }
}

/**
 * Reads the entries {@link BlobEntryWriter} writes into counts by the ids of a dictionary. Keeps
 * the dictionary id of each term's bytes seen (open addressing on a hash of the bytes), so a term
 * met again makes no string.
 */
export class BlobEntryReader {
  private slots = new Int32Array(1 << 12);
  /** Per memo entry: where its bytes lie in `arena`, their hash and the term id. */
  private arena = new Uint8Array(1 << 16);
  private arenaSize = 0;
  private readonly start: number[] = [];
  private readonly size: number[] = [];
  private readonly hash: number[] = [];
  private readonly id: number[] = [];
  private pairs = new Int32Array(1 << 12);
  // the entry being read
  private p = 0;
  private b: Uint8Array = new Uint8Array(0);

  constructor(private readonly dictionary: TermDictionary) {}

  /**
   * The units of an entry of `key` with bodies by the dictionary's ids (one buffer for all of
   * them), or undefined when `payload` is not in the writer's form (then JSON decides: it may
   * still be a valid entry, or a corrupt one). Terms of an entry not read may still have been
   * added to the dictionary.
   */
  read(payload: Uint8Array, key: string): UnitTerms[] | undefined {
    this.b = payload;
    this.p = 0;
    const units: UnitTerms[] = [];
    const bodyAt: number[] = [];
    let n = 0;
    if (!this.expect(OPEN_KEY)) return undefined;
    if (this.string() !== key || !this.expect(OPEN_UNITS)) return undefined;
    if (this.b[this.p] !== 0x5d) {
      for (;;) {
        if (!this.expect(OPEN_KIND)) return undefined;
        const kind = KINDS.find((_, i) => this.expect(KIND_BYTES[i]));
        if (kind === undefined || !this.expect(OPEN_NAME)) return undefined;
        const qualifiedName = this.string();
        if (qualifiedName === undefined) return undefined;
        let namespaceParts: number | undefined;
        if (this.expect(OPEN_NAMESPACE)) {
          namespaceParts = this.int();
          if (namespaceParts < 0) return undefined;
        }
        if (!this.expect(OPEN_START)) return undefined;
        const startLine = this.int();
        if (startLine < 0 || !this.expect(OPEN_END)) return undefined;
        const endLine = this.int();
        if (endLine < 0 || !this.expect(OPEN_BODY)) return undefined;
        bodyAt.push(n);
        if (this.b[this.p] !== 0x5d) {
          for (;;) {
            if (this.b[this.p++] !== 0x5b || this.b[this.p] !== QUOTE) return undefined;
            const id = this.termId();
            if (id < 0 || this.b[this.p++] !== 0x2c) return undefined;
            const count = this.int();
            if (count < 0 || this.b[this.p++] !== 0x5d) return undefined;
            if (n + 2 > this.pairs.length) this.growPairs();
            this.pairs[n++] = id;
            this.pairs[n++] = count;
            if (this.b[this.p] !== 0x2c) break;
            this.p++;
          }
        }
        if (!this.expect(OPEN_LENGTH)) return undefined;
        const bodyLength = this.int();
        if (bodyLength < 0 || this.b[this.p++] !== 0x7d) return undefined;
        units.push({ kind, qualifiedName, ...(namespaceParts !== undefined ? { namespaceParts } : {}), startLine, endLine, body: [], bodyLength });
        if (this.b[this.p] !== 0x2c) break;
        this.p++;
      }
    }
    if (this.b[this.p++] !== 0x5d || this.b[this.p++] !== 0x7d || this.p !== this.b.length) return undefined;
    const entries = this.pairs.slice(0, n);
    bodyAt.push(n);
    units.forEach((u, i) => {
      u.body = new IdCounts(this.dictionary.terms, entries.subarray(bodyAt[i], bodyAt[i + 1]));
    });
    return units;
  }

  /** Whether `bytes` come next (then read past them). */
  private expect(bytes: Uint8Array): boolean {
    const { b, p } = this;
    if (p + bytes.length > b.length) return false;
    for (let i = 0; i < bytes.length; i++) if (b[p + i] !== bytes[i]) return false;
    this.p = p + bytes.length;
    return true;
  }

  /** A JSON integer in plain digits (at most 15), or −1. */
  private int(): number {
    const { b } = this;
    const start = this.p;
    let n = 0;
    while (this.p < b.length && b[this.p] >= 0x30 && b[this.p] <= 0x39) n = n * 10 + b[this.p++] - 0x30;
    const digits = this.p - start;
    if (digits === 0 || digits > 15 || (digits > 1 && b[start] === 0x30)) return -1;
    return n;
  }

  /** Where the string starting at `p` (its opening quote) ends (its closing quote), or −1 when it holds an escape or a control character. */
  private stringEnd(): number {
    const { b } = this;
    if (b[this.p] !== QUOTE) return -1;
    for (let i = this.p + 1; i < b.length; i++) {
      const c = b[i];
      if (c === QUOTE) return i;
      if (c === BACKSLASH || c < 0x20) return -1;
    }
    return -1;
  }

  /** A string without escapes, or undefined. */
  private string(): string | undefined {
    const end = this.stringEnd();
    if (end < 0) return undefined;
    const s = Buffer.from(this.b.buffer, this.b.byteOffset + this.p + 1, end - this.p - 1).toString('utf8');
    this.p = end + 1;
    return s;
  }

  /** The dictionary id of the term string at `p` (its opening quote), or −1. */
  private termId(): number {
    const { b } = this;
    const from = this.p + 1;
    let end = from;
    let h = 0;
    for (;;) {
      if (end >= b.length) return -1;
      const c = b[end];
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 0x20) return -1;
      h = (Math.imul(h, 31) + c) | 0;
      end++;
    }
    this.p = end + 1;
    const length = end - from;
    const { slots, hash, start, size, arena } = this;
    let mask = slots.length - 1;
    let at = h & mask;
    search: for (let e = slots[at]; e !== 0; at = (at + 1) & mask, e = slots[at]) {
      if (hash[e - 1] !== h || size[e - 1] !== length) continue;
      const a = start[e - 1];
      for (let i = 0; i < length; i++) if (arena[a + i] !== b[from + i]) continue search;
      return this.id[e - 1];
    }
    const id = this.dictionary.termId(Buffer.from(b.buffer, b.byteOffset + from, length).toString('utf8'));
    if (this.arenaSize + length > arena.length) {
      const next = new Uint8Array(Math.max(2 * arena.length, this.arenaSize + length));
      next.set(arena.subarray(0, this.arenaSize));
      this.arena = next;
    }
    this.arena.set(b.subarray(from, end), this.arenaSize);
    start.push(this.arenaSize);
    this.arenaSize += length;
    size.push(length);
    hash.push(h);
    this.id.push(id);
    const entries = this.id.length;
    if (2 * entries > slots.length) {
      this.slots = new Int32Array(slots.length * 2);
      mask = this.slots.length - 1;
      for (let e = 0; e < entries; e++) {
        let a = hash[e] & mask;
        while (this.slots[a] !== 0) a = (a + 1) & mask;
        this.slots[a] = e + 1;
      }
    } else {
      slots[at] = entries;
    }
    return id;
  }

  private growPairs(): void {
    const next = new Int32Array(this.pairs.length * 2);
    next.set(this.pairs);
    this.pairs = next;
  }
}
