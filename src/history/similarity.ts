/**
 * Similar earlier reports and the files they fixed: a tf-idf cosine index over short texts
 * (earlier issues, commit messages) and BugLocator's SimiScore.
 */

/** One similar document and its cosine similarity to the query. */
export interface SimilarDoc {
  doc: number;
  score: number;
}

/**
 * The statistics of a sub-collection of a {@link CosineIndex}: which documents it holds, how
 * many (N) and in how many of them each term occurs (df). Weights and norms computed over a
 * collection depend on its members only, never on the other documents of the index.
 * Make one with {@link CosineIndex.collection}.
 */
export interface Collection {
  /** members[d] = 1 for the documents of the collection. */
  readonly members: Uint8Array;
  /** Number of members (N). */
  readonly size: number;
  /** Per term id: the number of members it occurs in (df). */
  readonly df: Int32Array;
  /** Per term id: ln(N / df), 0 for terms of no member; 0 until first needed (`idfOf`). */
  readonly idf: Float64Array;
  /** Per document: its norm under this collection's weights, NaN until first needed. */
  readonly norms: Float64Array;
}

/** Options of {@link CosineIndex.similar}. */
export interface SimilarOptions {
  /** The collection whose statistics weigh terms and whose members are searched (default: every document). */
  within?: Collection;
  /** When given, only members d with allowed[d] = 1 are returned (they still count in the statistics). */
  allowed?: Uint8Array;
  /**
   * Query terms found in more members than this are skipped (their idf is small and their
   * postings long; default: none skipped). They still count in the query norm, so cosines stay
   * comparable.
   */
  maxDf?: number;
}

/**
 * The documents of a {@link CosineIndex}, document-major: the terms of document d are
 * docTerm[docStart[d] … docStart[d+1]) (ids of `termIds`, in order of first occurrence in the
 * document), each with its tf in docTf and 1 + ln tf in docLogTf.
 */
interface DocTerms {
  readonly termIds: ReadonlyMap<string, number>;
  readonly docStart: Int32Array;
  readonly docTerm: Int32Array;
  readonly docTf: Int32Array;
  readonly docLogTf: Float32Array;
}

/** The postings of one term: documents ascending, each with 1 + ln tf (as a float32). */
export interface TermPostings {
  readonly doc: Int32Array;
  readonly logTf: Float32Array;
}

/**
 * A {@link CosineIndex} as a store gives it back ({@link CosineIndex}'s constructor uses it as
 * it is, over its whole collection only): a term lookup, the postings of a term on demand, and
 * the norm of each document over the whole collection.
 */
export interface StoredCosine {
  /** Per term id t, postStart[t + 1] − postStart[t] is its number of documents (T + 1 entries). */
  readonly postStart: Int32Array;
  /** Per document, its norm over the whole collection. */
  readonly norms: Float64Array;
  /** The id of `term`, or undefined when no document holds it. */
  termId(term: string): number | undefined;
  /** The postings of term `t` (as many as postStart says). */
  postings(t: number): TermPostings;
}

/**
 * What a {@link CosineIndex} is stored from ({@link CosineIndex.tables}): its terms, its postings
 * term-major (the documents of term t are postDoc[postStart[t] … postStart[t+1]), ascending, each
 * with its tf in postTf) and the norm of each document over the whole collection.
 */
export interface CosineTables {
  readonly terms: readonly string[];
  readonly postStart: Int32Array;
  readonly postDoc: Int32Array;
  readonly postTf: Int32Array;
  readonly norms: Float64Array;
}

/** 1 + ln tf as the index holds it (a float32): the same value whether computed or stored. */
export const logTfOf = (tf: number): number => Math.fround(1 + Math.log(tf));

