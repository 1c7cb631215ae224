/** Term → id lookup of an index (a `Map` is one; a stored index answers from its sorted dictionary). */
export interface TermLookup {
  get(term: string): number | undefined;
  has(term: string): boolean;
}

/**
 * The postings of one term: `doc[i]` ascending, and `tf[i * F + f]` the term's frequency in
 * field f of that document (clamped to 65535), for F fields.
 */
export interface TermPostings {
  readonly doc: Uint32Array;
  readonly tf: Uint16Array;
}

/**
 * A multi-field inverted index, for T terms (ids 0 … T − 1), D documents and F fields:
 * - `termIds`: term string → id; `term(t)`: the string of id t;
 * - `postings(t)`: the documents holding term t with a tf per field ({@link TermPostings});
 *   `documentFrequency(t)` its length, known without reading them;
 * - `fieldLength[d * F + f]`: number of tokens in field f of document d (D × F).
 *
 * Two kinds: {@link CsrIndex} (built in memory: compressed sparse rows by term, ids in
 * first-seen order) and the stored index of src/index/store.ts (read as it lies in its file:
 * ids in term order, postings decoded per term on first use). Scorers (src/retrieve/) read the
 * arrays directly; nothing here knows about BM25.
 */
export interface InvertedIndex {
  readonly fieldNames: readonly string[];
  readonly termIds: TermLookup;
  readonly termCount: number;
  readonly docCount: number;
  readonly fieldLength: Uint16Array | Uint32Array;
  /** Number of documents holding term id `t` in any field. */
  documentFrequency(t: number): number;
  /** The postings of term id `t` (views the index keeps: do not write to them). */
  postings(t: number): TermPostings;
  /** The string of term id `t`. */
  term(t: number): string;
}

/**
 * An {@link InvertedIndex} on typed arrays, compressed sparse rows by term:
 * - `vocabulary[t]`: the term string of term id t;
 * - `postingStart[t] .. postingStart[t+1]`: the slice of postings of term t (Uint32Array, T + 1);
 * - `postingDoc[p]`: the document id of posting p, ascending within a term (Uint32Array, P);
 * - `postingTf[p * F + f]`: the term's frequency in field f of that document (Uint16Array, P × F).
 */
export class CsrIndex implements InvertedIndex {
  constructor(
    readonly fieldNames: readonly string[],
    readonly vocabulary: readonly string[],
    readonly termIds: ReadonlyMap<string, number>,
    readonly docCount: number,
    readonly postingStart: Uint32Array,
    readonly postingDoc: Uint32Array,
    readonly postingTf: Uint16Array,
    readonly fieldLength: Uint32Array,
  ) {}

  get termCount(): number {
    return this.vocabulary.length;
  }

  documentFrequency(t: number): number {
    return this.postingStart[t + 1] - this.postingStart[t];
  }

  postings(t: number): TermPostings {
    const s = this.postingStart[t], e = this.postingStart[t + 1];
    const F = this.fieldNames.length;
    return { doc: this.postingDoc.subarray(s, e), tf: this.postingTf.subarray(s * F, e * F) };
  }

  term(t: number): string {
    return this.vocabulary[t];
  }
}

/** Term counts of one field of one document: term → frequency. */
export type FieldTerms = ReadonlyMap<string, number>;

/**
 * Term counts by the ids of a dictionary: `entries` holds (id, frequency) pairs one after the
 * other, each id once, `terms[id]` its term. Iterating gives [term, frequency] pairs.
 */
export class IdCounts implements Iterable<[string, number]> {
  constructor(readonly terms: readonly string[], readonly entries: Int32Array) {}

  /** Number of terms. */
  get length(): number {
    return this.entries.length >> 1;
  }

  *[Symbol.iterator](): Iterator<[string, number]> {
    const { terms, entries } = this;
    for (let k = 0; k < entries.length; k += 2) yield [terms[entries[k]], entries[k + 1]];
  }

  /** As [term, frequency] pairs (how JSON holds them). */
  toJSON(): [string, number][] {
    const { terms, entries } = this;
    const pairs: [string, number][] = new Array(entries.length >> 1);
    for (let k = 0; k < entries.length; k += 2) pairs[k >> 1] = [terms[entries[k]], entries[k + 1]];
    return pairs;
  }
}

/** Term counts as a map, as [term, frequency] pairs (each term once) or by dictionary ids. */
export type TermCounts = FieldTerms | readonly (readonly [string, number])[] | IdCounts;

const sizeOf = (terms: TermCounts): number => ('size' in terms ? terms.size : terms.length);

const MAX_TF = 65535;

/**
 * One field of every document, doc-major (compressed sparse rows), the input of
 * {@link invertFields}. For D documents and E (document, term) entries:
 * - `start[d] .. start[d+1]`: the entries of document d (length D + 1);
 * - `term[e]`: the term id (each term at most once per document; any order);
 * - `tf[e]`: the term's count in this field of that document;
 * - `length[d]`: the field's length in tokens (length D).
 */
