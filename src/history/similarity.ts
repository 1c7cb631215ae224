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
 * Cosine similarity between tf-idf vectors (the VSM of Zhou, Zhang & Lo 2012, "Where should the
 * bugs be fixed?", ICSE, Eq. 2–3): w(t, d) = (1 + ln tf(t, d)) · ln(N / df(t)), and
 * cos(q, d) = Σ_t w(t, q) · w(t, d) / (‖q‖ · ‖d‖).
 *
 * Documents are token lists (tokenized like the query). Query cost: linear in the postings of
 * the query's terms.
 */
export class CosineIndex {
  private readonly termIds = new Map<string, number>();
  private readonly postStart: Int32Array;
  private readonly postDoc: Int32Array;
  private readonly postWeight: Float32Array;
  private readonly norm: Float32Array;
  private readonly scratch: Float32Array;
  readonly size: number;

  constructor(docs: readonly (readonly string[])[]) {
    this.size = docs.length;
    const tfs = docs.map((tokens) => {
      const m = new Map<number, number>();
      for (const t of tokens) {
        let id = this.termIds.get(t);
        if (id === undefined) { id = this.termIds.size; this.termIds.set(t, id); }
        m.set(id, (m.get(id) ?? 0) + 1);
      }
      return m;
    });
    const T = this.termIds.size;
    const df = new Int32Array(T);
    for (const m of tfs) for (const t of m.keys()) df[t]++;
    this.postStart = new Int32Array(T + 1);
    for (let t = 0; t < T; t++) this.postStart[t + 1] = this.postStart[t] + df[t];
    const fill = this.postStart.slice(0, T);
    const total = this.postStart[T];
    this.postDoc = new Int32Array(total);
    this.postWeight = new Float32Array(total);
    this.norm = new Float32Array(docs.length);
    tfs.forEach((m, d) => {
      let sq = 0;
      for (const [t, tf] of m) {
        const w = (1 + Math.log(tf)) * this.idfOf(df[t]);
        const p = fill[t]++;
        this.postDoc[p] = d;
        this.postWeight[p] = w;
        sq += w * w;
      }
      this.norm[d] = Math.sqrt(sq);
    });
    this.scratch = new Float32Array(docs.length);
  }

  private idfOf(df: number): number {
    return Math.log(this.size / df);
  }

  /**
   * The `top` documents most similar to `query` (cosine > 0), best first.
   * @param allowed when given, only documents d with allowed[d] = 1 are considered.
   * @param maxDf query terms found in more documents than this are skipped (their idf is small
   *   and their postings long; default: none skipped). They still count in the query norm, so
   *   cosines stay comparable.
   */
  similar(query: readonly string[], top: number, allowed?: Uint8Array, maxDf = Infinity): SimilarDoc[] {
    const q = new Map<number, number>();
    for (const t of query) {
      const id = this.termIds.get(t);
      if (id !== undefined) q.set(id, (q.get(id) ?? 0) + 1);
    }
    if (q.size === 0 || top <= 0) return [];
    const acc = this.scratch;
    const touched: number[] = [];
    let qsq = 0;
    for (const [t, tf] of q) {
      const df = this.postStart[t + 1] - this.postStart[t];
      const wq = (1 + Math.log(tf)) * this.idfOf(df);
      qsq += wq * wq;
      if (wq <= 0 || df > maxDf) continue;
      for (let p = this.postStart[t]; p < this.postStart[t + 1]; p++) {
        const d = this.postDoc[p];
        if (allowed && allowed[d] === 0) continue;
        if (acc[d] === 0) touched.push(d);
        acc[d] += wq * this.postWeight[p];
      }
    }
    const qn = Math.sqrt(qsq);
    const hits: SimilarDoc[] = [];
    for (const d of touched) {
      if (acc[d] > 0 && this.norm[d] > 0) hits.push({ doc: d, score: acc[d] / (qn * this.norm[d]) });
      acc[d] = 0;
    }
    hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return hits.slice(0, top);
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
