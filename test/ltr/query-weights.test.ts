// Query weights (languages or repositories weighing the same in LambdaMART's objective) and model
// blends (a weighted sum of models as one model file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blendModels } from '../../src/ltr/blend.js';
import { FEATURES } from '../../src/ltr/features/registry.js';
import { fitLambdaMart } from '../../src/ltr/lambdamart.js';
import { RankingModel, orderByScore } from '../../src/ltr/model.js';
import { goldRanks, labelQuery, type TrainingQuery } from '../../src/ltr/objective.js';
import { queryWeights, goldLanguage } from '../../src/ltr/query-weights.js';
import { DEFAULT_CANDIDATES, fitModel } from '../../src/ltr/train.js';
import { mulberry32 as rng } from '../../src/ltr/coordinate-ascent.js';

const F = FEATURES.length;
const col = (name: string) => FEATURES.indexOf(name as (typeof FEATURES)[number]);

/**
 * Queries of 20 candidates whose only non-zero feature is bm25f (random); the gold candidate has
 * the highest bm25f (`rule` high) or the lowest (low), so one model cannot serve both rules.
 */
function queries(count: number, rule: 'high' | 'low', repo: string, ext: string, seed: number): TrainingQuery[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, k) => {
    const n = 20;
    const x = new Float32Array(n * F);
    const v = Array.from({ length: n }, () => r());
    v.forEach((b, i) => { x[i * F + col('bm25f')] = b; });
    const gold = v.indexOf(rule === 'high' ? Math.max(...v) : Math.min(...v));
    const ids = Array.from({ length: n }, (_, i) => `${repo}/q${k}/f${i}.${ext}`);
    return { id: `${repo}#${k}`, repo, n, features: x, ids, paths: ids, modules: ids, gold: { function: [ids[gold]], module: [ids[gold]], file: [ids[gold]] } };
  });
}

function top1(qs: readonly TrainingQuery[], model: RankingModel): number {
  return qs.filter((q) => goldRanks(labelQuery(q), orderByScore(model.scorers.function.score(q.features, q.n)), 'function')[0] === 1).length / qs.length;
}

test('query weights: each group weighs the same (power 1), √n (power 0.5), 1 each for none; they sum to the query count', () => {
  const qs = [...queries(6, 'high', 'a/py', 'py', 1), ...queries(2, 'high', 'b/go', 'go', 2)];
  const equal = queryWeights(qs, 'repo');
  assert.equal(equal.length, 8);
  assert.ok(Math.abs(equal.reduce((s, w) => s + w, 0) - 8) < 1e-9);
  assert.ok(Math.abs(6 * equal[0] - 2 * equal[7]) < 1e-9, 'the 6 queries of a/py weigh as much as the 2 of b/go');
  const byLanguage = queryWeights(qs, 'language');
  assert.deepEqual(byLanguage, equal, 'one language per repository here');
  const sqrt = queryWeights(qs, 'repo', 0.5);
  assert.ok(Math.abs(6 * sqrt[0] / (2 * sqrt[7]) - Math.sqrt(3)) < 1e-9);
  assert.deepEqual(queryWeights(qs, 'none'), qs.map(() => 1));
  assert.equal(goldLanguage(['a.go', 'b.py', 'c.py']), 'python');
  assert.equal(goldLanguage(['README.md']), 'other');
});

