// LambdaMART: lambdas, binning, a non-linear rule a linear model cannot learn, model files with
// trees (round trip, one-line errors), determinism.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binFeatures, binOf } from '../../src/ltr/feature-bins.js';
import { FEATURES } from '../../src/ltr/features/registry.js';
import { fitLambdaMart, lambdaGradients } from '../../src/ltr/lambdamart.js';
import { MODEL_FORMAT, RankingModel, TREE_MODEL_FORMAT, orderByScore } from '../../src/ltr/model.js';
import { goldRanks, labelQuery, type TrainingQuery } from '../../src/ltr/objective.js';
import { DEFAULT_CANDIDATES, fitModel } from '../../src/ltr/train.js';
import { mulberry32 as rng } from '../../src/ltr/coordinate-ascent.js';

const F = FEATURES.length;
const col = (name: string) => FEATURES.indexOf(name as (typeof FEATURES)[number]);

/**
 * Queries of 40 candidates each; the one gold candidate has bm25f > 0.7 AND length < 0.3, the
 * others lie outside that corner, two thirds of them just beside it (bm25f high but length
 * 0.3–0.45, or length low but bm25f 0.55–0.7), so that no weighing of the two ranks the gold
 * first in most queries. `pipeline` and the other features are noise.
 */
function nonLinearQueries(count: number, seed: number): TrainingQuery[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, k) => {
    const n = 40;
    const x = new Float32Array(n * F);
    const gold = Math.floor(r() * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < F; j++) x[i * F + j] = r();
      let a: number;
      let b: number;
      if (i === gold) { a = 0.7 + 0.3 * r(); b = 0.3 * r(); } else if (i % 3 === 0) { a = 0.7 + 0.3 * r(); b = 0.3 + 0.15 * r(); } else if (i % 3 === 1) {
        a = 0.55 + 0.15 * r(); b = 0.3 * r();
      } else {
        do { a = r(); b = r(); } while (a > 0.7 && b < 0.3);
      }
      x[i * F + col('bm25f')] = a;
      x[i * F + col('length')] = b;
    }
    const ids = Array.from({ length: n }, (_, i) => `f${k}_${i}.py`);
    return {
      id: `q${k}`, repo: 'test/synthetic', n, features: x, ids, paths: ids, modules: ids,
      gold: { function: [ids[gold]], module: [ids[gold]], file: [ids[gold]] },
    };
  });
}

/** Share of queries whose gold function is ranked first by `model`. */
function top1(queries: readonly TrainingQuery[], model: RankingModel): number {
  let hits = 0;
  for (const q of queries) {
    const ranks = goldRanks(labelQuery(q), orderByScore(model.scorers.function.score(q.features, q.n)), 'function');
    if (ranks[0] === 1) hits++;
  }
  return hits / queries.length;
}

test('lambdas: gold pushed up, others down, Σλ = 0, NDCG of the current order', () => {
  const scores = Float64Array.from([3, 2, 1, 0]);
  const labels = Uint8Array.from([0, 0, 1, 0]);
  const lambda = new Float64Array(4);
  const weight = new Float64Array(4);
  const order = Int32Array.from([3, 2, 1, 0]);
  const ndcg = lambdaGradients(scores, labels, order, lambda, weight);
  assert.deepEqual([...order], [0, 1, 2, 3], 'order re-sorted by score');
  assert.ok(Math.abs(ndcg - 1 / Math.log2(4)) < 1e-12, 'gold at rank 3: NDCG = 1/log2(4)');
  assert.ok(lambda[2] > 0 && lambda[0] < 0 && lambda[1] < 0);
  assert.ok(Math.abs(lambda.reduce((a, b) => a + b, 0)) < 1e-12);
  assert.ok(-lambda[0] > -lambda[3], 'a swap with the top costs more NDCG than with the bottom');
  for (const w of weight) assert.ok(w >= 0);
  // no gold: no gradient
  lambdaGradients(scores, new Uint8Array(4), order, lambda, weight);
  assert.deepEqual([...lambda], [0, 0, 0, 0]);
});

test('quantile bins: at most maxBins, x ≤ cut[b] exactly when bin ≤ b', () => {
  const r = rng(3);
  const rows = 1000;
  const x = Float32Array.from({ length: rows * 2 }, (_, i) => (i % 2 === 0 ? r() : Math.floor(r() * 3) / 2));
  const b = binFeatures(x, rows, 2, 8);
  assert.equal(b.cuts[0].length, 7);
  assert.deepEqual([...b.cuts[1]], [0, 0.5], 'three distinct values: every value but the largest is a cut');
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < 2; j++) {
      const bin = b.bins[i * 2 + j];
      assert.equal(bin, binOf(b.cuts[j], x[i * 2 + j]));
      if (bin < b.cuts[j].length) assert.ok(x[i * 2 + j] <= b.cuts[j][bin]);
      if (bin > 0) assert.ok(x[i * 2 + j] > b.cuts[j][bin - 1]);
    }
  }
  assert.throws(() => binFeatures(x, rows, 2, 300), /bins per feature must be an integer in \[2, 256\]/);
});

