/**
 * The body terms of all the units of one file at once. A file's units nest (the file unit holds
 * its classes, a class its methods), so tokenizing each unit's text on its own tokenizes most
 * words two or three times; here each word of the file is tokenized once, and each unit counts
 * the words of its range by term id. The result is exactly `bodyTerms` (src/index/code-index.ts)
 * of each unit's text: the same terms, counts, order and length.
 */
import { charClass } from '../text/identifier-split.js';
import { createTokenizer, type Tokenizer } from '../text/tokenize.js';
import { IdCounts } from './inverted-index.js';
import type { TermDictionary } from './blob-entry.js';

/** A unit's text as a range of its file's text, and the words of it its body keeps (0 = all). */
export interface BodyRange {
  from: number;
  to: number;
  maxWords: number;
}

/** What `bodyTerms` gives for one unit, its counts by the ids of the counter's dictionary. */
export interface BodyTerms {
  body: IdCounts;
  bodyLength: number;
}

/** Words memoised before the memo (and the term dictionary) is emptied and refilled, between files. */
const MAX_WORDS = 1 << 18;
const NO_IDS = new Int32Array(0);

/** A growable Int32Array with a fill count. */
class I32List {
  buf = new Int32Array(1024);
  size = 0;

  push(x: number): void {
    if (this.size === this.buf.length) this.grow(this.size + 1);
    this.buf[this.size++] = x;
  }

  /** Makes room for `n` values in all. */
  grow(n: number): void {
    if (n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < n) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.buf.subarray(0, this.size));
    this.buf = next;
  }
}

/**
 * Body terms of the units of files, one file at a time (`unitBodies`); keeps a word memo and a
 * term dictionary across files of one build. Options are `tokenize`'s defaults but `stem`.
 *
 * The word memo is an open-addressing table keyed by a hash computed while scanning, so a word
 * seen before is found by comparing it in place (no substring, no string hashing).
 */
export class UnitBodyCounter implements TermDictionary {
  private readonly termIdOf = new Map<string, number>();
  /** The term dictionary: the term of each id. */
  readonly terms: string[] = [];
  // the word memo: slots hold entry + 1 (0: empty); an entry has its word, hash, length and token
  // ids (`wordTokens[wordTokenFrom[e] .. wordTokenTo[e])`), in typed arrays but the word,
  // which is compared only when the hash and length match
  private slots = new Int32Array(1 << 12);
  private readonly words: string[] = [];
  private readonly wordHash = new I32List();
  private readonly wordLength = new I32List();
  private readonly wordTokenFrom = new I32List();
  private readonly wordTokenTo = new I32List();
  private readonly wordTokens = new I32List();
  private counts = new Int32Array(1024);
  private readonly seen: number[] = [];
  // per file: the identifier runs (`[A-Za-z0-9_]+`) and their tokens' term ids one after the
  // other (run r's at tokenStart[r] .. tokenStart[r + 1])
  private readonly runStart = new I32List();
  private readonly runEnd = new I32List();
  private readonly tokenStart = new I32List();
  private readonly tokens = new I32List();
  /** The (term id, count) pairs of the units of the file, one unit after the other. */
  private readonly entries = new I32List();

  /** `tokenize`'s tokenizer with `stem`: the tokens of one identifier run are its word tokens. */
  private readonly tokenizer: Tokenizer;

  constructor(stem: boolean) {
    this.tokenizer = createTokenizer({ stem });
  }

  /** The body terms of each range of `text`, as `bodyTerms(text.slice(from, to), maxWords, stem)`. */
  unitBodies(text: string, ranges: readonly BodyRange[]): BodyTerms[] {
    if (this.words.length > MAX_WORDS) this.forget();
    this.scanRuns(text);
    this.entries.size = 0;
    const ends = ranges.map((r) => this.count(text, r.from, r.maxWords > 0 ? this.cutAt(text, r.from, r.to, r.maxWords) : r.to));
    // one buffer per file holds the counts of all its units
    const entries = this.entries.buf.slice(0, this.entries.size);
    let at = 0;
    return ends.map(({ end, length }) => ({ body: new IdCounts(this.terms, entries.subarray(at, at = end)), bodyLength: length }));
  }

