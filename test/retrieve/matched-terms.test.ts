import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsrIndex } from '../../src/index/inverted-index.js';
import { Bm25fScorer } from '../../src/retrieve/bm25f.js';
import { termsInDocs } from '../../src/retrieve/matched-terms.js';

/** A 1-field index of 300 documents: term t is held by every (t + 1)-th document (short and long postings). */
function fixture(): CsrIndex {
  const D = 300, T = 30;
  const start = [0];
  const doc: number[] = [];
  for (let t = 0; t < T; t++) {
    for (let d = t % 5; d < D; d += t + 1) doc.push(d);
    start.push(doc.length);
  }
  const vocabulary = Array.from({ length: T }, (_, t) => `t${t}`);
  return new CsrIndex(['body'], vocabulary, new Map(vocabulary.map((v, t) => [v, t])), D,
    Uint32Array.from(start), Uint32Array.from(doc), new Uint16Array(doc.length).fill(1), new Uint32Array(D).fill(5));
}

test('termsInDocs: per document, its query terms by falling idf, the skipped ones left out, at most the limit, whether postings are passed along or galloped', () => {
  const index = fixture();
  const scorer = new Bm25fScorer(index);
  const query = new Map(Array.from({ length: 30 }, (_, t) => [`t${t}`, 1] as const));
  const byIdf = [...query.keys()].sort((a, b) => index.documentFrequency(index.termIds.get(a)!) - index.documentFrequency(index.termIds.get(b)!) || (a < b ? -1 : 1));
  const skip = new Set(['t29']);
  // distinct documents (short postings passed along), then a repeated one (all galloped)
  for (const docs of [[0, 299, 60, 7, 120], [60, 3, 60]]) {
    for (const limit of [2, 30]) {
      const expected = docs.map((d) => byIdf.filter((t) => !skip.has(t) && index.postings(index.termIds.get(t)!).doc.includes(d)).slice(0, limit));
      assert.deepEqual(termsInDocs(scorer, docs, query, limit, () => skip), expected, `documents ${docs}, limit ${limit}`);
    }
  }
});
