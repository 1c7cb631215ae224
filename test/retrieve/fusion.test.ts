import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuseScores, reciprocalRankFusion, weightedScoreFusion, denseRankingScores } from '../../src/retrieve/fusion.js';

const f32 = (xs: number[]) => Float32Array.from(xs);
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-6, `${a} ≈ ${b}`);

test('RRF: 1/(k + rank) summed over rankings (Cormack et al. 2009); unretrieved documents add nothing', () => {
  // lexical ranks: d2 (1), d0 (2); d1, d3 unmatched. dense ranks: d1, d2, d0, d3.
  const lexical = f32([2, 0, 5, 0]);
  const dense = denseRankingScores(f32([0.1, 0.9, 0.5, -0.3]));
  const s = reciprocalRankFusion([lexical, dense], 60);
  close(s[2], 1 / 61 + 1 / 62);
  close(s[0], 1 / 62 + 1 / 63);
  close(s[1], 1 / 61);
  close(s[3], 1 / 64);
  const cut = reciprocalRankFusion([lexical, dense], 60, 2);
  assert.equal(cut[3], 0, 'beyond depth');
  close(cut[0], 1 / 62); // only its lexical rank is within depth 2
});

test('weighted fusion: convex combination of TMM-normalised scores (Bruch et al. 2023)', () => {
  const lexical = f32([4, 0, 2]);
  const cosine = f32([0, 1, -1]);
  const s = weightedScoreFusion(lexical, cosine, 0.25);
  close(s[0], 0.75 * 1 + 0.25 * (1 / 2));
  close(s[1], 0 + 0.25 * 1);
  close(s[2], 0.75 * 0.5 + 0);
  const lexOnly = weightedScoreFusion(lexical, cosine, 0);
  assert.deepEqual([...lexOnly], [1, 0, 0.5]);
});

test('fuseScores: lexical and dense methods reproduce each ranking; all documents positive under dense', () => {
  const lexical = f32([1, 3, 0]);
  const cosine = f32([-0.2, 0.1, 0.7]);
  assert.deepEqual([...fuseScores(lexical, cosine, { method: 'lexical' })], [1, 3, 0]);
  const d = fuseScores(lexical, cosine, { method: 'dense' });
  assert.ok(d.every((x) => x > 0));
  assert.ok(d[2] > d[1] && d[1] > d[0]);
  const r = fuseScores(lexical, cosine);
  assert.ok(r[1] > r[0], 'rrf by default: d1 ranks 1st lexically, 2nd densely');
});
