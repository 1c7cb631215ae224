import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexBuilder, invertRows } from '../../src/index/inverted-index.js';
import { Bm25fScorer } from '../../src/retrieve/bm25f.js';
import {
  bagOf, corpusFromTokens, jointField, Vocabulary,
} from '../../src/retrieve/file-retrievers/corpus.js';
import { Bm25fFileRetriever, corpusInvertedIndex } from '../../src/retrieve/file-retrievers/bm25f.js';
import { createFileRetriever, parseRetrieverList } from '../../src/retrieve/file-retrievers/registry.js';
import { lengthFactors, RvsmRetriever } from '../../src/retrieve/file-retrievers/rvsm.js';
import { smoothIdf, TfidfRetriever } from '../../src/retrieve/file-retrievers/tfidf.js';
import { rankFiles } from '../../src/retrieve/file-retrievers/types.js';
import { IssuelocError } from '../../src/errors.js';

const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} vs ${b}`);
const q = (...terms: string[]) => {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
};

// Three files: [name tokens, content tokens].
const DOCS = [
  { id: 'a/Parser.java', fields: [['parser', 'java'], ['parse', 'token', 'token', 'stream']] },
  { id: 'a/Lexer.java', fields: [['lexer', 'java'], ['token', 'char', 'char', 'char']] },
  { id: 'b/Util.java', fields: [['util', 'java'], ['string', 'join']] },
];

test('bags count tokens in term order; joint field sums fields; invert lists postings by term', () => {
  const v = new Vocabulary();
  const bag = bagOf(['b', 'a', 'b', 'c'], v);
  assert.deepEqual([...bag.terms], [1, 0, 2]); // ids b 0, a 1, c 2, in term order a b c
  assert.deepEqual([...bag.tf], [1, 2, 1]);
  assert.equal(bag.length, 4);
  const c = corpusFromTokens(DOCS);
  const joint = jointField(c);
  const java = c.vocabulary.get('java') as number;
  const token = c.vocabulary.get('token') as number;
  assert.equal(joint.length[0], 6);
  const row0 = new Map<number, number>();
  for (let p = joint.start[0]; p < joint.start[1]; p++) row0.set(joint.term[p], joint.tf[p]);
  assert.equal(row0.get(java), 1);
  assert.equal(row0.get(token), 2);
  const post = invertRows(joint, c.vocabulary.size);
  assert.deepEqual([...post.doc.subarray(post.start[java], post.start[java + 1])], [0, 1, 2]);
  assert.deepEqual([...post.doc.subarray(post.start[token], post.start[token + 1])], [0, 1]);
});

test('TF-IDF, joint weighting: cosine of raw-count × smooth-idf vectors, as scikit-learn', () => {
  const c = corpusFromTokens(DOCS);
  const r = new TfidfRetriever({ weighting: 'joint' });
  r.index(c);
  const s = r.score(q('token', 'char'));
  const n = 3;
  const idf = (df: number) => Math.log((1 + n) / (1 + df)) + 1;
  // Lexer: java 1, lexer 1, token 1, char 3.
  const lexer = [idf(1), idf(3), idf(2), 3 * idf(1)];
  const qv = [idf(2), idf(1)]; // token, char
  const dot = qv[0] * lexer[2] + qv[1] * lexer[3];
  const norm = (v: number[]) => Math.sqrt(v.reduce((a, b) => a + b * b, 0));
  close(s[1], dot / (norm(lexer) * norm(qv)));
  assert.equal(s[2], 0, 'Util shares no term');
  close(smoothIdf(2, 3), idf(2));
});

test('TF-IDF, field weighting: relative term frequency per field, field vectors summed (replication package)', () => {
  const c = corpusFromTokens(DOCS);
  const r = new TfidfRetriever();
  r.index(c);
  const s = r.score(q('parser'));
  const idf = (df: number) => Math.log(4 / (1 + df)) + 1;
  // Parser.java: name field {parser: 1/2, java: 1/2}, content {parse 1/4, token 2/4, stream 1/4}.
  const d = [0.5 * idf(1), 0.5 * idf(3), 0.25 * idf(1), 0.5 * idf(2), 0.25 * idf(1)];
  const norm = Math.sqrt(d.reduce((a, b) => a + b * b, 0));
  close(s[0], d[0] / norm);
  assert.deepEqual(rankFiles(c, s, r.retrievesAll).map((x) => x.id), ['a/Parser.java']);
});

test('rVSM: sigmoid of normalised length times cosine of log-tf vectors (Zhou et al. 2012, Eq. 2-3)', () => {
  const g = lengthFactors([2, 4, 6]);
  close(g[0], 0.5);
  close(g[1], 1 / (1 + Math.exp(-0.5)));
  close(g[2], 1 / (1 + Math.exp(-1)));
  assert.deepEqual([...lengthFactors([5, 5])], [0.5, 0.5], 'equal lengths: no division by zero');

  const c = corpusFromTokens(DOCS);
  const r = new RvsmRetriever();
  r.index(c);
  const s = r.score(q('char'));
  // Only Lexer has `char`. Lexer joint tf: lexer 1, java 1, token 1, char 3; lengths 6, 6, 4.
  const idf = (df: number) => Math.log(4 / (1 + df)) + 1;
  const w = [Math.log(2) * idf(1), Math.log(2) * idf(3), Math.log(2) * idf(2), Math.log(4) * idf(1)];
  const cos = w[3] / Math.sqrt(w.reduce((a, b) => a + b * b, 0));
  close(s[1], cos * (1 / (1 + Math.exp(-1))));
  assert.equal(s[0], 0);

  const zhou = new RvsmRetriever({ variant: 'zhou' });
  zhou.index(c);
  const sz = zhou.score(q('char', 'java'));
  // java is in every file: Zhou's idf ln(n/df) = 0 drops it; char: tf ln 3 + 1, idf ln 3.
  assert.ok(sz[1] > 0);
  assert.equal(sz[0], 0, 'java alone gives no score with idf 0');
});

test('BM25F+ over files equals the shared scorer on the same two fields, with unique query terms', () => {
  const c = corpusFromTokens(DOCS);
  const r = new Bm25fFileRetriever();
  r.index(c);
  const s = r.score(q('token', 'token', 'lexer'));
  const b = new IndexBuilder(['name', 'content']);
  for (const d of DOCS) b.add(d.fields.map((f) => q(...f)));
  const ref = new Bm25fScorer(b.build()).scoreAll(q('token', 'lexer').set('token', 1));
  for (let d = 0; d < 3; d++) close(s[d], ref[d], 1e-5);
  assert.ok(s[1] > s[0], 'the file named lexer wins');
  const counted = new Bm25fFileRetriever({ queryWeights: 'count' });
  counted.index(c);
  assert.ok(counted.score(q('token', 'token'))[0] > r.score(q('token', 'token'))[0], 'count weights double a repeated term');
  const idx = corpusInvertedIndex(c);
  assert.equal(idx.docCount, 3);
  assert.equal(idx.fieldLength[1 * 2 + 1], 4, 'content length of Lexer');
});

test('rankFiles orders by score, keeps path order on ties, leaves unmatched files out unless retrievesAll', () => {
  const c = corpusFromTokens(DOCS);
  const s = Float64Array.from([0.5, 0.5, 0]);
  assert.deepEqual(rankFiles(c, s, false).map((x) => x.id), ['a/Parser.java', 'a/Lexer.java']);
  assert.equal(rankFiles(c, s, true).length, 3);
});

test('registry: names, lsi<k>, errors', () => {
  assert.deepEqual(parseRetrieverList('bm25f, tfidf,rvsm,lsi500,lsi1000,bm25f'), ['bm25f', 'tfidf', 'rvsm', 'lsi500', 'lsi1000']);
  assert.throws(() => parseRetrieverList('bm25'), IssuelocError);
  assert.throws(() => parseRetrieverList(' , '), IssuelocError);
  assert.equal(createFileRetriever('lsi7').name, 'lsi7');
  assert.equal(createFileRetriever('lsi7').retrievesAll, true);
  const c = corpusFromTokens(DOCS);
  for (const name of ['bm25f', 'tfidf', 'rvsm', 'lsi2']) {
    const r = createFileRetriever(name);
    assert.throws(() => r.score(q('token')), /before index/);
    r.index(c);
    const s = r.score(q('token'));
    assert.equal(s.length, 3);
    assert.ok(s.every(Number.isFinite), `${name} gives finite scores`);
    assert.ok(rankFiles(c, s, r.retrievesAll)[0].id !== 'b/Util.java', `${name} ranks a token file first`);
  }
});

test('empty query and empty corpus give zero scores, never NaN', () => {
  const empty = corpusFromTokens([]);
  const c = corpusFromTokens(DOCS);
  for (const name of ['bm25f', 'tfidf', 'rvsm', 'lsi2']) {
    const r = createFileRetriever(name);
    r.index(c);
    assert.deepEqual([...r.score(new Map())], [0, 0, 0], name);
    assert.deepEqual([...r.score(q('unknownword'))], [0, 0, 0], name);
    r.index(empty);
    assert.equal(r.score(q('token')).length, 0);
  }
});