/** The {@link DocTerms} of token lists (term ids in order of first occurrence). */
function docTermsOf(docs: readonly (readonly string[])[]): DocTerms {
  const termIds = new Map<string, number>();
  const docStart = new Int32Array(docs.length + 1);
  const terms: number[] = [];
  const tfs: number[] = [];
  // per term id: the last document it occurred in (+1) and its entry there (no map per document)
  const lastDoc: number[] = [];
  const entry: number[] = [];
  docs.forEach((tokens, d) => {
    for (const t of tokens) {
      let id = termIds.get(t);
      if (id === undefined) { id = termIds.size; termIds.set(t, id); lastDoc.push(0); entry.push(0); }
      if (lastDoc[id] === d + 1) tfs[entry[id]]++;
      else { lastDoc[id] = d + 1; entry[id] = terms.length; terms.push(id); tfs.push(1); }
    }
    docStart[d + 1] = terms.length;
  });
  const docTf = Int32Array.from(tfs);
  return { termIds, docStart, docTerm: Int32Array.from(terms), docTf, docLogTf: Float32Array.from(docTf, (tf) => 1 + Math.log(tf)) };
}

/**
 * ln(N / df) of term `t` in collection `c` (0 for a term of no member), computed on first use
 * (again while it is 0: a term of every member).
 */
function idfOf(c: Collection, t: number): number {
  let idf = c.idf[t];
  if (idf === 0 && c.df[t] > 0) idf = c.idf[t] = Math.log(c.size / c.df[t]);
  return idf;
}

/**
 * Cosine similarity between tf-idf vectors (the VSM of Zhou, Zhang & Lo 2012, "Where should the
 * bugs be fixed?", ICSE, Eq. 2–3): w(t, d) = (1 + ln tf(t, d)) · ln(N / df(t)), and
 * cos(q, d) = Σ_t w(t, q) · w(t, d) / (‖q‖ · ‖d‖), with N and df those of a collection of the
 * documents ({@link CosineIndex.collection}; default all), so a query over earlier documents is
 * weighed by earlier documents alone.
 *
 * Documents are token lists (tokenized like the query). Query cost: linear in the postings of
 * the query's terms plus the terms of the documents they reach; a collection costs one pass
 * over its members' terms.
 */
export class CosineIndex {
  private readonly termId: (term: string) => number | undefined;
  /** Document-major: terms of document d at docStart[d] … docStart[d+1], with tf (none in a stored index). */
  private readonly docStart?: Int32Array;
  private readonly docTerm?: Int32Array;
  private readonly docTf?: Int32Array;
  private readonly docLogTf?: Float32Array;
  /** A stored index: its postings on demand and its norms over the whole collection. */
  private readonly store?: StoredCosine;
  /** Term-major postings: documents of term t at postStart[t] … postStart[t+1], with 1 + ln tf (a built index's). */
  private readonly postStart: Int32Array;
  private readonly postDoc?: Int32Array;
  private readonly postLogTf?: Float32Array;
  private readonly termList?: readonly string[];
  /**
   * A query's sums and the norms of the collection last queried side by side: 2d holds document
   * d's Σ_t w(t, q) · w(t, d) while a query runs (0 between queries), 2d + 1 its norm (NaN until
   * known), so the pass over the reached documents reads one cache line per document.
   */
  private sums?: Float64Array;
  private sumsFor?: Collection;
  /** The documents a query reached in one block of documents, first nTouched of it (made on first query). */
  private touched?: Int32Array;
  private whole: Collection | undefined;
  /** Number of documents. */
  readonly size: number;

  /**
   * @param docs the documents as token lists, or a stored index ({@link StoredCosine}): used as
   *   it is, without its documents (its whole collection only).
   */
  constructor(docs: readonly (readonly string[])[] | StoredCosine) {
    if ('norms' in docs) {
      this.size = docs.norms.length;
      this.store = docs;
      this.termId = (t) => docs.termId(t);
      this.postStart = docs.postStart;
      return;
    }
    const { termIds, docStart, docTerm, docTf, docLogTf } = docTermsOf(docs);
    this.termId = (t) => termIds.get(t);
    this.termList = [...termIds.keys()];
    this.size = docStart.length - 1;
    this.docStart = docStart;
    this.docTerm = docTerm;
    this.docTf = docTf;
    this.docLogTf = docLogTf;
    const T = termIds.size;
    this.postStart = new Int32Array(T + 1);
    for (let k = 0; k < docTerm.length; k++) this.postStart[docTerm[k] + 1]++;
    for (let t = 0; t < T; t++) this.postStart[t + 1] += this.postStart[t];
    const fill = this.postStart.slice(0, T);
    this.postDoc = new Int32Array(docTerm.length);
    this.postLogTf = new Float32Array(docTerm.length);
    for (let doc = 0; doc < this.size; doc++) {
      for (let k = docStart[doc]; k < docStart[doc + 1]; k++) {
        const p = fill[docTerm[k]]++;
        this.postDoc[p] = doc;
        this.postLogTf[p] = docLogTf[k];
      }
    }
  }

