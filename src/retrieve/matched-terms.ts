/**
 * The issue terms shown as matched in a ranked item: the query terms its document holds,
 * highest idf first, found for all the shown documents of a level at once.
 */
import type { Bm25fScorer, QueryTerms } from './bm25f.js';
import { fragmentTermsOf } from '../text/parsed-issue.js';
import { DocRows, firstAtLeast, passAlongPostings, rowsByDocument } from '../util/sorted-search.js';
import { resolveQuery } from './resolved-query.js';
import type { InvertedIndex } from '../index/inverted-index.js';

/** A query term present in a scorer's index, with its id and idf. */
interface PresentTerm { term: string; id: number; idf: number }

/** Per index, its documents by row for one list at a time ({@link termsInDocs}). */
const rowsByIndex = new WeakMap<InvertedIndex, DocRows>();

/** Per scorer, the last query's terms present in its index with their ids and idf (annotation asks per level). */
const presentTerms = new WeakMap<Bm25fScorer, { query: QueryTerms; terms: PresentTerm[] }>();

/**
 * The terms of `query` present in the scorer's index, with id and idf, highest idf first (at
 * equal idf by term), as they are shown (kept for the last query).
 */
function termsOfQuery(scorer: Bm25fScorer, query: QueryTerms): PresentTerm[] {
  const memo = presentTerms.get(scorer);
  if (memo?.query === query) return memo.terms;
  const { terms: all, ids, idf } = resolveQuery(scorer.index, query);
  const terms: PresentTerm[] = [];
  for (let i = 0; i < ids.length; i++) if (ids[i] >= 0) terms.push({ term: all[i], id: ids[i], idf: idf[i] });
  terms.sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1));
  presentTerms.set(scorer, { query, terms });
  return terms;
}

/**
 * Per document docs[i] of a scorer's index, the query terms it holds, highest idf first, at most
 * `limit`; the terms of `skipOf(i)` and the query's fragments (`fragmentTermsOf`) left out. The
 * terms are taken in that order, each term's postings searched once for the documents still
 * short of `limit` (one pass along short postings, else in document order, galloping), until
 * every document has `limit`: O(terms × min(postings, documents × log(postings / documents))).
 */
export function termsInDocs(scorer: Bm25fScorer, docs: readonly number[], query: QueryTerms, limit: number, skipOf: (i: number) => ReadonlySet<string>): string[][] {
  const n = docs.length;
  const found = Array.from({ length: n }, (): string[] => []);
  if (limit <= 0 || n === 0) return found;
  const fragments = fragmentTermsOf(query);
  const skip = Array.from({ length: n }, (_, i) => skipOf(i));
  let rows = rowsByIndex.get(scorer.index);
  if (!rows) rowsByIndex.set(scorer.index, (rows = new DocRows(scorer.index.docCount)));
  const marked = rows.mark(docs);
  const order = marked ? rows.order() : rowsByDocument(docs);
  let open = n;
  const take = (i: number, term: string) => {
    if (found[i].length >= limit || skip[i].has(term)) return;
    found[i].push(term);
    if (found[i].length >= limit) open--;
  };
  for (const { term, id } of termsOfQuery(scorer, query)) {
    if (fragments.has(term)) continue;
    const postingDoc = scorer.index.postings(id).doc;
    const P = postingDoc.length;
    if (marked && passAlongPostings(P, n)) {
      for (let p = 0; p < P; p++) {
        const i = rows.row(postingDoc[p]);
        if (i >= 0) take(i, term);
      }
    } else {
      let p = 0;
      for (let k = 0; k < n && p < P; k++) {
        const i = order[k];
        if (found[i].length >= limit) continue;
        p = firstAtLeast(postingDoc, p, P, docs[i]);
        if (p < P && postingDoc[p] === docs[i]) take(i, term);
      }
    }
    if (open === 0) break;
  }
  return found;
}