test('a non-linear rule (x0 high AND x1 low): LambdaMART ranks it near-perfectly, a linear model cannot', () => {
  const train = nonLinearQueries(80, 1);
  const heldOut = nonLinearQueries(40, 2);
  const lambdamart = fitModel(train, { learner: 'lambdamart', lambdamart: { trees: 60, maxDepth: 2, minLeaf: 5 } }).model;
  const linear = fitModel(train, { learner: 'coordinate-ascent', objective: 'function:MRR', restarts: 0 }).model;
  const byTrees = top1(heldOut, lambdamart);
  const byWeights = top1(heldOut, linear);
  assert.ok(byTrees >= 0.9, `LambdaMART top-1 ${byTrees}`);
  assert.ok(byWeights <= byTrees - 0.25, `linear top-1 ${byWeights} vs LambdaMART ${byTrees}`);
  assert.equal(lambdamart.scorers.file, lambdamart.scorers.function, 'no level trees: every level uses the function trees');
});

test('tree model files: round trip gives identical scores; training is deterministic', () => {
  const train = nonLinearQueries(30, 4);
  const fit = () => fitModel(train, { learner: 'lambdamart', lambdamart: { trees: 15, maxDepth: 3, minLeaf: 10 }, levelTrees: ['file', 'module'] }).model;
  const model = fit();
  assert.equal(model.file.format, TREE_MODEL_FORMAT);
  assert.notEqual(model.scorers.file, model.scorers.function, 'own file trees');
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-lambdamart-'));
  try {
    const path = join(dir, 'm.json');
    model.save(path);
    const text = readFileSync(path, 'utf8');
    assert.match(text, /\n {6}\["\w+",[^\n]*\]\]?,?\n/, 'each tree on one line');
    const back = RankingModel.load(path);
    for (const q of train.slice(0, 5)) {
      for (const level of ['function', 'module', 'file'] as const) {
        assert.deepEqual(back.scorers[level].score(q.features, q.n), model.scorers[level].score(q.features, q.n));
      }
    }
    assert.equal(JSON.stringify(fit().file), JSON.stringify(model.file), 'same trees on a second fit');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('invalid tree files are one-line errors naming the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-lambdamart-'));
  try {
    const path = join(dir, 'bad.json');
    const base = { format: TREE_MODEL_FORMAT, weights: { pipeline: 1 }, candidates: DEFAULT_CANDIDATES };
    const bad = (value: unknown, re: RegExp) => {
      writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
      assert.throws(() => RankingModel.load(path), (e: Error) => {
        assert.match(e.message, re);
        assert.ok(e.message.startsWith(path), e.message);
        assert.equal(e.message.split('\n').length, 1);
        return true;
      });
    };
    bad({ ...base, trees: { learningRate: 0.1, trees: [['nope', 0.5, 1, -1]] } }, /"trees", tree 0: unknown feature 'nope'/);
    bad({ ...base, trees: { learningRate: 0.1, trees: [0.2, ['pipeline', 0.5, 1]] } }, /tree 1: a node must be a leaf value or \[feature, threshold, left, right\]/);
    bad({ ...base, trees: { learningRate: 0.1, trees: [['pipeline', 'x', 1, -1]] } }, /threshold of a split on 'pipeline' is not a finite number/);
    bad(JSON.stringify({ ...base, trees: { learningRate: 0.1, trees: [['pipeline', 0.5, 1, 'LEAF']] } }).replace('"LEAF"', '1e999'), /leaf value is not a finite number/);
    bad({ ...base, trees: { learningRate: 0, trees: [] } }, /"learningRate" must be a positive finite number/);
    bad({ ...base, trees: { learningRate: 0.1 } }, /"trees" must be an array/);
    bad({ ...base, levelTrees: { function: { learningRate: 0.1, trees: [] } } }, /"levelTrees" names 'function'/);
    bad({ ...base, levelTrees: { file: { learningRate: 0.1, trees: [['isTest', 0.5, 1, null]] } } }, /"levelTrees".file, tree 0: a node must be/);
    bad({ ...base, format: MODEL_FORMAT, trees: { learningRate: 0.1, trees: [] } }, /a model with trees needs "format": "issueloc-ranker\/2"/);
    let deep: unknown = 0;
    for (let d = 0; d < 40; d++) deep = ['pipeline', 0.5, deep, 0];
    bad({ ...base, trees: { learningRate: 0.1, trees: [deep] } }, /tree is deeper than 32/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('LambdaMART options out of range and queries without pairs are errors', () => {
  const labelled = nonLinearQueries(3, 5).map(labelQuery);
  assert.throws(() => fitLambdaMart(labelled, 'function', { trees: -1 }), /trees must be a whole number ≥ 0/);
  assert.throws(() => fitLambdaMart(labelled, 'function', { maxDepth: 0 }), /tree depth must be a whole number ≥ 1/);
  assert.throws(() => fitLambdaMart(labelled, 'function', { minLeaf: 0.5 }), /min leaf must be a whole number ≥ 1/);
  const noGold = labelled.map((q) => labelQuery({ ...q.query, gold: { function: [], module: [], file: [] } }));
  assert.throws(() => fitLambdaMart(noGold, 'file'), /no training query has both gold and other candidates at the file level/);
  const fit = fitLambdaMart(labelled, 'function', { trees: 3, minLeaf: 5 });
  assert.equal(fit.ensemble.trees.length, 3);
  assert.equal(fit.init[col('pipeline')], 1, 'first score: the pipeline feature');
  assert.ok(fit.ndcg > fit.initialNdcg, `training NDCG ${fit.initialNdcg} -> ${fit.ndcg}`);
});