  /**
   * The term counts of `tokenize(name)` (a unit's qualified name: its name field), in first-seen
   * order, by the dictionary's ids: the words of the name from the word memo, as the body's are.
   */
  nameTerms(name: string): IdCounts {
    // the file's runs are no longer needed once its bodies are given out: the name's take their place
    this.scanRuns(name);
    this.seen.length = 0;
    this.countIds(this.tokens.buf, 0, this.tokens.size);
    const { counts, seen } = this;
    const entries = new Int32Array(2 * seen.length);
    for (let k = 0; k < seen.length; k++) {
      const id = seen[k];
      entries[2 * k] = id;
      entries[2 * k + 1] = counts[id];
      counts[id] = 0;
    }
    return new IdCounts(this.terms, entries);
  }

  /** Empties the word memo (the term dictionary stays: the counts given out refer to it). */
  private forget(): void {
    this.slots = new Int32Array(1 << 12);
    this.words.length = 0;
    this.wordHash.size = 0;
    this.wordLength.size = 0;
    this.wordTokenFrom.size = 0;
    this.wordTokenTo.size = 0;
    this.wordTokens.size = 0;
  }

  /** The identifier runs of `text` and their tokens' term ids (the words `tokenize` splits). */
  private scanRuns(text: string): void {
    const starts = this.runStart;
    const ends = this.runEnd;
    const tokenStart = this.tokenStart;
    const tokens = this.tokens;
    starts.size = 0;
    ends.size = 0;
    tokens.size = 0;
    tokenStart.size = 0;
    const n = text.length;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (charClass(c) === 0) {
        i++;
        continue;
      }
      const start = i;
      let h = c;
      i++;
      while (i < n && charClass(c = text.charCodeAt(i)) !== 0) {
        h = (Math.imul(h, 31) + c) | 0;
        i++;
      }
      starts.push(start);
      ends.push(i);
      tokenStart.push(tokens.size);
      const e = this.entryOf(text, start, i, h);
      const from = this.wordTokenFrom.buf[e];
      const to = this.wordTokenTo.buf[e];
      tokens.grow(tokens.size + to - from);
      const buf = tokens.buf;
      const ids = this.wordTokens.buf;
      for (let k = from; k < to; k++) buf[tokens.size++] = ids[k];
    }
    tokenStart.push(tokens.size);
  }

  /** The memo entry of the word `text.slice(start, end)` of hash `h`, made when missing. */
  private entryOf(text: string, start: number, end: number, h: number): number {
    const length = end - start;
    let mask = this.slots.length - 1;
    let at = h & mask;
    const hashes = this.wordHash.buf;
    const lengths = this.wordLength.buf;
    for (let e = this.slots[at]; e !== 0; e = this.slots[at]) {
      if (hashes[e - 1] === h && lengths[e - 1] === length && text.startsWith(this.words[e - 1], start)) return e - 1;
      at = (at + 1) & mask;
    }
    const entry = this.words.length;
    const word = text.slice(start, end);
    this.words.push(word);
    this.wordHash.push(h);
    this.wordLength.push(length);
    this.wordTokenFrom.push(this.wordTokens.size);
    const ids = this.idsOfWord(word);
    for (let k = 0; k < ids.length; k++) this.wordTokens.push(ids[k]);
    this.wordTokenTo.push(this.wordTokens.size);
    if (2 * this.words.length > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      mask = this.slots.length - 1;
      for (let e = 0; e < this.words.length; e++) {
        let a = this.wordHash.buf[e] & mask;
        while (this.slots[a] !== 0) a = (a + 1) & mask;
        this.slots[a] = e + 1;
      }
    } else {
      this.slots[at] = entry + 1;
    }
    return entry;
  }

  /** Where `firstWords(text.slice(from, to), maxWords)` ends in `text`. */
  private cutAt(text: string, from: number, to: number, maxWords: number): number {
    if (to - from < 2 * maxWords - 1) return to; // too short to hold maxWords words and their separators
    let words = 0;
    let i = from;
    while (i < to) {
      if (isSpace(text.charCodeAt(i))) {
        i++;
        continue;
      }
      i++;
      while (i < to && !isSpace(text.charCodeAt(i))) i++;
      if (++words === maxWords) return i;
    }
    return to;
  }

  /**
   * Appends the counted tokens of `text.slice(from, to)` to `entries` as (term id, count) pairs,
   * in first-occurrence order; returns where they end there and how many tokens there were.
   */
  private count(text: string, from: number, to: number): { end: number; length: number } {
    this.seen.length = 0;
    const starts = this.runStart.buf;
    const ends = this.runEnd.buf;
    const runs = this.runStart.size;
    // runs r0 .. r1 - 1 touch the range; a first or last one cut by it is tokenized as cut
    const r0 = firstEndingAfter(this.runEnd, from);
    let r1 = r0;
    while (r1 < runs && starts[r1] < to) r1++;
    let length = 0;
    if (r0 < r1) {
      const firstWhole = starts[r0] >= from;
      const lastWhole = ends[r1 - 1] <= to;
      if (!firstWhole) length += this.countIds(this.idsOfWord(text.slice(from, Math.min(ends[r0], to))), 0, -1);
      const a = firstWhole ? r0 : r0 + 1;
      const b = lastWhole || r1 - 1 < a ? r1 : r1 - 1;
      if (a < b) length += this.countIds(this.tokens.buf, this.tokenStart.buf[a], this.tokenStart.buf[b]);
      if (!lastWhole && r1 - 1 >= a) length += this.countIds(this.idsOfWord(text.slice(starts[r1 - 1], to)), 0, -1);
    }
    const { counts, seen, entries } = this;
    entries.grow(entries.size + 2 * seen.length);
    const buf = entries.buf;
    let e = entries.size;
    for (let k = 0; k < seen.length; k++) {
      const id = seen[k];
      buf[e++] = id;
      buf[e++] = counts[id];
      counts[id] = 0;
    }
    entries.size = e;
    return { end: e, length };
  }

  /** Counts `ids[from .. to)` (`to` −1: all); returns how many. */
  private countIds(ids: Int32Array, from: number, to: number): number {
    const end = to < 0 ? ids.length : to;
    const { counts, seen } = this;
    for (let k = from; k < end; k++) {
      const id = ids[k];
      if (counts[id]++ === 0) seen.push(id);
    }
    return end - from;
  }

  /** The term ids of the tokens of one identifier run (`tokenize` of it: one word). */
  private idsOfWord(word: string): Int32Array {
    const tokens = this.tokenizer.wordTokens(word);
    if (tokens.length === 0) return NO_IDS;
    const ids = new Int32Array(tokens.length);
    for (let k = 0; k < tokens.length; k++) ids[k] = this.termId(tokens[k]);
    return ids;
  }

  /** The id of `term` in the dictionary, made when new. */
  termId(term: string): number {
    let id = this.termIdOf.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.termIdOf.set(term, id);
      if (id >= this.counts.length) {
        const next = new Int32Array(this.counts.length * 2);
        next.set(this.counts);
        this.counts = next;
      }
    }
    return id;
  }
}

/** The first index whose end is past `at` in the ascending ends of `list` (its size when none). */
function firstEndingAfter(list: I32List, at: number): number {
  const ends = list.buf;
  let lo = 0;
  let hi = list.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ends[mid] > at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Whether char code `c` is white space to a regular expression's `\s` (so `\S+` ends there). */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
    c === 0x205f || c === 0x3000 || c === 0xfeff;
}
