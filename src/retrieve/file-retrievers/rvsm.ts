/**
 * rVSM, the revised vector space model of BugLocator (Zhou, Zhang & Lo 2012, "Where should the
 * bugs be fixed?", ICSE'12; "file localisation from issues at large", Eq. 2–3): a VSM with
 * logarithmic term frequency, whose cosine is multiplied by a sigmoid of the document's
 * normalised length, so that larger files (more likely to hold bugs) rank higher:
 *
 *   g(#terms) = 1 / (1 + e^(−N(#terms))),   N(x) = (x − x_min) / (x_max − x_min)        (Eq. 3)
 *   rVSMScore(q, d) = g(#terms(d)) · cos(q, d)                                          (Eq. 2)
 *
 * with #terms the joint document's length in tokens and x_min, x_max over the candidate files.
 * Term weights, two variants:
 * - `'replication'` (default): as the paper's replication package (`RevisedVsmVectorizerBase`):
 *   tf = ln(1 + f), idf = ln((1 + n) / (1 + df)) + 1 (scikit-learn's smooth IDF);
 * - `'zhou'`: as Zhou et al. write it: tf = ln(f) + 1, idf = ln(n / df).
 * The query is weighted like a document. When every file has the same length, g = 1/2 for all.
 */
import { invertRows, type Postings } from '../../index/inverted-index.js';
import { type FileCorpus } from './corpus.js';
import { cosineScores, documentFrequencies, rowNorms, smoothIdf, termFrequencyRows, type WeightedRows } from './tfidf.js';
import type { FileRetriever, QueryTerms } from './types.js';

/** Which formulas of rVSM (see the module comment). */
export type RvsmVariant = 'replication' | 'zhou';

/** Options of {@link RvsmRetriever}. */
export interface RvsmOptions {
  /** Default `'replication'`. */
  variant?: RvsmVariant;
  /** Name in tables; default `rvsm`. */
  name?: string;
}

/** The length factor g of Eq. 3 for every document, from their lengths. */
export function lengthFactors(lengths: ArrayLike<number>): Float64Array {
  const n = lengths.length;
  const g = new Float64Array(n);
  if (n === 0) return g;
  let min = Infinity;
  let max = -Infinity;
  for (let d = 0; d < n; d++) {
    min = Math.min(min, lengths[d]);
    max = Math.max(max, lengths[d]);
  }
  const span = max - min;
  for (let d = 0; d < n; d++) g[d] = 1 / (1 + Math.exp(-(span > 0 ? (lengths[d] - min) / span : 0)));
  return g;
}

/** Length in tokens of each file's joint text (all fields). */
export function jointLengths(c: FileCorpus): Float64Array {
  const len = new Float64Array(c.ids.length);
  for (const f of c.fields) for (let d = 0; d < len.length; d++) len[d] += f.length[d];
  return len;
}

/** rVSM (see the module comment). */
export class RvsmRetriever implements FileRetriever {
  readonly name: string;
  readonly retrievesAll = false;
  private readonly variant: RvsmVariant;
  private state?: { corpus: FileCorpus; rows: WeightedRows; idf: Float64Array; norms: Float64Array; g: Float64Array; postings: Postings };

  constructor(options: RvsmOptions = {}) {
    this.variant = options.variant ?? 'replication';
    this.name = options.name ?? 'rvsm';
  }

  private tf(f: number): number {
    return this.variant === 'zhou' ? Math.log(f) + 1 : Math.log(1 + f);
  }

  private idfOf(df: number, n: number): number {
    return this.variant === 'zhou' ? Math.log(n / df) : smoothIdf(df, n);
  }

  index(corpus: FileCorpus): void {
    const rows = termFrequencyRows(corpus, 'joint');
    const n = corpus.ids.length;
    const df = documentFrequencies(rows, corpus.vocabulary.size);
    const idf = new Float64Array(df.length);
    for (let t = 0; t < df.length; t++) if (df[t] > 0) idf[t] = this.idfOf(df[t], n);
    for (let p = 0; p < rows.term.length; p++) rows.val[p] = this.tf(rows.val[p]) * idf[rows.term[p]];
    this.state = {
      corpus, rows, idf, norms: rowNorms(rows), g: lengthFactors(jointLengths(corpus)),
      postings: invertRows(rows, corpus.vocabulary.size),
    };
  }

  score(query: QueryTerms): Float64Array {
    if (!this.state) throw new Error(`${this.name}: score() before index()`);
    const { corpus, rows, idf, norms, g, postings } = this.state;
    const q = new Map<number, number>();
    for (const [term, count] of query) {
      const t = corpus.vocabulary.get(term);
      if (t === undefined || count <= 0 || t >= idf.length || idf[t] === 0) continue;
      q.set(t, this.tf(count) * idf[t]);
    }
    const s = cosineScores(q, rows, norms, postings, corpus.ids.length);
    for (let d = 0; d < s.length; d++) s[d] *= g[d];
    return s;
  }
}
