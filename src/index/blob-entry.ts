/**
 * The bytes of a blob cache entry (src/index/blob-terms.ts): the units of one blob with their
 * body term counts, written and read without a [term, count] pair array, a JSON string or a
 * string per pair. Each term of an entry is written once, then every count refers to it by its
 * number in the entry, so a warm build decodes each distinct term of a blob once and the rest
 * are small integers. A cold index of sympy writes 826 entries and a warm one reads them,
 * ≈ 1.6 million (term, count) pairs.
 *
 * Layout (every integer an unsigned LEB128 varint below 2^49, strings as byte length + UTF-8):
 *
 *   key · T · T × term · U · U × (kind · qualifiedName · namespaceParts + 1 (0: none) · startLine
 *   · endLine · bodyLength · P · P × (term number < T · count) · N + 1 (0: none) · N × (term number < T · count))
 *
 * `kind` 0 file, 1 class, 2 function; the pairs of the body, then of the name, each in the unit's
 * order (the first-seen order of its terms, which the index keeps); terms are numbered in first
 * use, unit by unit, body before name. A payload not ending right after its last unit, or holding a
 * number out of range, is no entry (the reader gives undefined: corrupt).
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
   * unit just parsed or read by a build holds them by the ids of its build's dictionary.
   */
  body: readonly (readonly [string, number])[] | IdCounts;
  /** Tokens in the body (the BM25F body-field length). */
  bodyLength: number;
  /**
   * [term, count] pairs of `tokenize(qualifiedName)` (the name field), in first-seen order, by ids
   * as `body` is; absent: the index tokenizes the name itself. A build keeps them with the body
   * (src/index/unit-bodies.ts), so an index made from the blob cache tokenizes no name.
   */
  nameTerms?: readonly (readonly [string, number])[] | IdCounts;
}

/** A term dictionary the reader counts into: the id of a term, made when new. */
export interface TermDictionary {
  readonly terms: readonly string[];
  termId(term: string): number;
}

const KINDS: readonly UnitKind[] = ['file', 'class', 'function'];
/** Numbers of an entry stay below this (7 varint bytes): a safe integer, checked on both sides. */
const LIMIT = 2 ** 49;

/**
 * Writes blob entries into one buffer reused from entry to entry; the UTF-8 bytes of each term
 * of a dictionary are made once.
 */
export class BlobEntryWriter {
  private buf = Buffer.allocUnsafe(1 << 16);
  private size = 0;
  private dictionary: readonly string[] | undefined;
  private termBytes: (Buffer | undefined)[] = [];
  // per dictionary id: the entry (`stamp`) that numbered it last and its number there
  private stampOf = new Int32Array(1024);
  private numberOf = new Int32Array(1024);
  private stamp = 0;
  /** A number out of range was met: the entry is not written. */
  private odd = false;

  /**
   * The entry's bytes (a view of the writer's buffer, valid until the next call), or undefined
   * when a number is not an integer in [0, 2^49) (never in an entry a build makes).
   */
  encode(key: string, units: readonly UnitTerms[]): Uint8Array | undefined {
    this.size = 0;
    this.odd = false;
    this.text(key);
    // the entry's terms, numbered in first use; each pair's term as its number
    const stamp = ++this.stamp;
    const terms: (string | number)[] = [];
    const numbered = new Map<string, number>();
    // a list of counts as (term number, count) pairs, its new terms numbered
    const numberPairs = (list: NonNullable<UnitTerms['nameTerms']>): Int32Array => {
      if (list instanceof IdCounts) {
        this.useDictionary(list.terms);
        const { entries } = list;
        const out = new Int32Array(entries.length);
        for (let k = 0; k < entries.length; k += 2) {
          const id = entries[k];
          if (this.stampOf[id] !== stamp) {
            this.stampOf[id] = stamp;
            this.numberOf[id] = terms.length;
            terms.push(id);
          }
          out[k] = this.numberOf[id];
          out[k + 1] = entries[k + 1];
        }
        return out;
      }
      const out = new Int32Array(2 * list.length);
      list.forEach(([term, count], k) => {
        let n = numbered.get(term);
        if (n === undefined) {
          numbered.set(term, n = terms.length);
          terms.push(term);
        }
        out[2 * k] = n;
        if (!(Number.isInteger(count) && count >= 0 && count <= 0x7fffffff)) this.odd = true;
        out[2 * k + 1] = count;
      });
      return out;
    };
    const pairs: Int32Array[] = [];
    const namePairs: (Int32Array | undefined)[] = [];
    for (const u of units) {
      pairs.push(numberPairs(u.body));
      namePairs.push(u.nameTerms && numberPairs(u.nameTerms));
    }
    this.uint(terms.length);
    for (const t of terms) {
      if (typeof t === 'string') this.text(t);
      else this.termOf(t);
    }
    this.uint(units.length);
    units.forEach((u, i) => {
      this.uint(KINDS.indexOf(u.kind));
      this.text(u.qualifiedName);
      this.uint(u.namespaceParts === undefined ? 0 : u.namespaceParts + 1);
      this.uint(u.startLine);
      this.uint(u.endLine);
      this.uint(u.bodyLength);
      this.pairs(pairs[i]);
      const name = namePairs[i];
      if (name) this.pairs(name, 1);
      else this.uint(0);
    });
    return this.odd ? undefined : this.buf.subarray(0, this.size);
  }