  /** Number of distinct terms. */
  private get termCount(): number {
    return this.postStart.length - 1;
  }

  /**
   * What this index is stored from (the norms computed now over the whole collection): a store
   * of them gives back a {@link StoredCosine} with the same results.
   * @throws Error for a stored index (it is stored already).
   */
  tables(): CosineTables {
    const { docStart, docTerm, docTf, postDoc, termList } = this;
    if (!docStart || !docTerm || !docTf || !postDoc || !termList) throw new Error('a stored cosine index is stored already');
    const whole = this.collection();
    const norms = new Float64Array(this.size);
    for (let d = 0; d < this.size; d++) norms[d] = this.normOf(d, whole);
    const postTf = new Int32Array(postDoc.length);
    const fill = this.postStart.slice(0, this.termCount);
    for (let doc = 0; doc < this.size; doc++) {
      for (let k = docStart[doc]; k < docStart[doc + 1]; k++) postTf[fill[docTerm[k]]++] = docTf[k];
    }
    return { terms: termList, postStart: this.postStart, postDoc, postTf, norms };
  }

  /**
   * The statistics of the documents d with members[d] = 1 (default: all documents).
   * Cost: linear in the members' distinct terms.
   */
  collection(members?: Uint8Array): Collection {
    if (!members && this.whole) return this.whole;
    const mark = members ?? new Uint8Array(this.size).fill(1);
    const df = new Int32Array(this.termCount);
    let size = 0;
    if (members) {
      if (!this.docStart || !this.docTerm) throw new Error('a stored cosine index has its whole collection only');
      for (let d = 0; d < this.size; d++) {
        if (mark[d] !== 1) continue;
        size++;
        for (let k = this.docStart[d]; k < this.docStart[d + 1]; k++) df[this.docTerm[k]]++;
      }
    } else {
      // every document: a term's df is its number of postings (a document holds a term once)
      size = this.size;
      const { postStart } = this;
      for (let t = 0; t < df.length; t++) {
        const n = postStart[t + 1] - postStart[t];
        if (n < 0) throw new Error(`the postings of term ${t} cannot be counted`);
        df[t] = n;
      }
    }
    // computed per term on first use (idfOf): a query reads a few of them
    const idf = new Float64Array(df.length);
    const c: Collection = { members: mark, size, df, idf, norms: !members && this.store ? this.store.norms : new Float64Array(this.size).fill(NaN) };
    if (!members) this.whole = c;
    return c;
  }

  private normOf(d: number, c: Collection): number {
    let n = c.norms[d];
    if (Number.isNaN(n)) {
      const { docStart, docTerm, docLogTf } = this;
      if (!docStart || !docTerm || !docLogTf) throw new Error('a stored cosine index has no norm of document ' + d);
      let sq = 0;
      for (let k = docStart[d]; k < docStart[d + 1]; k++) {
        const w = docLogTf[k] * idfOf(c, docTerm[k]);
        sq += w * w;
      }
      n = c.norms[d] = Math.sqrt(sq);
    } else if (!(n >= 0 && n < Infinity)) {
      throw new Error(`the norm of document ${d} is ${n}`); // a stored one (a computed one is never so)
    }
    return n;
  }

  /** The postings of term `t`: documents doc[from … to), ascending, with 1 + ln tf. */
  private postingsOf(t: number): { doc: Int32Array; logTf: Float32Array; from: number; to: number } {
    if (this.store) {
      const { doc, logTf } = this.store.postings(t);
      return { doc, logTf, from: 0, to: doc.length };
    }
    return { doc: this.postDoc!, logTf: this.postLogTf!, from: this.postStart[t], to: this.postStart[t + 1] };
  }

