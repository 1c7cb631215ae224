/*
 * Degenerate inputs of the statistics against scipy 1.17.1 on the same numbers (Conover: the
 * posthoc_conover formula script at the top of golden.test.ts). What scipy prints, and what we
 * print instead (docs/evaluation.md, "Degenerate inputs"):
 *
 *   ss.kruskal([0.1,0.5,1], [0,0.2], [1])          -> H 2.5980392156862764, p 0.27279911208373697
 *   ss.kruskal([0.1,0.5,1], [0,0.2])               -> H 1.3333333333333357, p 0.24821307898991984
 *   conover([[0.1,0.5,1], [0,0.2]])                -> t 1.2247448713915896, p 0.30806800925035693
 *   ss.kruskal([0,0], [0,0,0])                     -> nan, nan (RuntimeWarning); conover: nan
 *   a, b, c = [1,0.5,1,0.25], [0.1,0.2,nan], [0.3,nan,0.05]
 *   ss.kruskal(a, b, c)                            -> nan, nan (nan_policy='propagate')
 *   ss.kruskal(a, b, c, nan_policy='omit')         -> H 4.174698795180722, p 0.12401541611576909
 *   conover(nan omitted): (a,b) t 2.365801117036919 p 0.0642865968901419,
 *     (a,c) t 2.050360968098663 p 0.09559890678954779, (b,c) t 0.27317918235407646 p 0.7956397770796767
 *   s = [0.1,0.5,1,0.2,0]; ss.kruskal(s, s, s)     -> H 0.0, p 1.0 (identical samples "tested")
 *   ss.spearmanr([3,1,4,0,0,2,1,0], [1,.5,1,.1,.2,nan,.3,.05], nan_policy='omit')
 *                                                  -> rho 0.9440686400617014, p 0.0013786489882995376
 *   ss.spearmanr([1,2], [2,1])                     -> rho -1, p nan
 *   ss.spearmanr([1,2,3], [0,0,0])                 -> nan, nan (ConstantInputWarning)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kruskalWallis } from '../../src/stats/kruskal.js';
import { conover } from '../../src/stats/conover.js';
import { spearman } from '../../src/stats/spearman.js';
import { analyseByType } from '../../src/stats/type-analysis.js';
import { typeAnalysisMarkdown } from '../../src/stats/report.js';

const close = (a: number | null | undefined, b: number, tol = 1e-9): void => {
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} ≠ ${b}`);
};

test('one issue type: held-out groups are the same issues, not tested (– with the reason), specific too', () => {
  // a test split of Bugs only (as Maven's 79): every held-out group but Bug's is all the Bugs
  const mrr = [1, 0.5, 0.25, 1, 0.2, 0.1, 0.5, 1];
  const issues = mrr.map((v) => ({ category: 'Bug', values: { MRR: v } }));
  const [a] = analyseByType(issues, { metrics: ['MRR'] });
  for (const r of [a.heldOut.kruskal, a.specific.kruskal]) {
    assert.equal(r.H, null);
    assert.equal(r.p, null);
    assert.equal(r.epsilonSquared, null);
  }
  assert.deepEqual(a.heldOut.kruskal.groups, []);
  assert.deepEqual(a.heldOut.kruskal.excluded.map((e) => [e.label, e.n, e.reason]), [
    ['Bug', 0, 'fewer than 2 observations'],
    ['Task', 8, 'the same issues as held out Improvement, New Feature'],
    ['Improvement', 8, 'the same issues as held out Task, New Feature'],
    ['New Feature', 8, 'the same issues as held out Task, Improvement'],
  ]);
  assert.match(a.heldOut.kruskal.note ?? '', /got 0/);
  assert.deepEqual(a.heldOut.conover.pairs, []);
  assert.equal(a.heldOut.conover.excluded.length, 4);
  const md = typeAnalysisMarkdown([a], 'one type');
  assert.match(md, /\| MRR \| – \| – \| 8 \|/);
  assert.doesNotMatch(md, /0\.000 \/ 1\.000/);
  assert.match(md, /- Task \(held out\): excluded \(8 issues, the same issues as held out Improvement, New Feature\)\./);
  assert.match(md, /- MRR \(held out\): needs at least 2 groups with 2 or more observations, got 0\./);
});

test('two empty categories: their held-out groups (every issue) are left out, the others tested', () => {
  const issues = [0.1, 0.5, 1].map((v) => ({ category: 'Bug', values: { MRR: v } }))
    .concat([0, 0.2].map((v) => ({ category: 'Task', values: { MRR: v } })));
  const [a] = analyseByType(issues, { metrics: ['MRR'] });
  assert.deepEqual(a.heldOut.kruskal.groups.map((g) => [g.label, g.n]), [['Bug', 2], ['Task', 3]]);
  assert.deepEqual(a.heldOut.kruskal.excluded.map((e) => e.label), ['Improvement', 'New Feature']);
  // held out Bug = the Tasks, held out Task = the Bugs: scipy kruskal([0,0.2],[0.1,0.5,1]) = kruskal([0.1,0.5,1],[0,0.2])
  close(a.heldOut.kruskal.H, 1.3333333333333357);
  close(a.heldOut.kruskal.p, 0.24821307898991984);
  assert.equal(a.heldOut.conover.pairs.length, 1);
});

test('a group of one issue is excluded: statistics are scipy on the other groups', () => {
  const kw = kruskalWallis({ Bug: [0.1, 0.5, 1], Task: [0, 0.2], 'New Feature': [1] });
  assert.deepEqual(kw.excluded.map((e) => [e.label, e.n]), [['New Feature', 1]]);
  close(kw.H, 1.3333333333333357);
  close(kw.p, 0.24821307898991984);
  close(kw.epsilonSquared, 1.3333333333333357 / 4);
  const c = conover({ Bug: [0.1, 0.5, 1], Task: [0, 0.2], 'New Feature': [1] });
  assert.equal(c.pairs.length, 1);
  close(c.pairs[0].t, 1.2247448713915896);
  close(c.pairs[0].p, 0.30806800925035693);
});

test('all values tied: scipy gives nan, we give null with a note', () => {
  const kw = kruskalWallis({ a: [0, 0], b: [0, 0, 0] });
  assert.deepEqual([kw.H, kw.p, kw.epsilonSquared], [null, null, null]);
  assert.match(kw.note ?? '', /all observations are equal/);
  assert.match(conover({ a: [0, 0], b: [0, 0, 0] }).note ?? '', /all observations are equal/);
});

test('issues without positives (null metric) are left out: scipy nan_policy=omit', () => {
  const obs = [
    ...[1, 0.5, 1, 0.25].map((v) => ({ category: 'Bug', values: { MRR: v } })),
    ...[0.1, 0.2, null].map((v) => ({ category: 'Task', values: { MRR: v } })),
    ...[0.3, null, 0.05].map((v) => ({ category: 'Improvement', values: { MRR: v } })),
  ];
  const [a] = analyseByType(obs, { metrics: ['MRR'] });
  assert.equal(a.nUndefined, 2);
  close(a.specific.kruskal.H, 4.174698795180722);
  close(a.specific.kruskal.p, 0.12401541611576909);
  close(a.specific.kruskal.epsilonSquared, 4.174698795180722 / 7);
  const pairs = a.specific.conover.pairs.map((p) => [p.a, p.b, p.t, p.p, p.pAdjusted]);
  const want = [
    ['Bug', 'Task', 2.365801117036919, 0.0642865968901419, 0.0642865968901419 * 3],
    ['Bug', 'Improvement', 2.050360968098663, 0.09559890678954779, 0.0642865968901419 * 3],
    ['Task', 'Improvement', 0.27317918235407646, 0.7956397770796767, 0.7956397770796767],
  ] as const;
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(pairs[i].slice(0, 2), want[i].slice(0, 2));
    for (let j = 2; j < 5; j++) close(pairs[i][j] as number, want[i][j] as number);
  }
  const md = typeAnalysisMarkdown([a], 'nan');
  assert.doesNotMatch(md, /NaN/);
  assert.match(md, /- MRR: 2 issues without positives left out\./);
  const r = spearman([3, 1, 4, 0, 0, 2, 1, 0], [1, 0.5, 1, 0.1, 0.2, null, 0.3, 0.05]);
  assert.equal(r.nDropped, 1);
  close(r.rho, 0.9440686400617014);
  close(r.p, 0.0013786489882995376);
});

test('Spearman with 2 pairs or a constant variable: scipy gives ±1 / nan p or nan, we give null with a note', () => {
  const two = spearman([1, 2], [2, 1]);
  assert.deepEqual([two.rho, two.p], [null, null]);
  assert.match(two.note ?? '', /needs at least 3 pairs, got 2/);
  const flat = spearman([1, 2, 3], [0, 0, 0]);
  assert.deepEqual([flat.rho, flat.p], [null, null]);
  assert.match(flat.note ?? '', /y is constant/);
});