export interface DocFieldRows {
  readonly start: ArrayLike<number>;
  readonly term: ArrayLike<number>;
  readonly tf: ArrayLike<number>;
  readonly length: ArrayLike<number>;
}

/** Term-major view of doc-major rows: `start[t] .. start[t+1]` are the postings of term t. */
export interface Postings {
  /** Uint32Array of the number of term ids + 1. */
  readonly start: Uint32Array;
  /** Document of each posting, ascending within a term. */
  readonly doc: Uint32Array;
  /** Entry index in the doc-major rows (to read any per-entry value: a tf, a weight). */
  readonly entry: Uint32Array;
}

/**
 * Inverts doc-major rows (each term at most once per document) into postings by a counting sort
 * over term ids: the one inversion of the project, behind {@link invertFields} and the vector
 * space retrievers of the evaluation (TF-IDF, rVSM, LSI, whose entries carry weights).
 * Cost O(E + T) for E entries and T term ids.
 * @param termCount number of term ids (every id in `rows.term` is below it).
 */
export function invertRows(rows: { readonly start: ArrayLike<number>; readonly term: ArrayLike<number> }, termCount: number): Postings {
  const n = rows.start.length - 1;
  const E = rows.start[n];
  const { term } = rows;
  const start = new Uint32Array(termCount + 1);
  for (let e = 0; e < E; e++) start[term[e] + 1]++;
  for (let t = 0; t < termCount; t++) start[t + 1] += start[t];
  const cursor = start.slice(0, termCount);
  const doc = new Uint32Array(E);
  const entry = new Uint32Array(E);
  for (let d = 0; d < n; d++) {
    for (let e = rows.start[d], end = rows.start[d + 1]; e < end; e++) {
      const slot = cursor[term[e]]++;
      doc[slot] = d;
      entry[slot] = e;
    }
  }
  return { start, doc, entry };
}

/**
 * Freezes documents given field by field into an {@link InvertedIndex}, behind
 * {@link IndexBuilder} (code index) and the file corpora of the evaluation
 * (src/retrieve/file-retrievers/bm25f.ts): each document's terms of every field merged into one
 * entry per term with a tf per field (clamped to 65535), then inverted by {@link invertRows}.
 * Postings of a term are in ascending document order.
 *
 * @param vocabulary term strings by id; every id in `fields` must be below its length.
 * @param termIds term → id (may hold more terms than `vocabulary`, e.g. a shared vocabulary that
 *   grew later; scorers must ignore ids at or past `vocabulary.length`).
 * @param fields one {@link DocFieldRows} per field, in `fieldNames` order, all of D documents.
 * Cost: O(E·F + T) for E entries, typed arrays only.
 */
export function invertFields(
  fieldNames: readonly string[], vocabulary: readonly string[], termIds: ReadonlyMap<string, number>, fields: readonly DocFieldRows[],
): CsrIndex {
  const F = fields.length;
  const T = vocabulary.length;
  const D = F === 0 ? 0 : fields[0].length.length;
  let bound = 0;
  for (const r of fields) bound += r.start[D];
  // each document's distinct terms (first-seen order), with a tf per field
  const docStart = new Uint32Array(D + 1);
  const docTerm = new Uint32Array(bound);
  const docTf = new Uint16Array(bound * F);
  const lastDoc = new Int32Array(T).fill(-1);
  const entryOf = new Uint32Array(T);
  let u = 0;
  for (let d = 0; d < D; d++) {
    for (let f = 0; f < F; f++) {
      const { start, term, tf } = fields[f];
      for (let e = start[d], end = start[d + 1]; e < end; e++) {
        const t = term[e];
        if (lastDoc[t] !== d) {
          lastDoc[t] = d;
          entryOf[t] = u;
          docTerm[u++] = t;
        }
        const n = tf[e];
        docTf[entryOf[t] * F + f] = n < MAX_TF ? n : MAX_TF;
      }
    }
    docStart[d + 1] = u;
  }
  const postings = invertRows({ start: docStart, term: docTerm }, T);
  const postingTf = new Uint16Array(u * F);
  for (let p = 0; p < u; p++) {
    const from = postings.entry[p] * F;
    for (let f = 0; f < F; f++) postingTf[p * F + f] = docTf[from + f];
  }
  const fieldLength = new Uint32Array(D * F);
  for (let f = 0; f < F; f++) {
    const { length } = fields[f];
    for (let d = 0; d < D; d++) fieldLength[d * F + f] = length[d];
  }
  return new CsrIndex(fieldNames, vocabulary, termIds, D, postings.start, postings.doc, postingTf, fieldLength);
}

