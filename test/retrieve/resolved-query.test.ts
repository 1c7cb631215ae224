// A query's terms looked up once per index: the same ids, weights and idf as the index gives, and a
// query map changed after it was looked up is looked up again (never an answer for its old terms).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IndexBuilder } from '../../src/index/inverted-index.js';
import { Bm25fScorer } from '../../src/retrieve/bm25f.js';
import { idfOf, resolveQuery } from '../../src/retrieve/resolved-query.js';

const m = (o: Record<string, number>) => new Map(Object.entries(o));

function index() {
  const b = new IndexBuilder(['body']);
  b.add([m({ a: 2, b: 1 })]);
  b.add([m({ b: 1 })]);
  b.add([m({ c: 4 })]);
  return b.build();
}

test('resolveQuery gives each term its id, weight and idf in the query order, −1 for a term the index lacks', () => {
  const idx = index();
  const r = resolveQuery(idx, m({ b: 2, zz: 1, a: 1 }));
  assert.deepEqual(r.terms, ['b', 'zz', 'a']);
  assert.deepEqual([...r.weights], [2, 1, 1]);
  assert.deepEqual([...r.ids], [idx.termIds.get('b'), -1, idx.termIds.get('a')]);
  assert.deepEqual([...r.idf], [idfOf(2, 3), 0, idfOf(1, 3)]);
});

test('a query map changed after it was resolved is resolved again, and scores follow it', () => {
  const idx = index();
  const scorer = new Bm25fScorer(idx);
  const q = m({ a: 1 });
  const first = Array.from(scorer.scoreAll(q));
  assert.ok(first[0] > 0 && first[1] === 0);
  q.delete('a');
  q.set('b', 1); // same size, another term
  assert.deepEqual(resolveQuery(idx, q).terms, ['b']);
  const second = Array.from(scorer.scoreAll(q));
  assert.ok(second[0] > 0 && second[1] > 0 && second[2] === 0);
  q.set('b', 3); // same term, another weight
  assert.deepEqual([...resolveQuery(idx, q).weights], [3]);
  assert.ok(scorer.scoreAll(q)[1] > second[1]);
});
