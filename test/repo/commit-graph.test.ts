import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder, type CommitGraph } from '../../src/repo/commit-graph.js';
import { IssuelocError } from '../../src/errors.js';

/** A graph from `[id, parents...]` rows listed children first (topological order). */
function graphOf(rows: string[][]): { g: CommitGraph; i: (id: string) => number } {
  const b = new GraphBuilder();
  const sha = (id: string) => id.padEnd(40, '0');
  rows.forEach(([id, ...ps], k) => b.add(sha(id), ps.map(sha), 1000 - k));
  const g = b.finish('fixture');
  return { g, i: (id) => g.indexOf(sha(id)) as number };
}

//   A - B - C - M - N        main (first parents); ids: aa bb cc dd ee
//        \     /
//         X - Y             branch merged by M; ids: f1 f2
const { g, i } = graphOf([
  ['ee', 'dd'], // N
  ['dd', 'cc', 'f2'], // M = merge(C, Y)
  ['f2', 'f1'], // Y
  ['cc', 'bb'], // C
  ['f1', 'bb'], // X
  ['bb', 'aa'], // B
  ['aa'], // A
]);

test('isAncestor follows parent links in both branches and is reflexive', () => {
  assert.equal(g.isAncestor(i('aa'), i('ee')), true);
  assert.equal(g.isAncestor(i('f1'), i('ee')), true);
  assert.equal(g.isAncestor(i('f1'), i('cc')), false);
  assert.equal(g.isAncestor(i('cc'), i('f2')), false);
  assert.equal(g.isAncestor(i('dd'), i('dd')), true);
  assert.equal(g.isAncestor(i('ee'), i('aa')), false);
});

test('branchOf gives the commits only the second parent reaches, and their entry point', () => {
  const b = g.branchOf(i('dd'));
  assert.deepEqual(b.commits.map((c) => g.sha(c).slice(0, 2)).sort(), ['f1', 'f2']);
  assert.deepEqual(b.entryPoints.map((c) => g.sha(c).slice(0, 2)), ['f1']);
  assert.throws(() => g.branchOf(i('cc')), IssuelocError);
});

test('branchOf finds two entry points when the branch merged the main line in', () => {
  //  A - B - C - D - M
  //   \       \     /
  //    X ----- Z - Y        Z = merge(X, C) inside the branch
  const h = graphOf([
    ['mm', 'dd', 'yy'],
    ['yy', 'zz'],
    ['dd', 'cc'],
    ['zz', 'xx', 'cc'],
    ['cc', 'bb'],
    ['xx', 'aa'],
    ['bb', 'aa'],
    ['aa'],
  ]);
  const b = h.g.branchOf(h.i('mm'));
  assert.deepEqual(b.commits.map((c) => h.g.sha(c).slice(0, 2)).sort(), ['xx', 'yy', 'zz']);
  assert.deepEqual(b.entryPoints.map((c) => h.g.sha(c).slice(0, 2)).sort(), ['xx', 'zz']);
});

test('resolvePrefix finds unique and ambiguous abbreviations', () => {
  assert.deepEqual(g.resolvePrefix('f2'), ['f2'.padEnd(40, '0')]);
  assert.equal(g.resolvePrefix('f').length, 2);
  assert.deepEqual(g.resolvePrefix('99'), []);
});

test('finish fails clearly on a parent that was never walked (shallow or cut history)', () => {
  const b = new GraphBuilder();
  b.add('a'.repeat(40), ['b'.repeat(40)], 1);
  assert.throws(() => b.finish('/r'), /missing from the history of \/r: shallow clone or missing commit/);
});
