/**
 * The candidate files of one a-priori state as the file-level retrievers read them: a
 * document per file with two fields (the file name and the content), each field's term counts
 * stored doc-major on typed arrays (compressed sparse rows), with term ids from a
 * {@link Vocabulary} shared by every corpus of a run.
 *
 * Sharing the vocabulary is what lets an evaluation keep per-blob term counts across issues
 * (consecutive a-priori states share most files) and build each issue's corpus by concatenating
 * cached arrays, without touching strings.
 *
 * Why term order: ids are handed out in first-seen order, so they depend on what a run read
 * before (which issues, in which order, in which thread). Every sum over a document's terms (a
 * norm, a row of the LSI matrix product) runs in the document's entry order, and floating-point
 * sums round by order: term order makes each state's numbers a function of its files alone.
 *
 * Layout of a {@link FieldMatrix} with n documents and P (document, term) pairs:
 * - `start[d] .. start[d+1]`: the slice of document d (Uint32Array, n + 1);
 * - `term[p]`: the term id; within a document the terms are in **term order** (ascending term
 *   strings, {@link Vocabulary.ranks}), not in id order (Uint32Array, P);
 * - `tf[p]`: the term's count in that field (Uint32Array, P);
 * - `length[d]`: the field's length in tokens, duplicates included (Uint32Array, n).
 */
import { IssuelocError } from '../../errors.js';

/** Term strings ↔ dense ids (0, 1, 2 … in first-seen order); grows, never shrinks. */
export class Vocabulary {
  readonly terms: string[] = [];
  private readonly map = new Map<string, number>();
  /** Ids of the first `byTerm.length` terms, in term order (see {@link ranks}). */
  private byTerm = new Uint32Array(0);
  private rank = new Uint32Array(0);

