/**
 * BM25F+ over files ("file localisation from issues at large", Eq. 4–6): the scorer of
 * `src/retrieve/bm25f.ts` (Robertson, Zaragoza & Taylor 2004 field-weighted term frequencies,
 * Lv & Zhai 2011 lower bound δ) on a two-field document per file, file name and content, with the
 * paper's settings k1 = 1.2, b = 0.75, δ = 1.0 and equal field weights.
 *
 * Query weights: by default each distinct issue term counts once (`queryWeights: 'unique'`), as
 * in the paper's replication package (its BM25 sums over the set of query terms); `'count'`
 * weights a term by its count in the issue, as `localize` does.
 *
 * The collection statistics (IDF, average field lengths) are those of the indexed corpus: the
 * candidate files of one a-priori state.
 */
import { invertFields, type CsrIndex } from '../../index/inverted-index.js';
import { Bm25fScorer, type Bm25fParams } from '../bm25f.js';
import type { FileCorpus } from './corpus.js';
import type { FileRetriever, QueryTerms } from './types.js';

/** Options of {@link Bm25fFileRetriever}. */
export interface Bm25fFileOptions {
  /** BM25F+ parameters; defaults k1 1.2, b 0.75, δ 1, weights 1 per field. */
  params?: Partial<Bm25fParams>;
  /** Default `'unique'` (see the module comment). */
  queryWeights?: 'unique' | 'count';
  /** Name in tables; default `bm25f`. */
  name?: string;
}

/**
 * The inverted index of a corpus (all fields; `invertFields`, the project's one inversion), its
 * term ids the corpus vocabulary's as it is now (ids added to the shared vocabulary later are
 * past the index's vocabulary).
 */
export function corpusInvertedIndex(c: FileCorpus): CsrIndex {
  return invertFields(c.fieldNames, c.vocabulary.terms.slice(0, c.vocabulary.size), c.vocabulary.ids, c.fields);
}

/** BM25F+ over the files of a corpus (see the module comment). */
export class Bm25fFileRetriever implements FileRetriever {
  readonly name: string;
  readonly retrievesAll = false;
  private readonly params: Partial<Bm25fParams>;
  private readonly unique: boolean;
  private scorer?: Bm25fScorer;
  private vocabSize = 0;

  constructor(options: Bm25fFileOptions = {}) {
    this.params = options.params ?? {};
    this.unique = (options.queryWeights ?? 'unique') === 'unique';
    this.name = options.name ?? 'bm25f';
  }

  index(corpus: FileCorpus): void {
    const index = corpusInvertedIndex(corpus);
    this.vocabSize = index.termCount;
    this.scorer = new Bm25fScorer(index, this.params);
  }

  score(query: QueryTerms): Float64Array {
    if (!this.scorer) throw new Error(`${this.name}: score() before index()`);
    const ids = this.scorer.index.termIds;
    const q = new Map<string, number>();
    for (const [term, count] of query) {
      const t = ids.get(term);
      if (t !== undefined && t < this.vocabSize && count > 0) q.set(term, this.unique ? 1 : count);
    }
    return Float64Array.from(this.scorer.scoreAll(q));
  }
}