test('LambdaMART query weights: the weighted group\'s rule wins; weights out of range are refused', () => {
  const few = queries(10, 'high', 'a/few', 'py', 3);
  const many = queries(30, 'low', 'b/many', 'py', 4);
  const all = [...few, ...many].map(labelQuery);
  const opts = { trees: 20, maxDepth: 2, learningRate: 0.1, minLeaf: 5, init: {} };
  const model = (w?: number[]) => {
    const fit = fitLambdaMart(all, 'function', { ...opts, queryWeights: w });
    return new RankingModel({ weights: {}, trees: fit.ensemble.toJson(FEATURES), candidates: DEFAULT_CANDIDATES });
  };
  const plain = model();
  assert.ok(top1(many, plain) > 0.6 && top1(few, plain) < 0.2, `unweighted: the 30 queries' rule (${top1(many, plain)}, ${top1(few, plain)})`);
  const weighted = model([...few.map(() => 10), ...many.map(() => 1)]);
  assert.ok(top1(few, weighted) >= 0.5 && top1(many, weighted) < top1(many, plain), `weight 10 on the 10 queries: their rule (${top1(few, weighted)})`);
  assert.throws(() => fitLambdaMart(all, 'function', { ...opts, queryWeights: [1, 2] }), /query weights: expected 40/);
  assert.throws(() => fitLambdaMart(all, 'function', { ...opts, queryWeights: all.map(() => 0) }), /positive/);
});

test('blend: scores are the share-weighted sum of the parts\' scores, through a model file', () => {
  const qs = [...queries(20, 'high', 'a/x', 'py', 5), ...queries(20, 'low', 'b/y', 'go', 6)];
  const a = fitModel(qs.slice(0, 20), { lambdamart: { trees: 10, minLeaf: 5 }, training: { repos: ['a/x'], issueIds: ['a/x#0'] } }).model;
  const b = fitModel(qs.slice(20), { lambdamart: { trees: 15, learningRate: 0.05, minLeaf: 5 }, training: { repos: ['b/y'], issueIds: ['b/y#0'] } }).model;
  const blend = blendModels([{ model: a, share: 0.3 }, { model: b, share: 0.7 }]);
  assert.deepEqual(blend.file.training?.repos, ['a/x', 'b/y'], 'the parts\' training repositories');
  assert.deepEqual(blend.file.training?.issueIds, ['a/x#0', 'b/y#0']);
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-blend-'));
  try {
    blend.save(join(dir, 'm.json'));
    const read = RankingModel.load(join(dir, 'm.json'));
    for (const q of qs.slice(15, 25)) {
      const score = (m: RankingModel) => m.scorers.function.score(q.features, q.n);
      const want = score(a).map((s, i) => 0.3 * s + 0.7 * score(b)[i]);
      const got = score(read);
      want.forEach((w, i) => assert.ok(Math.abs(w - got[i]) < 1e-5, `candidate ${i}: ${got[i]} vs ${w}`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const own = fitModel(qs, { lambdamart: { trees: 2, minLeaf: 5 }, levelTrees: ['file'] }).model;
  assert.throws(() => blendModels([{ model: own, share: 1 }]), /own file or module scorers/);
  assert.throws(() => blendModels([{ model: a, share: 0 }]), /positive/);
  assert.throws(() => blendModels([]), /no model/);
});

test('fitModel: file labels train on issues whose gold functions no candidate is; the recipe is recorded', () => {
  const qs = queries(20, 'high', 'a/x', 'py', 7).map((q) => ({ ...q, gold: { ...q.gold, function: ['a/x/elsewhere.py::f'] } }));
  assert.throws(() => fitModel(qs, { lambdamart: { trees: 5, minLeaf: 5 } }), /no training query has both gold and other candidates at the function level/);
  const { model } = fitModel(qs, { lambdamart: { trees: 5, minLeaf: 5 }, labels: 'file', balance: { by: 'repo', power: 0.5 } });
  assert.ok(model.scorers.function.ensemble && model.scorers.function.ensemble.trees.length === 5);
  assert.equal(model.scorers.file, model.scorers.function, 'one scorer ranks every level');
  assert.equal(model.file.training?.labels, 'file');
  assert.deepEqual(model.file.training?.balance, { by: 'repo', power: 0.5 });
  const fileTop1 = qs.filter((q) => goldRanks(labelQuery(q), orderByScore(model.scorers.file.score(q.features, q.n)), 'file')[0] === 1).length / qs.length;
  assert.ok(fileTop1 > 0.5, `file labels learned the rule (${fileTop1})`);
});