/** A Uint32Array that grows by doubling: {@link reserve}, then write `buf[size++]`. */
class U32List {
  buf = new Uint32Array(1024);
  size = 0;

  /** Makes room for `n` more values (`buf` may be replaced). */
  reserve(n: number): void {
    if (this.size + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.size + n) cap *= 2;
    const next = new Uint32Array(cap);
    next.set(this.buf.subarray(0, this.size));
    this.buf = next;
  }

  push(x: number): void {
    this.reserve(1);
    this.buf[this.size++] = x;
  }

  /** The values so far (a view, valid until the next reserve). */
  view(): Uint32Array {
    return this.buf.subarray(0, this.size);
  }
}

/**
 * Collects documents with string terms, then freezes them into an {@link InvertedIndex}: the
 * index {@link invertFields} makes of the same documents given field by field, built without
 * its merge pass (each document's terms are merged across fields as it is added).
 *
 * Documents get ids 0, 1, 2 … in the order they are added; terms get ids in first-seen order
 * (field by field, each map in its order). Each document gives, per field (in the order of
 * `fieldNames`), its term counts and its length in tokens (a length may exceed the sum of counts
 * when stop words were counted in it; pass the sum if unsure).
 */
export class IndexBuilder {
  private readonly fieldNames: readonly string[];
  private readonly termIds = new Map<string, number>();
  private readonly vocabulary: string[] = [];
  // the documents' rows: entries docStart[d] .. docStart[d + 1] of document d, each a term once
  // (first seen across its fields in order) with its count per field (F values, summed up to 65535)
  private readonly docStart = new U32List();
  private readonly docTerm = new U32List();
  private docTf = new Uint16Array(1024);
  private readonly fieldLength = new U32List();
  private docs = 0;
  // per term id: the document it was last seen in (`stamp`) and its entry there
  private stamp = 0;
  private markOf = new Int32Array(1024);
  private entryOf = new Uint32Array(1024);
  // the dictionary of the last IdCounts added and this index's ids of its terms
  private dictionary: readonly string[] | undefined;
  private dictionaryIds = new Int32Array(0);
  private idScratch = new Int32Array(1024);
  private tfScratch = new Int32Array(1024);

  constructor(fieldNames: readonly string[]) {
    if (fieldNames.length === 0) throw new Error('IndexBuilder needs at least one field');
    this.fieldNames = fieldNames;
    this.docStart.push(0);
  }

  /**
   * Adds one document and returns its id.
   * @param fields term counts per field, same order and count as `fieldNames`.
   * @param lengths token count per field; defaults to the sum of each field's counts.
   */
  add(fields: readonly FieldTerms[], lengths?: readonly number[]): number {
    return this.addSummed(fields.map((terms) => [terms]), lengths);
  }

  /**
   * Adds one document whose fields are each one or more lists of term counts: the counts of a
   * term in several lists of a field are summed, and its terms are in first-seen order (as if the
   * lists were merged into one map first, without making it). Returns the document's id.
   * @param fields per field (same order and count as `fieldNames`), its lists of counts; each
   *   list holds a term at most once.
   * @param lengths token count per field; defaults to the sum of each field's counts.
   */
  addSummed(fields: readonly (readonly TermCounts[])[], lengths?: readonly number[]): number {
    const F = this.fieldNames.length;
    if (fields.length !== F) throw new Error(`document has ${fields.length} fields, index has ${F}`);
    let bound = 0;
    for (const lists of fields) for (const terms of lists) bound += sizeOf(terms);
    this.docTerm.reserve(bound);
    if ((this.docTerm.size + bound) * F > this.docTf.length) {
      const next = new Uint16Array(Math.max(2 * this.docTf.length, (this.docTerm.size + bound) * F));
      next.set(this.docTf.subarray(0, this.docTerm.size * F));
      this.docTf = next;
    }
    this.fieldLength.reserve(F);
    const termBuf = this.docTerm.buf;
    const tfBuf = this.docTf;
    const first = this.docTerm.size;
    let e = first;
    const stamp = ++this.stamp;
    for (let f = 0; f < F; f++) {
      let sum = 0;
      for (const terms of fields[f]) {
        // one list's term ids and counts, then each added to the document's entry of its term
        let ids: Int32Array;
        let tfs: Int32Array | undefined;
        let step: number;
        if (terms instanceof IdCounts) {
          const idOf = this.idsOfDictionary(terms.terms);
          const { entries } = terms;
          for (let k = 0; k < entries.length; k += 2) {
            if (idOf[entries[k]] < 0) idOf[entries[k]] = this.termId(terms.terms[entries[k]]);
          }
          ids = this.scratchIds(entries.length >> 1);
          for (let k = 0; k < entries.length; k += 2) ids[k >> 1] = idOf[entries[k]];
          tfs = entries;
          step = 2;
        } else {
          ids = this.scratchIds(sizeOf(terms));
          tfs = this.scratchTfs(sizeOf(terms));
          let k = 0;
          if (Array.isArray(terms)) {
            for (let i = 0; i < terms.length; i++) {
              const pair = terms[i] as readonly [string, number];
              ids[k] = this.termId(pair[0]);
              tfs[k++] = pair[1];
            }
          } else {
            for (const [term, tf] of terms as Iterable<readonly [string, number]>) {
              ids[k] = this.termId(term);
              tfs[k++] = tf;
            }
          }
          step = 1;
        }
        const { markOf, entryOf } = this;
        for (let k = 0, n = ids.length; k < n; k++) {
          const id = ids[k];
          const tf = tfs[k * step + step - 1];
          if (markOf[id] !== stamp) {
            markOf[id] = stamp;
            entryOf[id] = e;
            termBuf[e] = id; // its counts are 0: no entry was ever written at or past `e`
            e++;
          }
          const at = entryOf[id] * F + f;
          const n = tfBuf[at] + tf; // counts are ≥ 0: the sum clamped to MAX_TF as it grows
          tfBuf[at] = n < MAX_TF ? n : MAX_TF;
          sum += tf;
        }
      }
      this.fieldLength.buf[this.fieldLength.size++] = lengths ? lengths[f] : sum;
    }
    this.docTerm.size = e;
    this.docStart.push(e);
    return this.docs++;
  }

