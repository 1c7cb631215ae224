// An ensemble's scores, added two rows at a time over the packed trees, equal each tree walked
// node by node for each row alone, summed in ensemble order: odd and even row counts, trees of
// several depths (a leaf alone too), values on the thresholds and NaN (which goes right).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RegressionTree, TreeEnsemble, type TreeNodeJson } from '../../src/ltr/regression-tree.js';
import { mulberry32 as rng } from '../../src/ltr/coordinate-ascent.js';

const NAMES = ['a', 'b', 'c', 'd'];

/** A random tree of depth at most `depth` over NAMES, thresholds from `cuts`. */
function randomTree(r: () => number, depth: number, cuts: readonly number[]): TreeNodeJson {
  if (depth === 0 || r() < 0.2) return Math.round(r() * 100) / 10 - 5;
  return [NAMES[Math.floor(r() * NAMES.length)], cuts[Math.floor(r() * cuts.length)], randomTree(r, depth - 1, cuts), randomTree(r, depth - 1, cuts)];
}

/** The value of tree `t` for row `x`, walked from the root. */
function walk(t: TreeNodeJson, x: ArrayLike<number>): number {
  if (typeof t === 'number') return t;
  return walk(x[NAMES.indexOf(t[0])] <= t[1] ? t[2] : t[3], x);
}

test('TreeEnsemble.addTo equals walking every tree for every row, in ensemble order (seeded)', () => {
  const r = rng(5);
  const cuts = [-1, 0, 0.5, 1, 2.5];
  for (let round = 0; round < 30; round++) {
    const trees = Array.from({ length: 1 + Math.floor(r() * 12) }, () => randomTree(r, Math.floor(r() * 4), cuts));
    const nu = 0.1 + r();
    const ensemble = TreeEnsemble.fromJson({ learningRate: nu, trees }, NAMES, 'test');
    for (const n of [0, 1, 2, 5, 8]) {
      const width = NAMES.length + 1; // a column no tree reads
      const x = new Float32Array(n * width);
      for (let k = 0; k < x.length; k++) {
        const v = r();
        x[k] = v < 0.1 ? NaN : v < 0.4 ? cuts[Math.floor(r() * cuts.length)] : Math.round((r() * 6 - 2) * 4) / 4;
      }
      const base = Float64Array.from({ length: n }, () => r());
      const got = base.slice();
      ensemble.addTo(x, n, width, got);
      const want = base.slice();
      for (let i = 0; i < n; i++) {
        const row = x.subarray(i * width, (i + 1) * width);
        for (const t of trees) want[i] += nu * walk(t, row);
      }
      assert.deepEqual([...got], [...want], `round ${round}, ${n} rows`);
    }
  }
});

test('RegressionTree reads back the JSON it writes', () => {
  const json: TreeNodeJson = ['b', 0.5, ['a', -1, 1, 2], 3];
  assert.deepEqual(RegressionTree.fromJson(json, NAMES, 'test').toJson(NAMES), json);
});
