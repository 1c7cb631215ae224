import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocRows, firstAtLeast, rowsByDocument } from '../../src/util/sorted-search.js';

test('rowsByDocument: rows by ascending document, equal documents by ascending row', () => {
  const docs = [27413, 5, 900, 5, 0, 123456, 900, 1];
  const byComparator = Array.from({ length: docs.length }, (_, i) => i).sort((a, b) => docs[a] - docs[b] || a - b);
  assert.deepEqual([...rowsByDocument(docs)], byComparator);
  assert.deepEqual([...rowsByDocument(Int32Array.from(docs))], [4, 7, 1, 3, 2, 6, 0, 5]);
  assert.deepEqual([...rowsByDocument([])], []);
});

test('firstAtLeast: the first position at or above a value, from a start, as a linear scan finds it', () => {
  const doc = [1, 3, 3, 4, 9, 10, 10, 27, 40, 41, 100];
  for (let from = 0; from <= doc.length; from++) {
    for (let d = 0; d <= 101; d++) {
      let linear = from;
      while (linear < doc.length && doc[linear] < d) linear++;
      assert.equal(firstAtLeast(doc, from, doc.length, d), linear, `from ${from}, d ${d}`);
    }
  }
});

test('DocRows: the row of each marked document, −1 for the others; a new list unmarks the last; a repeated document marks nothing', () => {
  const rows = new DocRows(10);
  assert.equal(rows.mark([7, 2, 5]), true);
  assert.deepEqual(Array.from({ length: 10 }, (_, d) => rows.row(d)), [-1, -1, 1, -1, -1, 2, -1, 0, -1, -1]);
  assert.equal(rows.mark(Int32Array.from([0, 9])), true);
  assert.deepEqual(Array.from({ length: 10 }, (_, d) => rows.row(d)), [0, -1, -1, -1, -1, -1, -1, -1, -1, 1]);
  assert.equal(rows.mark([3, 4, 3]), false);
  assert.deepEqual(Array.from({ length: 10 }, (_, d) => rows.row(d)), new Array(10).fill(-1));
  assert.equal(rows.mark([]), true);
});
