import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accAtK, aggregate, averagePrecision, evaluateQuery, hitAtK, parseMetric, precisionAtK,
  rPrecision, recallAtK, reciprocalRank,
} from '../../src/metrics/ranking-metrics.js';
import { IssuelocError } from '../../src/errors.js';

// Ranking of 10 files; positives at ranks 2, 5 and one positive never ranked ('z').
const ranked = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
const positives = new Set(['b', 'e', 'z']);

test('P@k, H@k, R@k count positives in the top k (divisor k for P, |positives| for R)', () => {
  assert.equal(precisionAtK(ranked, positives, 1), 0);
  assert.equal(precisionAtK(ranked, positives, 5), 2 / 5);
  assert.equal(precisionAtK(ranked, positives, 10), 2 / 10);
  assert.equal(hitAtK(ranked, positives, 1), 0);
  assert.equal(hitAtK(ranked, positives, 2), 1);
  assert.equal(recallAtK(ranked, positives, 1), 0);
  assert.equal(recallAtK(ranked, positives, 5), 2 / 3);
  // k beyond the ranking: P keeps divisor k (torchmetrics, adaptive_k = false)
  assert.equal(precisionAtK(['b'], positives, 5), 1 / 5);
});

test('R-Precision uses R = |positives| as cut-off', () => {
  assert.equal(rPrecision(ranked, positives), 1 / 3); // top 3 = a b c -> one positive
  assert.equal(rPrecision(['b', 'e', 'z', 'a'], positives), 1);
});

test('reciprocal rank and average precision (TREC: unranked positives add 0)', () => {
  assert.equal(reciprocalRank(ranked, positives), 1 / 2);
  assert.equal(reciprocalRank(['x', 'y'], positives), 0);
  // AP = (1/2 + 2/5) / 3
  assert.ok(Math.abs((averagePrecision(ranked, positives) ?? -1) - (0.5 + 0.4) / 3) < 1e-15);
});

test('Acc@k follows LocAgent acc_at_k: all gold in top k, or top k all gold when |gold| > k', () => {
  // ref_eval.py: acc = int(hits == min(len(gold), k))
  assert.equal(accAtK(ranked, ['b', 'e'], 5), 1);
  assert.equal(accAtK(ranked, ['b', 'e'], 3), 0);
  assert.equal(accAtK(['b', 'e', 'a'], ['b', 'e', 'z'], 2), 1); // more gold than k, top 2 all gold
  assert.equal(accAtK(['b', 'a', 'e'], ['b', 'e', 'z'], 2), 0);
  assert.equal(accAtK(ranked, positives, 10), 0); // 'z' never ranked
});

test('evaluateQuery agrees with the single-metric functions', () => {
  const ev = evaluateQuery(ranked, positives);
  assert.deepEqual(ev.positiveRanks, [2, 5]);
  assert.equal(ev.nPositives, 3);
  assert.equal(ev.values['P@5'], precisionAtK(ranked, positives, 5));
  assert.equal(ev.values['H@1'], 0);
  assert.equal(ev.values['R@10'], 2 / 3);
  assert.equal(ev.values.RP, 1 / 3);
  assert.equal(ev.values.MRR, 0.5);
  assert.equal(ev.values.MAP, averagePrecision(ranked, positives));
  assert.equal(ev.values['Acc@5'], 0);
});

test('no positives: every metric is null, never NaN', () => {
  const ev = evaluateQuery(ranked, []);
  for (const [name, v] of Object.entries(ev.values)) assert.equal(v, null, name);
  assert.equal(precisionAtK(ranked, [], 1), null);
  assert.equal(accAtK(ranked, [], 1), null);
});

test('aggregate means defined values and counts the undefined ones', () => {
  const agg = aggregate([{ MRR: 1, 'P@1': 1 }, { MRR: 0.5, 'P@1': 0 }, { MRR: null, 'P@1': null }]);
  assert.deepEqual(agg.MRR, { mean: 0.75, n: 2, nUndefined: 1 });
  assert.deepEqual(agg['P@1'], { mean: 0.5, n: 2, nUndefined: 1 });
  const none = aggregate([{ MRR: null }], ['MRR', 'MAP']);
  assert.deepEqual(none.MRR, { mean: null, n: 0, nUndefined: 1 });
  assert.deepEqual(none.MAP, { mean: null, n: 0, nUndefined: 1 });
  assert.throws(() => aggregate([{ MRR: Number.NaN }]), IssuelocError);
});

test('bad input throws IssuelocError naming it', () => {
  assert.throws(() => evaluateQuery(['a', 'b', 'a'], ['a']), /'a' twice \(rank 3\)/);
  assert.throws(() => parseMetric('nDCG@10'), /unknown metric 'nDCG@10'/);
  assert.throws(() => parseMetric('P@0'), IssuelocError);
  assert.throws(() => precisionAtK(ranked, positives, 0), /positive integer/);
  assert.deepEqual(parseMetric('Acc@15'), { name: 'Acc@15', kind: 'Acc', k: 15 });
});
