/**
 * File retrievers by name, as the CLI and the evaluation name them: `bm25f`, `tfidf`, `rvsm`,
 * and `lsi<k>` for any k (`lsi500`, `lsi1000` in the paper). A new model plugs in by adding a
 * case here and implementing `FileRetriever`.
 */
import { IssuelocError } from '../../errors.js';
import { Bm25fFileRetriever } from './bm25f.js';
import { LsiRetriever } from './lsi.js';
import { RvsmRetriever, type RvsmVariant } from './rvsm.js';
import { TfidfRetriever, type TfWeighting } from './tfidf.js';
import type { FileRetriever } from './types.js';
import type { Bm25fParams } from '../bm25f.js';

/** The five retrievers of the paper, in its table order. */
export const PAPER_RETRIEVERS: readonly string[] = ['tfidf', 'rvsm', 'lsi500', 'lsi1000', 'bm25f'];

/** Settings shared by all retrievers of a run (each reads the ones it knows). */
export interface RetrieverSettings {
  /** TF weighting of `tfidf` and `lsi*`; default `'fields'`. */
  tfWeighting?: TfWeighting;
  /** rVSM formulas; default `'replication'`. */
  rvsmVariant?: RvsmVariant;
  /** BM25F+ parameters (defaults k1 1.2, b 0.75, δ 1, equal weights). */
  bm25?: Partial<Bm25fParams>;
  /** BM25F+ query weights; default `'unique'`. */
  bm25QueryWeights?: 'unique' | 'count';
  /** LSI: largest share of differing files for which a fitted SVD is reused; default 0 (exact). */
  lsiRefit?: number;
  /** LSI: power iterations of the randomized SVD; default 1. */
  lsiPowerIterations?: number;
}

/**
 * Parses a comma-separated list of retriever names (duplicates dropped, order kept).
 * @throws IssuelocError for an unknown name or an empty list.
 */
export function parseRetrieverList(spec: string): string[] {
  const names = [...new Set(spec.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (names.length === 0) throw new IssuelocError('--retrievers: give at least one retriever (bm25f, tfidf, rvsm, lsi500, lsi1000)');
  for (const n of names) checkName(n);
  return names;
}

function checkName(name: string): void {
  if (name === 'bm25f' || name === 'tfidf' || name === 'rvsm') return;
  const m = /^lsi([1-9][0-9]*)$/.exec(name);
  if (m && Number(m[1]) <= 100000) return;
  throw new IssuelocError(`unknown retriever '${name}' (expected bm25f, tfidf, rvsm or lsi<k> such as lsi500)`);
}

/**
 * A new retriever by name.
 * @throws IssuelocError for an unknown name.
 */
export function createFileRetriever(name: string, settings: RetrieverSettings = {}): FileRetriever {
  checkName(name);
  switch (name) {
    case 'bm25f': return new Bm25fFileRetriever({ params: settings.bm25, queryWeights: settings.bm25QueryWeights });
    case 'tfidf': return new TfidfRetriever({ weighting: settings.tfWeighting });
    case 'rvsm': return new RvsmRetriever({ variant: settings.rvsmVariant });
    default:
      return new LsiRetriever({
        dimensions: Number(name.slice(3)),
        weighting: settings.tfWeighting,
        refit: settings.lsiRefit,
        powerIterations: settings.lsiPowerIterations,
      });
  }
}
