import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FEATURES } from '../../src/ltr/features/registry.js';
import { LevelScorer, orderByScore, scoreRows } from '../../src/ltr/model.js';
import { mulberry32 as rng } from '../../src/ltr/coordinate-ascent.js';

test('orderByScore: best first, ties in pipeline order, as a sort by (score desc, index asc)', () => {
  const next = rng(7);
  for (const n of [0, 1, 2, 7, 8, 9, 16, 17, 63, 200, 201]) {
    // few distinct values, so that many scores tie; negative and zero scores too
    const scores = Float64Array.from({ length: n }, () => Math.floor(next() * 6) - 2 + (next() < 0.2 ? 0.5 : 0));
    const expected = Int32Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a] || a - b);
    assert.deepEqual(orderByScore(scores), expected, `n = ${n}`);
  }
});

test('LevelScorer: the linear part over non-zero weights alone equals the sum over every column, bit for bit', () => {
  const next = rng(11);
  const F = FEATURES.length;
  const n = 50;
  const x = Float32Array.from({ length: n * F }, () => (next() < 0.3 ? 0 : next() * 4 - 1));
  const w = new Float64Array(F);
  for (const j of [0, 3, 17, F - 1]) w[j] = next() * 2 - 1;
  const all = scoreRows(x, n, w);
  assert.deepEqual(new LevelScorer(w).score(x, n), all);
  assert.ok(all.some((s) => s !== 0));
});
