/**
 * A query's terms looked up in one index once per query: every stage of a query (the scorers of
 * both levels, the function-less files, the candidates' BM25 features, the count of matched
 * terms) reads the same query object, and each would otherwise search the index's dictionary
 * and decode each term's document frequency again.
 */
import type { InvertedIndex } from '../index/inverted-index.js';

/** A query: term → weight (`QueryTerms` of src/retrieve/bm25f.ts). */
type QueryTerms = ReadonlyMap<string, number>;

/** idf = ln(1 + (N − df + 0.5) / (df + 0.5)) of a term held by `df` of `docCount` (N) documents. */
export function idfOf(df: number, docCount: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/** A query's terms in one index, in the query's order (its entries' order). */
export interface ResolvedQuery {
  /** The terms. */
  readonly terms: readonly string[];
  /** Each term's weight qw (the query's value). */
  readonly weights: Float64Array;
  /** Each term's id in the index; −1 when the index lacks it. */
  readonly ids: Int32Array;
  /** Each present term's idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)) (`idfOf`); 0 when absent. */
  readonly idf: Float64Array;
}

/** Per index, the last queries resolved in it (a query object is read by several stages in a row). */
const resolvedByIndex = new WeakMap<InvertedIndex, WeakMap<QueryTerms, ResolvedQuery>>();
/** Per index, each term asked so far: its id and idf (id −1: the index lacks it). */
const termsByIndex = new WeakMap<InvertedIndex, Map<string, { id: number; idf: number }>>();
/** Terms kept per index in {@link termsByIndex} at most. */
const MAX_TERMS_KEPT = 100_000;

/**
 * The terms of `query` looked up in `index`: made on the first call for this query object and
 * index, and kept while the object lives; a kept answer is checked against the query's entries
 * (the same terms and weights in the same order) before it is given, so a query map changed
 * since is looked up again. Each term's id and idf are kept per index once looked up. Cost: one
 * pass over the query's entries.
 */
export function resolveQuery(index: InvertedIndex, query: QueryTerms): ResolvedQuery {
  let byQuery = resolvedByIndex.get(index);
  if (!byQuery) resolvedByIndex.set(index, (byQuery = new WeakMap()));
  const kept = byQuery.get(query);
  if (kept && sameEntries(kept, query)) return kept;
  let known = termsByIndex.get(index);
  if (!known) termsByIndex.set(index, (known = new Map()));
  const n = query.size;
  const terms: string[] = [];
  const weights = new Float64Array(n);
  const ids = new Int32Array(n);
  const idf = new Float64Array(n);
  let i = 0;
  for (const [term, qw] of query) {
    let entry = known.get(term);
    if (entry === undefined) {
      const t = index.termIds.get(term);
      entry = t === undefined ? { id: -1, idf: 0 } : { id: t, idf: idfOf(index.documentFrequency(t), index.docCount) };
      if (known.size < MAX_TERMS_KEPT) known.set(term, entry);
    }
    terms.push(term);
    weights[i] = qw;
    ids[i] = entry.id;
    idf[i] = entry.idf;
    i++;
  }
  const out: ResolvedQuery = { terms, weights, ids, idf };
  byQuery.set(query, out);
  return out;
}

/** Whether `query` holds exactly the terms and weights of `r`, in its order. */
function sameEntries(r: ResolvedQuery, query: QueryTerms): boolean {
  if (query.size !== r.terms.length) return false;
  let i = 0;
  let same = true;
  query.forEach((qw, term) => {
    if (same && (term !== r.terms[i] || !Object.is(qw, r.weights[i]))) same = false;
    i++;
  });
  return same;
}