  /** The number of pairs of `p` (plus `offset`), then its numbers. */
  private pairs(p: Int32Array, offset = 0): void {
    this.uint((p.length >> 1) + offset);
    this.room(10 * p.length);
    for (let k = 0; k < p.length; k++) this.uint(p[k]);
  }

  /** Makes the numbering arrays cover `terms` (and forgets the bytes of another dictionary). */
  private useDictionary(terms: readonly string[]): void {
    if (terms !== this.dictionary) {
      this.dictionary = terms;
      this.termBytes = [];
    }
    if (terms.length > this.stampOf.length) {
      let cap = this.stampOf.length * 2;
      while (cap < terms.length) cap *= 2;
      const stamps = new Int32Array(cap);
      stamps.set(this.stampOf);
      this.stampOf = stamps;
      const numbers = new Int32Array(cap);
      numbers.set(this.numberOf);
      this.numberOf = numbers;
    }
  }

  /** The term of dictionary id `id`, its bytes made once. */
  private termOf(id: number): void {
    const bytes = this.termBytes[id] ??= Buffer.from(this.dictionary![id], 'utf8');
    this.uint(bytes.length);
    this.room(bytes.length);
    bytes.copy(this.buf, this.size);
    this.size += bytes.length;
  }

  private room(n: number): void {
    if (this.size + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.size + n) cap *= 2;
    const next = Buffer.allocUnsafe(cap);
    this.buf.copy(next, 0, 0, this.size);
    this.buf = next;
  }

  /** A string: its UTF-8 byte length, then the bytes. */
  private text(s: string): void {
    const bytes = Buffer.byteLength(s, 'utf8');
    this.uint(bytes);
    this.room(bytes);
    this.size += this.buf.write(s, this.size, 'utf8');
  }

