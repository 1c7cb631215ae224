import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowsByDocument } from '../../src/ltr/doc-scores.js';

test('rowsByDocument: rows by ascending document, equal documents by ascending row', () => {
  const docs = [27413, 5, 900, 5, 0, 123456, 900, 1];
  const byComparator = Array.from({ length: docs.length }, (_, i) => i).sort((a, b) => docs[a] - docs[b] || a - b);
  assert.deepEqual([...rowsByDocument(docs)], byComparator);
  assert.deepEqual([...rowsByDocument(Int32Array.from(docs))], [4, 7, 1, 3, 2, 6, 0, 5]);
  assert.deepEqual([...rowsByDocument([])], []);
});