  /** The id of `term`, adding it when new. */
  idOf(term: string): number {
    let id = this.map.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.map.set(term, id);
      this.terms.push(term);
    }
    return id;
  }

  /** The id of `term`, or undefined when it was never seen. */
  get(term: string): number | undefined {
    return this.map.get(term);
  }

  /** Number of terms. */
  get size(): number {
    return this.terms.length;
  }

  /** The term → id map (read only). */
  get ids(): ReadonlyMap<string, number> {
    return this.map;
  }

  /**
   * Each id's rank in term order (ascending term strings, UTF-16 code units): `ranks()[a] <
   * ranks()[b]` iff `terms[a] < terms[b]`. Ranks are renumbered when terms are added (the order of
   * two terms never changes), so read a fresh array after adding terms.
   * @returns a Uint32Array of {@link size} ranks (do not modify). Cost O(size) integer writes
   *   and O(a log size) string comparisons after a terms were added, O(1) otherwise.
   */
  ranks(): Uint32Array {
    const n = this.terms.length;
    if (this.byTerm.length === n) return this.rank;
    const added: number[] = [];
    for (let id = this.byTerm.length; id < n; id++) added.push(id);
    added.sort(this.compareTerms);
    // each new term goes where a binary search over the old order puts it: O(a log V) string
    // comparisons for a new terms, then plain copies
    const old = this.byTerm;
    const merged = new Uint32Array(n);
    let i = 0, o = 0;
    for (const id of added) {
      const t = this.terms[id];
      let lo = i, hi = old.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.terms[old[mid]] < t) lo = mid + 1;
        else hi = mid;
      }
      merged.set(old.subarray(i, lo), o);
      o += lo - i;
      i = lo;
      merged[o++] = id;
    }
    merged.set(old.subarray(i), o);
    const rank = new Uint32Array(n);
    for (let r = 0; r < n; r++) rank[merged[r]] = r;
    this.byTerm = merged;
    this.rank = rank;
    return rank;
  }

  /** Compares two ids by their terms (term order); ids are distinct terms, so never 0 for a ≠ b. */
  readonly compareTerms = (a: number, b: number): number => {
    const x = this.terms[a], y = this.terms[b];
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/** Term counts of one field of one document: ids in term order, counts aligned, total tokens. */
export interface TermBag {
  readonly terms: Uint32Array;
  readonly tf: Uint32Array;
  /** Tokens in the field, duplicates included (= sum of `tf`). */
  readonly length: number;
}

/** The empty bag. */
export const EMPTY_BAG: TermBag = Object.freeze({ terms: new Uint32Array(0), tf: new Uint32Array(0), length: 0 });

/**
 * Counts tokens into a {@link TermBag}, adding new terms to `vocabulary`.
 * @param tokens the field's tokens in any order, duplicates kept.
 */
export function bagOf(tokens: readonly string[], vocabulary: Vocabulary): TermBag {
  if (tokens.length === 0) return EMPTY_BAG;
  const counts = new Map<number, number>();
  for (const t of tokens) {
    const id = vocabulary.idOf(t);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const ids = Uint32Array.from(counts.keys()).sort(vocabulary.compareTerms);
  const tf = new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) tf[i] = counts.get(ids[i]) as number;
  return { terms: ids, tf, length: tokens.length };
}

/** One field of every document, doc-major (see the module comment). */
export interface FieldMatrix {
  readonly start: Uint32Array;
  readonly term: Uint32Array;
  readonly tf: Uint32Array;
  readonly length: Uint32Array;
}

/** Field names of every file corpus, in field order. */
export const FILE_FIELDS = ['name', 'content'] as const;

/** The candidate files of one a-priori state (see the module comment). */
export interface FileCorpus {
  /** File paths, in corpus order (document d is `ids[d]`). */
  readonly ids: readonly string[];
  /**
   * Content identity of each document: equal keys mean equal fields (e.g. `path` + blob SHA).
   * Retrievers that keep per-document results across corpora (LSI) key them by this.
   */
  readonly keys: readonly string[];
  readonly vocabulary: Vocabulary;
  /** {@link FILE_FIELDS}. */
  readonly fieldNames: readonly string[];
  /** One matrix per field, in `fieldNames` order. */
  readonly fields: readonly FieldMatrix[];
}

/** Number of documents of a corpus. */
export function corpusSize(c: FileCorpus): number {
  return c.ids.length;
}

/**
 * Collects documents (one {@link TermBag} per field) and freezes them into a {@link FileCorpus}.
 * Cost: linear in the bags' sizes.
 */
export class FileCorpusBuilder {
  private readonly ids: string[] = [];
  private readonly keys: string[] = [];
  private readonly bags: TermBag[][];

  constructor(readonly vocabulary: Vocabulary, readonly fieldNames: readonly string[] = FILE_FIELDS) {
    this.bags = fieldNames.map(() => []);
  }

  /**
   * Adds one document.
   * @param fields one bag per field, in `fieldNames` order (bags may be shared between corpora).
   * @throws IssuelocError when the number of fields is wrong.
   */
  add(id: string, key: string, fields: readonly TermBag[]): void {
    if (fields.length !== this.fieldNames.length) {
      throw new IssuelocError(`document '${id}' has ${fields.length} fields, the corpus has ${this.fieldNames.length}`);
    }
    this.ids.push(id);
    this.keys.push(key);
    for (let f = 0; f < fields.length; f++) this.bags[f].push(fields[f]);
  }

  /** Number of documents added so far. */
  get size(): number {
    return this.ids.length;
  }

  build(): FileCorpus {
    return {
      ids: this.ids,
      keys: this.keys,
      vocabulary: this.vocabulary,
      fieldNames: this.fieldNames,
      fields: this.bags.map(packField),
    };
  }
}

function packField(bags: readonly TermBag[]): FieldMatrix {
  const n = bags.length;
  const start = new Uint32Array(n + 1);
  for (let d = 0; d < n; d++) start[d + 1] = start[d] + bags[d].terms.length;
  const term = new Uint32Array(start[n]);
  const tf = new Uint32Array(start[n]);
  const length = new Uint32Array(n);
  for (let d = 0; d < n; d++) {
    term.set(bags[d].terms, start[d]);
    tf.set(bags[d].tf, start[d]);
    length[d] = bags[d].length;
  }
  return { start, term, tf, length };
}

/**
 * A corpus from token lists (tests, small inputs): `fields[f]` are the tokens of field f.
 * @param vocabulary shared vocabulary; a new one by default.
 */
export function corpusFromTokens(
  docs: readonly { id: string; key?: string; fields: readonly (readonly string[])[] }[],
  vocabulary: Vocabulary = new Vocabulary(),
  fieldNames: readonly string[] = FILE_FIELDS,
): FileCorpus {
  const b = new FileCorpusBuilder(vocabulary, fieldNames);
  for (const d of docs) b.add(d.id, d.key ?? d.id, d.fields.map((t) => bagOf(t, vocabulary)));
  return b.build();
}

/**
 * The joint document of every file: all fields' counts summed per term (in term order), and the
 * joint length. This is the single-text view that VSM, rVSM and LSI use when they do not weight
 * fields apart.
 */
export function jointField(c: FileCorpus): FieldMatrix {
  const n = c.ids.length;
  const F = c.fields.length;
  if (F === 1) return c.fields[0];
  const start = new Uint32Array(n + 1);
  const term: number[] = [];
  const tf: number[] = [];
  const length = new Uint32Array(n);
  const acc = new Map<number, number>();
  const rank = c.vocabulary.ranks();
  for (let d = 0; d < n; d++) {
    acc.clear();
    let len = 0;
    for (const fm of c.fields) {
      for (let p = fm.start[d]; p < fm.start[d + 1]; p++) acc.set(fm.term[p], (acc.get(fm.term[p]) ?? 0) + fm.tf[p]);
      len += fm.length[d];
    }
    const ids = [...acc.keys()].sort((a, b) => rank[a] - rank[b]);
    for (const t of ids) {
      term.push(t);
      tf.push(acc.get(t) as number);
    }
    start[d + 1] = term.length;
    length[d] = len;
  }
  return { start, term: Uint32Array.from(term), tf: Uint32Array.from(tf), length };
}
