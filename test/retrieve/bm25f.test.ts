import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexBuilder } from '../../src/index/inverted-index.js';
import { Bm25fScorer, hitsByRank, topK, topKAlgorithms } from '../../src/retrieve/bm25f.js';

const m = (o: Record<string, number>) => new Map(Object.entries(o));
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-4, `${a} vs ${b}`);

test('one field, δ = 0: equals classic BM25 computed by hand (Robertson & Zaragoza 2009)', () => {
  const b = new IndexBuilder(['body']);
  b.add([m({ a: 2, b: 1 })]); // len 3
  b.add([m({ b: 1 })]); // len 1
  b.add([m({ c: 4 })]); // len 4
  const scorer = new Bm25fScorer(b.build(), { delta: 0 });
  const s = scorer.scoreAll(m({ a: 1, b: 1 }));
  const N = 3, avg = 8 / 3, k1 = 1.2, bb = 0.75;
  const idf = (df: number) => Math.log(1 + (N - df + 0.5) / (df + 0.5));
  const part = (tf: number, len: number) => (tf * (k1 + 1)) / (tf + k1 * (1 - bb + (bb * len) / avg));
  close(s[0], idf(1) * part(2, 3) + idf(2) * part(1, 3));
  close(s[1], idf(2) * part(1, 1));
  assert.equal(s[2], 0);
});

test('BM25+ adds δ·idf for every matched term (Lv & Zhai 2011)', () => {
  const b = new IndexBuilder(['body']);
  b.add([m({ a: 1 })]);
  b.add([m({ z: 1 })]);
  const idx = b.build();
  const s0 = new Bm25fScorer(idx, { delta: 0 }).scoreAll(m({ a: 1 }))[0];
  const s1 = new Bm25fScorer(idx, { delta: 1 }).scoreAll(m({ a: 1 }))[0];
  const idf = Math.log(1 + (2 - 1 + 0.5) / 1.5);
  close(s1 - s0, idf);
});

test('BM25F combines field frequencies before saturation, weighted per field', () => {
  const b = new IndexBuilder(['name', 'body']);
  b.add([m({ x: 1 }), m({ x: 1 })]);
  b.add([m({ y: 1 }), m({ y: 1 })]);
  const idx = b.build();
  const k1 = 1.2;
  const s = new Bm25fScorer(idx, { delta: 0, b: 0, weights: [3, 1] }).scoreAll(m({ x: 1 }));
  const idf = Math.log(1 + 1.5 / 1.5);
  const tf = 3 * 1 + 1 * 1; // combined before saturation
  close(s[0], idf * ((k1 + 1) * tf) / (k1 + tf));
  // Saturating each field separately would give a different (larger) score.
  const separate = idf * (((k1 + 1) * 3) / (k1 + 3) + ((k1 + 1) * 1) / (k1 + 1));
  assert.ok(Math.abs(s[0] - separate) > 0.1);
});

test('query weights multiply a term’s contribution (issue term counts)', () => {
  const b = new IndexBuilder(['body']);
  b.add([m({ a: 1, b: 1 })]);
  b.add([m({ c: 1 })]);
  const sc = new Bm25fScorer(b.build());
  const one = sc.scoreAll(m({ a: 1 }))[0];
  const three = sc.scoreAll(m({ a: 3 }))[0];
  close(three, 3 * one);
});

test('topK keeps the best k, best first, ties in document order, zero scores dropped', () => {
  const scores = Float32Array.from([0.5, 2, 0, 2, 1, 0.1]);
  assert.deepEqual(topK(scores, 3).map((h) => h.doc), [1, 3, 4]);
  assert.deepEqual(topK(scores, 10).map((h) => h.doc), [1, 3, 4, 0, 5]);
  assert.deepEqual(topK(scores, 0), []);
});

test('a wrong number of field weights is refused', () => {
  const b = new IndexBuilder(['name', 'body']);
  b.add([m({ a: 1 }), m({ a: 1 })]);
  assert.throws(() => new Bm25fScorer(b.build(), { weights: [1] }), /needs 2 field weights/);
});

test('topK by selection is the sorted list cut at k, ties at the cut in document order (random scores with many ties)', () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const reference = (scores: Float32Array, k: number) => [...scores].map((score, doc) => ({ doc, score }))
    .filter((h) => h.score > 0).sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, k);
  for (let round = 0; round < 200; round++) {
    const n = 1 + Math.floor(rand() * 300);
    const levels = 1 + Math.floor(rand() * 8); // few distinct values: ties at the cut
    const scores = Float32Array.from({ length: n }, () => (rand() < 0.2 ? 0 : Math.floor(rand() * levels) / 3 + (rand() < 0.5 ? 0 : 0.125)));
    for (const k of [1, 2, Math.floor(n / 3) + 1, n - 1, n, n + 5]) assert.deepEqual(topK(scores, k), reference(scores, k), `n ${n} k ${k}`);
  }
  const withNaN = Float32Array.from([0.5, Number.NaN, 0.7, 0, 0.5]);
  // a NaN (never made by scoreAll) gets the bounded heap's answer, as before: no throw, no loop
  assert.deepEqual(topK(withNaN, 2).map((h) => h.doc), [1, 2]);
  assert.deepEqual(topK(withNaN, 5).map((h) => h.doc).sort(), [0, 1, 2, 4]);
});

test('topK by heap, by buckets and by selection give the same list as sorting, for every k (random scores with many ties)', () => {
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const reference = (scores: Float32Array, k: number) => [...scores].map((score, doc) => ({ doc, score }))
    .filter((h) => h.score > 0).sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, k);
  for (let round = 0; round < 100; round++) {
    const n = 1 + Math.floor(rand() * 400);
    const levels = 1 + Math.floor(rand() * 6);
    const scores = Float32Array.from({ length: n }, () => (rand() < 0.2 ? 0 : Math.floor(rand() * levels) / 3 + (rand() < 0.5 ? 0 : 0.125)));
    for (const k of [1, 2, 3, 7, 16, Math.floor(n / 2) + 1, n]) {
      const want = reference(scores, k);
      assert.deepEqual(topKAlgorithms.byHeap(scores, k), want, `heap n ${n} k ${k}`);
      assert.deepEqual(topKAlgorithms.bySelection(scores, k), want, `selection n ${n} k ${k}`);
      assert.deepEqual(topKAlgorithms.byBuckets(scores, k), want, `buckets n ${n} k ${k}`);
    }
  }
});

test('hitsByRank yields the list of topK(depth), batch after batch, ties across batch edges in document order', () => {
  let seed = 5;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let round = 0; round < 100; round++) {
    const n = 1 + Math.floor(rand() * 500);
    const levels = 1 + Math.floor(rand() * 5);
    const scores = Float32Array.from({ length: n }, () => (rand() < 0.2 ? 0 : Math.floor(rand() * levels) / 3 + (rand() < 0.5 ? 0 : 0.125)));
    for (const [depth, first] of [[n, 1], [n, 2], [Math.floor(n / 2) + 1, 3], [40, 7], [n + 9, 64]]) {
      assert.deepEqual([...hitsByRank(scores, depth, first)], topK(scores, depth), `n ${n} depth ${depth} first ${first}`);
    }
  }
  const withNaN = Float32Array.from([0.5, Number.NaN, 0.7, 0, 0.5]);
  assert.deepEqual([...hitsByRank(withNaN, 2, 1)], topK(withNaN, 2));
});
