/**
 * VSM with TF-IDF weights and cosine similarity ("file localisation from issues at large", Eq. 1;
 * Salton, Wong & Yang 1975), the IDF computed on the candidate files of the a-priori state
 * with scikit-learn's smoothing:
 *
 *   idf(t) = ln((1 + n) / (1 + df(t))) + 1          (Eq. 1; sklearn `TfidfTransformer(smooth_idf=True)`)
 *   w(t, d) = tf(t, d) · idf(t),   score(q, d) = cos(w_q, w_d)
 *
 * Two term-frequency weightings:
 * - `'fields'` (default): the paper's replication package (gml4tdm/replication-package-issue-linking,
 *   `TfidfVectorizer(tf='freq', idf='idf')` with field support): each field (file name, content)
 *   is weighted by its relative term frequency tf_f(t, d) / |d_f| and the field vectors are summed.
 *   This gives the short file-name field as much mass as the whole content.
 * - `'joint'`: scikit-learn's `TfidfVectorizer` defaults on the joint text (raw counts, l2-normed).
 * The query (one field) is weighted alike; cosine makes the scale of either vector irrelevant.
 */
import { invertRows, type Postings } from '../../index/inverted-index.js';
import { type FileCorpus } from './corpus.js';
import type { FileRetriever, QueryTerms } from './types.js';

/** How term frequencies are weighted (see the module comment). */
export type TfWeighting = 'fields' | 'joint';

/** Doc-major sparse rows with real values (a TF-IDF matrix). Column ids are vocabulary ids. */
export interface WeightedRows {
  readonly start: Uint32Array;
  readonly term: Uint32Array;
  readonly val: Float64Array;
}

/** scikit-learn's smooth IDF: ln((1 + n) / (1 + df)) + 1 (Eq. 1). */
export function smoothIdf(df: number, n: number): number {
  return Math.log((1 + n) / (1 + df)) + 1;
}

/**
 * The term-frequency part of every document: fields merged term by term (in term order, as the
 * fields: see `corpus.ts`), each entry's value = Σ_f tf_f / |d_f| (`'fields'`) or Σ_f tf_f
 * (`'joint'`). Linear in the entries.
 */
export function termFrequencyRows(c: FileCorpus, weighting: TfWeighting): WeightedRows {
  const n = c.ids.length;
  let total = 0;
  for (const f of c.fields) total += f.term.length;
  const start = new Uint32Array(n + 1);
  const term = new Uint32Array(total);
  const val = new Float64Array(total);
  const F = c.fields.length;
  const pos = new Uint32Array(F);
  const end = new Uint32Array(F);
  const scale = new Float64Array(F);
  const rank = c.vocabulary.ranks();
  let out = 0;
  for (let d = 0; d < n; d++) {
    for (let f = 0; f < F; f++) {
      const fm = c.fields[f];
      pos[f] = fm.start[d];
      end[f] = fm.start[d + 1];
      scale[f] = weighting === 'joint' ? 1 : fm.length[d] > 0 ? 1 / fm.length[d] : 0;
    }
    for (;;) {
      let t = -1;
      let r = Infinity;
      for (let f = 0; f < F; f++) {
        if (pos[f] < end[f] && rank[c.fields[f].term[pos[f]]] < r) {
          t = c.fields[f].term[pos[f]];
          r = rank[t];
        }
      }
      if (t < 0) break;
      let v = 0;
      for (let f = 0; f < F; f++) {
        if (pos[f] < end[f] && c.fields[f].term[pos[f]] === t) {
          v += c.fields[f].tf[pos[f]] * scale[f];
          pos[f]++;
        }
      }
      term[out] = t;
      val[out] = v;
      out++;
    }
    start[d + 1] = out;
  }
  return { start, term: term.subarray(0, out), val: val.subarray(0, out) };
}

/** Document frequency of every vocabulary id over the rows (ids ≥ the rows' ids count 0). */
export function documentFrequencies(rows: WeightedRows, vocabSize: number): Uint32Array {
  const df = new Uint32Array(vocabSize);
  for (let p = 0; p < rows.term.length; p++) df[rows.term[p]]++;
  return df;
}

/** Euclidean norm of each row. */
export function rowNorms(rows: WeightedRows): Float64Array {
  const n = rows.start.length - 1;
  const norm = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    let s = 0;
    for (let p = rows.start[d]; p < rows.start[d + 1]; p++) s += rows.val[p] * rows.val[p];
    norm[d] = Math.sqrt(s);
  }
  return norm;
}

