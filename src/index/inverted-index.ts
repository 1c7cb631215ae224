/**
 * A multi-field inverted index on typed arrays (compressed sparse rows by term).
 *
 * Layout, for T terms, D documents, F fields and P postings:
 * - `vocabulary[t]`: the term string of term id t (ids in first-seen order).
 * - `postingStart[t] .. postingStart[t+1]`: the slice of postings of term t (Uint32Array, T + 1).
 * - `postingDoc[p]`: the document id of posting p, ascending within a term (Uint32Array, P).
 * - `postingTf[p * F + f]`: the term's frequency in field f of that document, clamped to 65535
 *   (Uint16Array, P × F).
 * - `fieldLength[d * F + f]`: number of tokens in field f of document d (Uint32Array, D × F).
 *
 * Scorers (src/retrieve/) read these arrays directly; nothing here knows about BM25.
 */
export interface InvertedIndex {
  readonly fieldNames: readonly string[];
  readonly vocabulary: readonly string[];
  readonly termIds: ReadonlyMap<string, number>;
  readonly docCount: number;
  readonly postingStart: Uint32Array;
  readonly postingDoc: Uint32Array;
  readonly postingTf: Uint16Array;
  readonly fieldLength: Uint32Array;
}

/** Term counts of one field of one document: term → frequency. */
export type FieldTerms = ReadonlyMap<string, number>;

const MAX_TF = 65535;

/**
 * Collects documents, then freezes them into an {@link InvertedIndex}.
 *
 * Documents get ids 0, 1, 2 … in the order they are added. Each document gives, per field (in the
 * order of `fieldNames`), its term counts and its length in tokens (a length may exceed the sum
 * of counts when stop words were counted in it; pass the sum if unsure).
 *
 * Cost: O(P log P) memory-light build (one pass to count, one to fill).
 */
export class IndexBuilder {
  private readonly fieldNames: readonly string[];
  private readonly termIds = new Map<string, number>();
  private readonly vocabulary: string[] = [];
  /** Per document: flat [termId, field, tf, termId, field, tf, …]. */
  private readonly docEntries: Uint32Array[] = [];
  private readonly lengths: number[] = [];
  private postings = 0;
  /** Per term: the last document that held it (counts distinct terms per document). */
  private readonly lastDoc: number[] = [];

  constructor(fieldNames: readonly string[]) {
    if (fieldNames.length === 0) throw new Error('IndexBuilder needs at least one field');
    this.fieldNames = fieldNames;
  }

  /**
   * Adds one document and returns its id.
   * @param fields term counts per field, same order and count as `fieldNames`.
   * @param lengths token count per field; defaults to the sum of each field's counts.
   */
  add(fields: readonly FieldTerms[], lengths?: readonly number[]): number {
    const F = this.fieldNames.length;
    if (fields.length !== F) throw new Error(`document has ${fields.length} fields, index has ${F}`);
    let n = 0;
    for (const f of fields) n += f.size;
    const entries = new Uint32Array(n * 3);
    const docId = this.docEntries.length;
    let distinct = 0;
    let i = 0;
    for (let f = 0; f < F; f++) {
      let sum = 0;
      for (const [term, tf] of fields[f]) {
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = this.vocabulary.length;
          this.termIds.set(term, id);
          this.vocabulary.push(term);
          this.lastDoc.push(-1);
        }
        if (this.lastDoc[id] !== docId) {
          this.lastDoc[id] = docId;
          distinct++;
        }
        entries[i++] = id;
        entries[i++] = f;
        entries[i++] = Math.min(tf, MAX_TF);
        sum += tf;
      }
      this.lengths.push(lengths ? lengths[f] : sum);
    }
    this.postings += distinct;
    this.docEntries.push(entries);
    return this.docEntries.length - 1;
  }

  /** Number of documents added so far. */
  get size(): number {
    return this.docEntries.length;
  }

  /** Freezes the collected documents into typed arrays. The builder must not be reused. */
  build(): InvertedIndex {
    const F = this.fieldNames.length;
    const T = this.vocabulary.length;
    const D = this.docEntries.length;
    const df = new Uint32Array(T);
    // A term may appear in several fields of one document: count it once per document.
    const lastDoc = new Int32Array(T).fill(-1);
    for (let d = 0; d < D; d++) {
      const e = this.docEntries[d];
      for (let i = 0; i < e.length; i += 3) {
        const t = e[i];
        if (lastDoc[t] !== d) {
          lastDoc[t] = d;
          df[t]++;
        }
      }
    }
    const postingStart = new Uint32Array(T + 1);
    for (let t = 0; t < T; t++) postingStart[t + 1] = postingStart[t] + df[t];
    const P = postingStart[T];
    const postingDoc = new Uint32Array(P);
    const postingTf = new Uint16Array(P * F);
    const cursor = postingStart.slice(0, T);
    lastDoc.fill(-1);
    const slotOf = new Uint32Array(T);
    for (let d = 0; d < D; d++) {
      const e = this.docEntries[d];
      for (let i = 0; i < e.length; i += 3) {
        const t = e[i];
        if (lastDoc[t] !== d) {
          lastDoc[t] = d;
          slotOf[t] = cursor[t]++;
          postingDoc[slotOf[t]] = d;
        }
        postingTf[slotOf[t] * F + e[i + 1]] = e[i + 2];
      }
    }
    const fieldLength = Uint32Array.from(this.lengths);
    this.docEntries.length = 0;
    return {
      fieldNames: this.fieldNames,
      vocabulary: this.vocabulary,
      termIds: this.termIds,
      docCount: D,
      postingStart,
      postingDoc,
      postingTf,
      fieldLength,
    };
  }
}

/** Document frequency of term id `t`: the number of documents holding it in any field. */
export function documentFrequency(index: InvertedIndex, t: number): number {
  return index.postingStart[t + 1] - index.postingStart[t];
}

/** Mean length of each field over all documents (tokens); 0 for an empty index. */
export function averageFieldLengths(index: InvertedIndex): Float64Array {
  const F = index.fieldNames.length;
  const avg = new Float64Array(F);
  if (index.docCount === 0) return avg;
  for (let d = 0; d < index.docCount; d++) {
    for (let f = 0; f < F; f++) avg[f] += index.fieldLength[d * F + f];
  }
  for (let f = 0; f < F; f++) avg[f] /= index.docCount;
  return avg;
}
