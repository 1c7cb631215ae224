import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kruskalWallis } from '../../src/stats/kruskal.js';
import { conover } from '../../src/stats/conover.js';
import { spearman } from '../../src/stats/spearman.js';
import { heldOutGroups, usableGroups } from '../../src/stats/groups.js';
import { rankWithTies } from '../../src/stats/ranks.js';
import { parsePAdjust } from '../../src/stats/p-adjust.js';
import { IssuelocError } from '../../src/errors.js';

test('average ranks and tie sum as scipy rankdata', () => {
  const r = rankWithTies([10, 20, 10, 30, 20, 20]);
  assert.deepEqual([...r.ranks], [1.5, 4, 1.5, 6, 4, 4]);
  assert.equal(r.tieSum, (8 - 2) + (27 - 3));
  assert.throws(() => rankWithTies([1, Number.NaN], 'MRR'), /MRR: value #2 is NaN/);
});

test('groups with fewer than two observations are reported and excluded, never a crash', () => {
  const groups = { Bug: [0.1, 0.5, 1], Task: [0, 0.2], 'New Feature': [1], Other: [] };
  const kw = kruskalWallis(groups);
  assert.deepEqual(kw.excluded.map((e) => [e.label, e.n]), [['New Feature', 1], ['Other', 0]]);
  assert.deepEqual(kw.groups.map((g) => g.label), ['Bug', 'Task']);
  assert.equal(kw.df, 1);
  assert.ok(kw.H !== null && kw.p !== null);
  const one = kruskalWallis({ Bug: [1, 2, 3], Task: [4] });
  assert.equal(one.H, null);
  assert.equal(one.p, null);
  assert.match(one.note ?? '', /at least 2 groups/);
  assert.equal(conover({ Bug: [1, 2, 3] }).pairs.length, 0);
  assert.deepEqual(usableGroups(new Map([['a', [1]], ['b', [1, 2]]])).kept.map(([l]) => l), ['b']);
});

test('all observations tied: statistics are null with a note, not NaN', () => {
  const kw = kruskalWallis({ a: [0, 0], b: [0, 0, 0] });
  assert.equal(kw.H, null);
  assert.match(kw.note ?? '', /all observations are equal/);
  const c = conover({ a: [0, 0], b: [0, 0, 0] });
  assert.equal(c.pairs.length, 0);
  assert.match(c.note ?? '', /all observations are equal/);
});

test('Conover with perfectly separated constant groups gives p ≈ 0, not NaN', () => {
  // H = n − 1 here, so (n − 1 − H) is 0 up to rounding and t is huge or infinite
  const c = conover({ a: [1, 1], b: [2, 2] });
  assert.ok(c.pairs[0].t > 1e6);
  assert.ok(c.pairs[0].p >= 0 && c.pairs[0].p < 1e-10);
});

test('Spearman drops null pairs, needs 3 pairs and variation', () => {
  const r = spearman([1, 2, null, 3, 4], [1, 3, 0.5, 2, null]);
  assert.equal(r.n, 3);
  assert.equal(r.nDropped, 2);
  assert.equal(r.rho, 0.5);
  assert.equal(spearman([1, 2], [1, 2]).rho, null);
  assert.match(spearman([1, 1, 1], [1, 2, 3]).note ?? '', /x is constant/);
  const perfect = spearman([1, 2, 3, 4], [10, 20, 30, 40]);
  assert.equal(perfect.rho, 1);
  assert.equal(perfect.p, 0);
  assert.throws(() => spearman([1], [1, 2]), IssuelocError);
  assert.throws(() => spearman([1, 2, Number.POSITIVE_INFINITY], [1, 2, 3]), /spearman x: value #3/);
});

test('held-out groups are one-vs-rest over all types, including types outside the categories', () => {
  const h = heldOutGroups({ Bug: [1, 2], Task: [3], Other: [9] }, ['Bug', 'Task']);
  assert.deepEqual([...h.groups], [['Bug', [3, 9]], ['Task', [1, 2, 9]]]);
  assert.deepEqual(h.excluded, []);
});

test('unknown adjustment name throws', () => {
  assert.equal(parsePAdjust('holm'), 'holm');
  assert.throws(() => parsePAdjust('sidak'), /unknown p-value adjustment 'sidak'/);
});
