/**
 * The common interface of the file-level retrievers of the evaluation ("file localisation from
 * issues at large", §3.4): each ranks the candidate files of one issue's a-priori state, with
 * every collection statistic (IDF, average lengths, the SVD of LSI) computed on that file set.
 *
 * A retriever is stateful: {@link FileRetriever.index} takes the corpus of one state, then
 * {@link FileRetriever.score} scores queries against it until the next `index` call. New models
 * plug in by implementing this interface and registering a factory in `registry.ts`.
 *
 * @example
 * const r = createFileRetriever('tfidf');
 * r.index(corpus);
 * const ranking = rankFiles(corpus, r.score(query), r.retrievesAll);
 */
import type { FileCorpus } from './corpus.js';

/** A query: term → count (the tokens, tokenized like the documents). */
export type QueryTerms = ReadonlyMap<string, number>;

/** A file-level retriever (see the module comment). */
export interface FileRetriever {
  /** Short name used in tables, runs and CLI flags (`bm25f`, `tfidf`, `rvsm`, `lsi500`, …). */
  readonly name: string;
  /**
   * Whether every document gets a meaningful score. False for lexical models, whose documents
   * sharing no term with the query score exactly 0 and are not retrieved (left out of the
   * ranking, as Lucene and trec_eval treat them); true for LSI, where any document may be
   * similar to the query in the latent space.
   */
  readonly retrievesAll: boolean;
  /** Indexes the candidate files of one a-priori state (replaces the previous corpus). */
  index(corpus: FileCorpus): void;
  /**
   * Scores every document of the indexed corpus.
   * @returns a new Float64Array aligned with `corpus.ids`; finite values, higher is better.
   * @throws Error when called before {@link index}.
   */
  score(query: QueryTerms): Float64Array;
  /** Optional counters for reports (e.g. LSI fits and reuses). */
  stats?(): Record<string, number>;
}

/** One ranked file. */
export interface RankedFile {
  readonly id: string;
  readonly score: number;
}

/**
 * Orders documents by score, best first; equal scores keep corpus order (path order), so
 * rankings are deterministic.
 * @param retrievesAll when false, documents scoring 0 or less are left out (not retrieved).
 */
export function rankFiles(corpus: FileCorpus, scores: Float64Array, retrievesAll: boolean): RankedFile[] {
  const order: number[] = [];
  for (let d = 0; d < scores.length; d++) if (retrievesAll || scores[d] > 0) order.push(d);
  order.sort((a, b) => scores[b] - scores[a] || a - b);
  return order.map((d) => ({ id: corpus.ids[d], score: scores[d] }));
}