  /** An unsigned LEB128 varint (a number out of range marks the entry odd). */
  private uint(n: number): void {
    if (!(Number.isInteger(n) && n >= 0 && n < LIMIT)) {
      this.odd = true;
      return;
    }
    this.room(7);
    const { buf } = this;
    while (n >= 0x80) {
      buf[this.size++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    buf[this.size++] = n;
  }
}

/**
 * Reads the entries {@link BlobEntryWriter} writes: into counts by the ids of a dictionary
 * ({@link read}), or into [term, count] pairs ({@link readPairs}). Keeps the dictionary id of
 * each term's bytes seen (open addressing on a hash of the bytes), so a term met again in
 * another entry makes no string.
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
  private numbers = new Int32Array(1024);
  // the entry being read
  private p = 0;
  private b: Uint8Array = new Uint8Array(0);

  /** @param dictionary where {@link read} counts into (not needed by {@link readPairs}). */
  constructor(private readonly dictionary?: TermDictionary) {}

  /**
   * The units of an entry of `key` with bodies by the dictionary's ids (one buffer for all of
   * them), or undefined when `payload` is no entry of `key` (corrupt). Terms of an entry found
   * corrupt may still have been added to the dictionary.
   */
  read(payload: Uint8Array, key: string): UnitTerms[] | undefined {
    const dictionary = this.dictionary;
    if (!dictionary) throw new Error('BlobEntryReader.read needs a dictionary');
    return this.entry(payload, key, (T) => {
      const ids = this.identity(T);
      for (let t = 0; t < T; t++) {
        const id = this.termId(dictionary);
        if (id < 0) return undefined;
        ids[t] = id;
      }
      return ids;
    }, (entries, from, to) => new IdCounts(dictionary.terms, entries.subarray(from, to)));
  }

  /** The units of an entry of `key` with their bodies as [term, count] pairs, or undefined (corrupt). */
  readPairs(payload: Uint8Array, key: string): UnitTerms[] | undefined {
    const terms: string[] = [];
    return this.entry(payload, key, (T) => {
      for (let t = 0; t < T; t++) {
        const s = this.string();
        if (s === undefined) return undefined;
        terms.push(s);
      }
      return this.identity(T);
    }, (entries, from, to) => {
      const pairs: [string, number][] = [];
      for (let k = from; k < to; k += 2) pairs.push([terms[entries[k]], entries[k + 1]]);
      return pairs;
    });
  }

  /** The numbers 0 … T − 1 (a term number as its own id). */
  private identity(T: number): Int32Array {
    if (T > this.numbers.length) this.numbers = new Int32Array(Math.max(T, 2 * this.numbers.length));
    for (let t = 0; t < T; t++) this.numbers[t] = t;
    return this.numbers;
  }

  /**
   * The common reading of an entry: `termsIn(T)` reads the T terms and gives each term number's
   * id (undefined: corrupt), `body` makes a unit's body of its pairs `entries[from .. to)`.
   */
  private entry(
    payload: Uint8Array, key: string, termsIn: (T: number) => Int32Array | undefined,
    body: (entries: Int32Array, from: number, to: number) => UnitTerms['body'],
  ): UnitTerms[] | undefined {
    this.b = payload;
    this.p = 0;
    if (this.string() !== key) return undefined;
    const T = this.uint();
    if (T < 0 || T > payload.length) return undefined;
    const ids = termsIn(T);
    if (!ids) return undefined;
    const U = this.uint();
    if (U < 0 || U > payload.length) return undefined;
    const units: UnitTerms[] = [];
    // where each unit's body pairs start in `pairs`, and its name pairs (−1: none)
    const bodyAt: number[] = [];
    const nameAt: number[] = [];
    let n = 0;
    /** Reads P pairs into `pairs` from `n` on; false: corrupt. */
    const readInto = (P: number): boolean => {
      if (n + 2 * P > this.pairs.length) this.growPairs(n + 2 * P);
      const { pairs } = this;
      for (let k = 0; k < P; k++) {
        const t = this.uint();
        const count = this.uint();
        if (t < 0 || t >= T || count < 0 || count > 0x7fffffff) return false;
        pairs[n++] = ids[t];
        pairs[n++] = count;
      }
      return true;
    };
    for (let i = 0; i < U; i++) {
      const kind = KINDS[this.uint()];
      const qualifiedName = this.string();
      const namespace = this.uint();
      const startLine = this.uint();
      const endLine = this.uint();
      const bodyLength = this.uint();
      const P = this.uint();
      if (kind === undefined || qualifiedName === undefined || namespace < 0 || startLine < 0 || endLine < 0 || bodyLength < 0 ||
          P < 0 || P > payload.length) return undefined;
      bodyAt.push(n);
      if (!readInto(P)) return undefined;
      const N = this.uint() - 1;
      if (N < -1 || N > payload.length) return undefined;
      nameAt.push(N < 0 ? -1 : n);
      if (N > 0 && !readInto(N)) return undefined;
      units.push({ kind, qualifiedName, ...(namespace > 0 ? { namespaceParts: namespace - 1 } : {}), startLine, endLine, body: [], bodyLength });
    }
    if (this.p !== payload.length) return undefined;
    const entries = this.pairs.slice(0, n);
    units.forEach((u, i) => {
      const name = nameAt[i];
      const end = i + 1 < units.length ? bodyAt[i + 1] : n;
      u.body = body(entries, bodyAt[i], name < 0 ? end : name);
      if (name >= 0) u.nameTerms = body(entries, name, end);
    });
    return units;
  }

  /** An unsigned LEB128 varint below 2^49, or −1. */
  private uint(): number {
    const { b } = this;
    let n = 0;
    let scale = 1;
    for (let i = 0; i < 7; i++) {
      if (this.p >= b.length) return -1;
      const c = b[this.p++];
      n += (c & 0x7f) * scale;
      if (c < 0x80) return n;
      scale *= 0x80;
    }
    return -1;
  }

  /** A string (byte length, UTF-8 bytes), or undefined. */
  private string(): string | undefined {
    const length = this.uint();
    if (length < 0 || this.p + length > this.b.length) return undefined;
    const s = Buffer.from(this.b.buffer, this.b.byteOffset + this.p, length).toString('utf8');
    this.p += length;
    return s;
  }

  /** The dictionary id of the term (byte length, UTF-8 bytes) at `p`, or −1. */
  private termId(dictionary: TermDictionary): number {
    const length = this.uint();
    const { b } = this;
    if (length < 0 || this.p + length > b.length) return -1;
    const from = this.p;
    const end = from + length;
    this.p = end;
    let h = 0;
    for (let i = from; i < end; i++) h = (Math.imul(h, 31) + b[i]) | 0;
    const { slots, hash, start, size, arena } = this;
    let mask = slots.length - 1;
    let at = h & mask;
    search: for (let e = slots[at]; e !== 0; at = (at + 1) & mask, e = slots[at]) {
      if (hash[e - 1] !== h || size[e - 1] !== length) continue;
      const a = start[e - 1];
      for (let i = 0; i < length; i++) if (arena[a + i] !== b[from + i]) continue search;
      return this.id[e - 1];
    }
    const id = dictionary.termId(Buffer.from(b.buffer, b.byteOffset + from, length).toString('utf8'));
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

  private growPairs(n: number): void {
    let cap = this.pairs.length * 2;
    while (cap < n) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.pairs);
    this.pairs = next;
  }
}