/**
 * The TF-IDF matrix of a corpus with smooth IDF on its own documents.
 * @returns the rows (values tf · idf), the IDF of every vocabulary id (0 for ids absent from the
 *   corpus) and the documents' norms.
 */
export function tfidfMatrix(c: FileCorpus, weighting: TfWeighting): { rows: WeightedRows; idf: Float64Array; norms: Float64Array } {
  const rows = termFrequencyRows(c, weighting);
  const V = c.vocabulary.size;
  const df = documentFrequencies(rows, V);
  const n = c.ids.length;
  const idf = new Float64Array(V);
  for (let t = 0; t < V; t++) if (df[t] > 0) idf[t] = smoothIdf(df[t], n);
  for (let p = 0; p < rows.term.length; p++) rows.val[p] *= idf[rows.term[p]];
  return { rows, idf, norms: rowNorms(rows) };
}

/**
 * The TF-IDF vector of a query: term id → weight, for terms with a non-zero IDF (terms absent
 * from the corpus are dropped, as a fitted vectorizer drops unknown words).
 * @param idfOf IDF of a term id (0 or undefined = unknown).
 */
export function queryVector(
  query: QueryTerms, c: FileCorpus, weighting: TfWeighting, idfOf: (t: number) => number | undefined,
): Map<number, number> {
  let len = 0;
  for (const w of query.values()) len += w;
  const out = new Map<number, number>();
  if (len <= 0) return out;
  for (const [term, count] of query) {
    const t = c.vocabulary.get(term);
    if (t === undefined || count <= 0) continue;
    const idf = idfOf(t);
    if (!idf) continue;
    out.set(t, (weighting === 'joint' ? count : count / len) * idf);
  }
  return out;
}

/** Options of {@link TfidfRetriever}. */
export interface TfidfOptions {
  /** Default `'fields'` (the replication package's weighting). */
  weighting?: TfWeighting;
  /** Name in tables; default `tfidf`. */
  name?: string;
}

/** VSM with TF-IDF and cosine (see the module comment). */
export class TfidfRetriever implements FileRetriever {
  readonly name: string;
  readonly retrievesAll = false;
  private readonly weighting: TfWeighting;
  private corpus?: FileCorpus;
  private rows?: WeightedRows;
  private idf?: Float64Array;
  private norms?: Float64Array;
  private postings?: Postings;

  constructor(options: TfidfOptions = {}) {
    this.weighting = options.weighting ?? 'fields';
    this.name = options.name ?? 'tfidf';
  }

  index(corpus: FileCorpus): void {
    const { rows, idf, norms } = tfidfMatrix(corpus, this.weighting);
    this.corpus = corpus;
    this.rows = rows;
    this.idf = idf;
    this.norms = norms;
    this.postings = invertRows(rows, corpus.vocabulary.size);
  }

  score(query: QueryTerms): Float64Array {
    const { corpus, rows, idf, norms, postings } = this.ready();
    const q = queryVector(query, corpus, this.weighting, (t) => (t < idf.length ? idf[t] : 0));
    return cosineScores(q, rows, norms, postings, corpus.ids.length);
  }

  private ready() {
    if (!this.corpus || !this.rows || !this.idf || !this.norms || !this.postings) throw new Error(`${this.name}: score() before index()`);
    return { corpus: this.corpus, rows: this.rows, idf: this.idf, norms: this.norms, postings: this.postings };
  }
}

/**
 * Cosine of a sparse query vector with every row, through the postings of the query's terms.
 * @returns scores in [0, 1] for non-negative weights; 0 for rows or queries of norm 0.
 */
export function cosineScores(
  q: ReadonlyMap<number, number>, rows: WeightedRows, norms: Float64Array, postings: Postings, n: number,
): Float64Array {
  const scores = new Float64Array(n);
  let qn = 0;
  for (const w of q.values()) qn += w * w;
  if (qn === 0) return scores;
  qn = Math.sqrt(qn);
  for (const [t, w] of q) {
    if (t + 1 >= postings.start.length) continue;
    for (let p = postings.start[t]; p < postings.start[t + 1]; p++) scores[postings.doc[p]] += w * rows.val[postings.entry[p]];
  }
  for (let d = 0; d < n; d++) scores[d] = norms[d] > 0 ? scores[d] / (qn * norms[d]) : 0;
  return scores;
}
