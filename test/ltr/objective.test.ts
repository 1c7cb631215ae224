import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateQuery, parseMetric } from '../../src/metrics/ranking-metrics.js';
import { orderByScore } from '../../src/ltr/model.js';
import {
  goldRanks, goldRanksByScore, labelQuery, metricFromRanks, parseObjective, queryObjective, rankedIds, type TrainingQuery,
} from '../../src/ltr/objective.js';
import { FEATURES } from '../../src/ltr/features/registry.js';

/** A deterministic pseudo-random query: candidates in 6 files, some gold. */
function randomQuery(seed: number): TrainingQuery {
  let a = seed;
  const rnd = () => ((a = (a * 1103515245 + 12345) % 2147483648) / 2147483648);
  const n = 40;
  const paths = Array.from({ length: n }, () => `f${Math.floor(rnd() * 6)}.py`);
  const ids = paths.map((p, i) => `${p}:fn${i}`);
  const modules = paths.map((p, i) => `${p}:C${i % 3}`);
  return {
    id: `q${seed}`, repo: 'o/r', n, features: new Float32Array(n * FEATURES.length), ids, paths, modules,
    gold: { function: [ids[3], ids[17], 'missing.py:gone'], module: [modules[3]], file: [paths[3], paths[17]] },
  };
}

test('metrics from integer ranks equal src/metrics/ranking-metrics.ts on the rolled-up lists', () => {
  for (let seed = 1; seed <= 25; seed++) {
    const q = randomQuery(seed);
    const scores = Float64Array.from({ length: q.n }, (_, i) => ((i * 7919 + seed * 31) % 13) / 13); // many ties
    const order = orderByScore(scores);
    const lists = rankedIds(q, order);
    const lq = labelQuery(q);
    for (const level of ['function', 'module', 'file'] as const) {
      const ranks = goldRanks(lq, order, level);
      assert.deepEqual(goldRanksByScore(lq, scores, level), ranks, `seed ${seed} ${level}`);
      for (const m of ['MAP', 'MRR', 'Acc@1', 'Acc@5', 'Acc@10', 'H@5', 'P@5', 'R@10', 'RP']) {
        const want = evaluateQuery(lists[level], q.gold[level], [m]).values[m];
        assert.equal(metricFromRanks(parseMetric(m), ranks, lq.nGold[level]), want, `seed ${seed} ${level} ${m}`);
      }
    }
  }
});

test('ranked ids keep first occurrences; the objective weighs its terms', () => {
  const q = randomQuery(3);
  const order = Int32Array.from({ length: q.n }, (_, i) => i);
  const lists = rankedIds(q, order);
  assert.equal(lists.function.length, q.n);
  assert.equal(new Set(lists.file).size, lists.file.length);
  assert.equal(lists.file[0], q.paths[0]);
  const lq = labelQuery(q);
  const scores = Float64Array.from({ length: q.n }, (_, i) => q.n - i);
  const one = queryObjective(lq, scores, parseObjective('file:MAP'));
  const two = queryObjective(lq, scores, parseObjective('file:MAP=2'));
  assert.ok(one > 0 && Math.abs(two - 2 * one) < 1e-12);
});

test('objective specs: unknown level, metric or weight are named', () => {
  assert.deepEqual(parseObjective('file:Acc@5=2,function:MAP').map((t) => [t.level, t.metric.name, t.weight]), [['file', 'Acc@5', 2], ['function', 'MAP', 1]]);
  assert.throws(() => parseObjective('class:MAP'), /unknown level 'class'/);
  assert.throws(() => parseObjective('file:NDCG'), /unknown metric 'NDCG'/);
  assert.throws(() => parseObjective('file:MAP=-1'), /weight must be a positive number/);
  assert.throws(() => parseObjective(' , '), /objective is empty/);
});
