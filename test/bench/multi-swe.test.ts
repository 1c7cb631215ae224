// The multi-language bench's pure helpers: all-gold metrics from gold ranks, folds of repositories.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allGoldMetrics, goldRanks } from '../../bench/lib/all-gold.js';
import { repositoryFolds } from '../../bench/lib/folds.js';

test('all-gold Acc@k needs every gold file in the top k, even when there are more gold files than k', () => {
  assert.deepEqual(allGoldMetrics([2, 4]), { 'Acc@1': 0, 'Acc@3': 0, 'Acc@5': 1, 'Acc@10': 1, MRR: 0.5 });
  // LocAgent's Acc@1 counts a gold top 1 when there are two gold files; all-gold does not
  assert.equal(allGoldMetrics([1, 2])['Acc@1'], 0);
  assert.deepEqual(allGoldMetrics([3, null]), { 'Acc@1': 0, 'Acc@3': 0, 'Acc@5': 0, 'Acc@10': 0, MRR: 1 / 3 });
  assert.deepEqual(allGoldMetrics([null]), { 'Acc@1': 0, 'Acc@3': 0, 'Acc@5': 0, 'Acc@10': 0, MRR: 0 });
  assert.equal(allGoldMetrics([])['Acc@10'], 0);
});

test('goldRanks gives 1-based ranks and null for gold files not ranked', () => {
  assert.deepEqual(goldRanks(['a.c', 'b.c', 'c.c'], ['c.c', 'CHANGELOG.md', 'a.c']), [3, null, 1]);
});

test('repositoryFolds keeps each repository in one fold and balances issue counts', () => {
  const items = [...Array(5).fill('a/big'), ...Array(3).fill('b/mid'), ...Array(2).fill('c/small'), 'd/one'].map((repo, i) => ({ repo, i }));
  const folds = repositoryFolds(items, 2);
  assert.deepEqual(folds.map((f) => [...new Set(f.map((x) => x.repo))]), [['a/big', 'd/one'], ['b/mid', 'c/small']]);
  assert.deepEqual(folds.map((f) => f.length), [6, 5]);
  assert.equal(repositoryFolds(items, 10).length, 4, 'no empty folds');
});