  /** The {@link sums}, with the norms of collection `c` (copied when another collection was queried last). */
  private sumsOf(c: Collection): Float64Array {
    const sums = (this.sums ??= new Float64Array(2 * this.size));
    if (this.sumsFor !== c) {
      for (let d = 0; d < this.size; d++) sums[2 * d + 1] = c.norms[d];
      this.sumsFor = c;
    }
    return sums;
  }

  /** Per mask of searched documents, the postings of each term read so far restricted to them. */
  private readonly searchedTerms = new WeakMap<Uint8Array, Map<number, TermPostings>>();

  /**
   * The postings of term `t` of the documents d with searched[d] = 1 (ascending), made on the
   * term's first search with this mask and kept while the mask is (a base commit's history
   * searches with one mask: `searchedMask`).
   */
  private searchedPostings(t: number, searched: Uint8Array): { doc: Int32Array; logTf: Float32Array; from: number; to: number } {
    let terms = this.searchedTerms.get(searched);
    if (!terms) this.searchedTerms.set(searched, (terms = new Map()));
    let kept = terms.get(t);
    if (!kept) {
      const { doc, logTf, from, to } = this.postingsOf(t);
      let m = 0;
      for (let p = from; p < to; p++) if (searched[doc[p]] === 1) m++;
      kept = { doc: new Int32Array(m), logTf: new Float32Array(m) };
      m = 0;
      for (let p = from; p < to; p++) {
        if (searched[doc[p]] !== 1) continue;
        kept.doc[m] = doc[p];
        kept.logTf[m++] = logTf[p];
      }
      terms.set(t, kept);
    }
    return { doc: kept.doc, logTf: kept.logTf, from: 0, to: kept.doc.length };
  }

  /**
   * The `top` members most similar to `query` (cosine > 0), best first (ties: lower document
   * number first).
   */
  similar(query: readonly string[], top: number, opts: SimilarOptions = {}): SimilarDoc[] {
    const c = opts.within ?? this.collection();
    const { allowed, maxDf = Infinity } = opts;
    const q = new Map<number, number>();
    for (const t of query) {
      const id = this.termId(t);
      if (id !== undefined && c.df[id] > 0) q.set(id, (q.get(id) ?? 0) + 1);
    }
    if (q.size === 0 || top <= 0) return [];
    const searched = allowed ? searchedMask(c.members, allowed) : c.members;
    // a mask kept from query to query (the allowed documents', the whole collection's): each
    // term's postings restricted to it once; a mask made for this query: every posting checked
    const kept = allowed !== undefined || c === this.whole;
    const touched = (this.touched ??= new Int32Array(this.size));
    const sums = this.sumsOf(c);
    // ‖q‖ over every query term; the postings of the terms that count, in query order
    let qsq = 0;
    const lists: { doc: Int32Array; logTf: Float32Array; at: number; to: number; wq: number; idf: number }[] = [];
    for (const [t, tf] of q) {
      const idf = idfOf(c, t);
      const wq = (1 + Math.log(tf)) * idf;
      qsq += wq * wq;
      if (wq <= 0 || c.df[t] > maxDf) continue;
      const { doc, logTf, from, to } = kept ? this.searchedPostings(t, searched) : this.postingsOf(t);
      lists.push({ doc, logTf, at: from, to, wq, idf });
    }
    const qn = Math.sqrt(qsq);
    const best = new BestHits(Math.min(top, this.size));
    // block after block of documents (a block's sums stay in the nearest caches): each term's
    // postings in the block added in query order (every document's sum adds its terms in the
    // same order as one pass per term would), then the block's reached documents offered (the
    // best hits do not depend on the order they are offered in); a norm known and valid is read
    // there, one not computed yet (NaN) or stored wrong: normOf
    for (let lo = 0; lo < this.size; lo += SIMILAR_BLOCK) {
      const hi = lo + SIMILAR_BLOCK;
      let nTouched = 0;
      for (const l of lists) {
        const { doc, logTf, to, wq, idf } = l;
        let p = l.at;
        for (; p < to; p++) {
          const d = doc[p];
          if (d >= hi) break;
          if (!kept && searched[d] !== 1) continue;
          const sum = sums[2 * d];
          if (sum === 0) touched[nTouched++] = d;
          sums[2 * d] = sum + wq * logTf[p] * idf;
        }
        l.at = p;
      }
      for (let k = 0; k < nTouched; k++) {
        const d = touched[k];
        let norm = sums[2 * d + 1];
        if (!(norm >= 0 && norm < Infinity)) norm = sums[2 * d + 1] = this.normOf(d, c);
        const sum = sums[2 * d];
        if (sum > 0 && norm > 0) best.offer(d, sum / (qn * norm));
        sums[2 * d] = 0;
      }
    }
    return best.sorted();
  }
}