  /** The id of `term`, given the next id when new. */
  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.vocabulary.length;
      this.termIds.set(term, id);
      this.vocabulary.push(term);
      if (id >= this.markOf.length) this.growMarks();
    }
    return id;
  }

  /** This index's ids of the terms of a dictionary of {@link IdCounts} (−1: not looked up yet). */
  private idsOfDictionary(terms: readonly string[]): Int32Array {
    if (this.dictionary !== terms || this.dictionaryIds.length < terms.length) {
      const ids = new Int32Array(Math.max(terms.length, 2 * this.dictionaryIds.length)).fill(-1);
      if (this.dictionary === terms) ids.set(this.dictionaryIds);
      this.dictionary = terms;
      this.dictionaryIds = ids;
    }
    return this.dictionaryIds;
  }

  /** Scratch space for `n` term ids (a view, valid until the next call). */
  private scratchIds(n: number): Int32Array {
    if (this.idScratch.length < n) this.idScratch = new Int32Array(Math.max(n, 2 * this.idScratch.length));
    return this.idScratch.subarray(0, n);
  }

  /** Scratch space for `n` counts (a view, valid until the next call). */
  private scratchTfs(n: number): Int32Array {
    if (this.tfScratch.length < n) this.tfScratch = new Int32Array(Math.max(n, 2 * this.tfScratch.length));
    return this.tfScratch.subarray(0, n);
  }

  private growMarks(): void {
    const mark = new Int32Array(this.markOf.length * 2);
    mark.set(this.markOf);
    this.markOf = mark;
    const entry = new Uint32Array(this.entryOf.length * 2);
    entry.set(this.entryOf);
    this.entryOf = entry;
  }

  /** Number of documents added so far. */
  get size(): number {
    return this.docs;
  }

  /** Freezes the collected documents into typed arrays. The builder must not be reused. */
  build(): CsrIndex {
    const F = this.fieldNames.length;
    const postings = invertRows({ start: this.docStart.view(), term: this.docTerm.view() }, this.vocabulary.length);
    const { docTf } = this;
    const E = this.docTerm.size;
    const postingTf = new Uint16Array(E * F);
    for (let p = 0; p < E; p++) {
      const from = postings.entry[p] * F;
      for (let f = 0; f < F; f++) postingTf[p * F + f] = docTf[from + f];
    }
    return new CsrIndex(this.fieldNames, this.vocabulary, this.termIds, this.docs, postings.start, postings.doc, postingTf, this.fieldLength.buf.slice(0, this.fieldLength.size));
  }
}

/** The averages of each loaded index (an index never changes once built). */
const averages = new WeakMap<InvertedIndex, Float64Array>();

/**
 * Mean length of each field over the documents (0 for an empty index); computed once per index
 * and shared (do not write to it).
 */
export function averageFieldLengths(index: InvertedIndex): Float64Array {
  let avg = averages.get(index);
  if (avg) return avg;
  const F = index.fieldNames.length;
  const D = index.docCount;
  avg = new Float64Array(F);
  averages.set(index, avg);
  if (D === 0) return avg;
  // one pass per field with locals: this runs once per loaded index, mostly before the code is compiled
  const lengths = index.fieldLength;
  for (let f = 0; f < F; f++) {
    let sum = 0;
    for (let i = f; i < D * F; i += F) sum += lengths[i];
    avg[f] = sum / D;
  }
  return avg;
}