/** Documents per block of {@link CosineIndex.similar} (their sums and norms: 64 KiB). */
const SIMILAR_BLOCK = 4096;

/** Per collection's members and allowed documents, the documents both mark (1). */
const searchedMasks = new WeakMap<Uint8Array, { members: Uint8Array; mask: Uint8Array }>();

/** The documents d with members[d] = 1 and allowed[d] = 1, as a mask (kept for the last members of each `allowed`). */
function searchedMask(members: Uint8Array, allowed: Uint8Array): Uint8Array {
  const memo = searchedMasks.get(allowed);
  if (memo?.members === members) return memo.mask;
  const mask = new Uint8Array(members.length);
  for (let d = 0; d < mask.length; d++) mask[d] = members[d] === 1 && allowed[d] === 1 ? 1 : 0;
  searchedMasks.set(allowed, { members, mask });
  return mask;
}

/**
 * The `size` best of the (document, score) pairs offered: higher score first, at equal scores
 * the lower document; a bounded heap on typed arrays whose root is the worst kept, so most
 * offers cost one comparison (the list sorting every pair and cutting it gives).
 */
class BestHits {
  private readonly doc: Int32Array;
  private readonly score: Float64Array;
  private n = 0;

  constructor(private readonly size: number) {
    this.doc = new Int32Array(size);
    this.score = new Float64Array(size);
  }

  /** Whether (d, s) is worse than the kept pair at heap slot i. */
  private worse(d: number, s: number, i: number): boolean {
    return s < this.score[i] || (s === this.score[i] && d > this.doc[i]);
  }

  /** Keeps (d, s) if it is among the best so far (each document offered once). */
  offer(d: number, s: number): void {
    const { doc, score, size } = this;
    if (this.n < size) {
      // sift up: the parent moves down while (d, s) is worse than it
      let i = this.n++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(d, s, parent)) break;
        doc[i] = doc[parent]; score[i] = score[parent];
        i = parent;
      }
      doc[i] = d; score[i] = s;
      return;
    }
    if (size === 0 || this.worse(d, s, 0)) return; // no better than the worst kept
    // sift down from the root: the worse child moves up while it is worse than (d, s)
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const m = r < size && this.worse(doc[r], score[r], l) ? r : l;
      if (!(score[m] < s || (score[m] === s && doc[m] > d))) break;
      doc[i] = doc[m]; score[i] = score[m];
      i = m;
    }
    doc[i] = d; score[i] = s;
  }

  /** The kept pairs, best first. */
  sorted(): SimilarDoc[] {
    const out: SimilarDoc[] = [];
    for (let i = 0; i < this.n; i++) out.push({ doc: this.doc[i], score: this.score[i] });
    return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}

/**
 * BugLocator's SimiScore (Zhou, Zhang & Lo 2012, Eq. 7): for each file f,
 * SimiScore(f) = Σ over similar reports S that fixed f of cos(B, S) / n_S, with n_S the number
 * of files S fixed. Ye et al. (2014) use the same evidence as their collaborative-filtering
 * feature (f3).
 * @param similar the similar reports with their similarity.
 * @param filesOf the files a report fixed.
 * @returns file → score; files of no similar report are absent.
 */
export function simiScore(similar: readonly SimilarDoc[], filesOf: (doc: number) => readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const { doc, score } of similar) {
    const files = filesOf(doc);
    if (files.length === 0) continue;
    const share = score / files.length;
    for (const f of files) out.set(f, (out.get(f) ?? 0) + share);
  }
  return out;
}
