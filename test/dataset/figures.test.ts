/**
 * The configurations of the paper's Figure 2 (path requirement) and Figure 3 (a-priori state of a
 * linked merge), each on a tiny repository built by the test. See src/dataset/path-requirement.ts
 * for how (a)–(d) are read.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildDataset, type BuildResult } from '../../src/dataset/build.js';
import { jiraPattern } from '../../src/dataset/links.js';
import { fixtureRepo, type FixtureCommit, type Fixture } from '../repo/fixture-repo.js';
import { issue } from './issue-fixture.js';

const INIT: FixtureCommit = { id: 'A', message: 'init', files: { 'src/A.java': 'class A {}', 'src/B.java': 'class B {}', 'src/C.java': 'class C {}', 'pom.xml': '<p/>' } };

const fixtures: Fixture[] = [];
after(() => fixtures.forEach((f) => f.remove()));

/** Builds the repository INIT + `commits` and mines it for issues `ids` (MNG keys). */
async function build(commits: FixtureCommit[], ids: string[]): Promise<{ r: BuildResult; f: Fixture }> {
  const f = fixtureRepo([INIT, ...commits]);
  fixtures.push(f);
  const r = await buildDataset({ repo: f.dir, issues: ids.map((id) => issue(id)), patterns: [jiraPattern(['MNG'])] });
  return { r, f };
}

test('Figure 2 (a): linked commits on one first-parent line are kept; the first gives the sample', async () => {
  const { r, f } = await build([
    { id: 'B', parents: ['A'], message: '[MNG-1] part one', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'C', parents: ['B'], message: 'unrelated', files: { 'src/C.java': 'class C { int c; }' } },
    { id: 'D', parents: ['C'], message: '[MNG-1] part two', files: { 'src/B.java': 'class B { int y; }' } },
  ], ['MNG-1']);
  assert.equal(r.records.length, 1);
  const rec = r.records[0];
  assert.deepEqual(rec.commits, [f.sha('B')]);
  assert.equal(rec.aprioriCommit, f.sha('A'));
  assert.deepEqual(rec.positives, ['src/A.java']);
  assert.equal(rec.candidates, 3);
  assert.deepEqual(rec.provenance.linkedCommits, [f.sha('B'), f.sha('D')]);
});

test('Figure 2 (b): linked commits on two diverging branches are dropped', async () => {
  const { r } = await build([
    { id: 'B', parents: ['A'], message: '[MNG-2] on main', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'X', parents: ['A'], message: '[MNG-2] on a branch', files: { 'src/B.java': 'class B { int y; }' } },
    { id: 'M', parents: ['B', 'X'], message: 'Merge branch', files: { 'src/B.java': 'class B { int y; }' } },
  ], ['MNG-2']);
  assert.equal(r.records.length, 0);
  assert.deepEqual(r.dropped.map((d) => [d.id, d.reason]), [['MNG-2', 'not-on-one-path']]);
});

test('Figure 2 (c): a linked merge whose branch holds the other linked commits is kept (the merge loses its link)', async () => {
  const { r, f } = await build([
    { id: 'B', parents: ['A'], message: 'bump pom', files: { 'pom.xml': '<p v="2"/>' } },
    { id: 'X', parents: ['A'], message: '[MNG-3] first', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'Y', parents: ['X'], message: '[MNG-3] second', files: { 'src/B.java': 'class B { int y; }' } },
    { id: 'M', parents: ['B', 'Y'], message: 'Merge MNG-3 branch', files: { 'src/A.java': 'class A { int x; }', 'src/B.java': 'class B { int y; }' } },
  ], ['MNG-3']);
  assert.equal(r.records.length, 1);
  assert.deepEqual(r.records[0].commits, [f.sha('X')]);
  assert.deepEqual(r.records[0].provenance.linkedCommits, [f.sha('X'), f.sha('Y')]);
  assert.equal(r.meta.counts.mergeLinksDropped, 1);
});

test('Figure 2 (d): a linked merge reached from an earlier linked commit only through its first parent is dropped', async () => {
  const { r } = await build([
    { id: 'B', parents: ['A'], message: '[MNG-4] first attempt', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'C', parents: ['B'], message: 'bump pom', files: { 'pom.xml': '<p v="2"/>' } },
    { id: 'X', parents: ['A'], message: 'work on a branch', files: { 'src/B.java': 'class B { int y; }' } },
    { id: 'M', parents: ['C', 'X'], message: '[MNG-4] merge the fix', files: { 'src/B.java': 'class B { int y; }' } },
  ], ['MNG-4']);
  assert.deepEqual(r.dropped.map((d) => [d.id, d.reason]), [['MNG-4', 'merge-path-not-through-branch']]);
});

test('Figure 2 (d) counterpart: the earlier linked commit before the fork reaches the merge through its branch: kept', async () => {
  const { r, f } = await build([
    { id: 'B', parents: ['A'], message: '[MNG-5] first attempt', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'C', parents: ['B'], message: 'bump pom', files: { 'pom.xml': '<p v="2"/>' } },
    { id: 'X', parents: ['B'], message: 'work on a branch', files: { 'src/B.java': 'class B { int y; }' } },
    { id: 'M', parents: ['C', 'X'], message: '[MNG-5] merge the fix', files: { 'src/B.java': 'class B { int y; }' } },
  ], ['MNG-5']);
  assert.equal(r.records.length, 1);
  assert.deepEqual(r.records[0].provenance.linkedCommits, [f.sha('B'), f.sha('M')]);
});

test('Figure 3: a linked merge\'s a-priori state is the parent of its branch\'s unique entry point', async () => {
  //  A - B - C(adds D.java) - M      M = merge(C, Y), "[MNG-6] …"; the branch X - Y forks at B
  //       \                 /
  //        X ------------- Y
  const { r, f } = await build([
    { id: 'B', parents: ['A'], message: 'bump pom', files: { 'pom.xml': '<p v="2"/>' } },
    { id: 'C', parents: ['B'], message: 'add D', files: { 'src/D.java': 'class D {}' } },
    { id: 'X', parents: ['B'], message: 'feature part 1', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'Y', parents: ['X'], message: 'feature part 2', files: { 'src/B.java': 'class B { int y; }' } },
    { id: 'M', parents: ['C', 'Y'], message: '[MNG-6] merge the feature', files: { 'src/A.java': 'class A { int x; }', 'src/B.java': 'class B { int y; }', 'src/D.java': 'class D { int merged; }' } },
  ], ['MNG-6']);
  assert.equal(r.records.length, 1);
  const rec = r.records[0];
  assert.equal(rec.aprioriCommit, f.sha('B'));
  assert.equal(rec.provenance.entryPoint, f.sha('X'));
  assert.deepEqual(rec.commits, [f.sha('M')]);
  assert.deepEqual(rec.positives, ['src/A.java', 'src/B.java']);
  assert.deepEqual(rec.provenance.outsideApriori, ['src/D.java']);
  assert.equal(rec.candidates, 3);
});

test('Figure 3 counterpart: a merged branch that merged the main line in has two entry points: dropped', async () => {
  const { r } = await build([
    { id: 'X', parents: ['A'], message: 'feature part 1', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'C', parents: ['A'], message: 'main work', files: { 'src/C.java': 'class C { int c; }' } },
    { id: 'Z', parents: ['X', 'C'], message: 'sync with main', files: { 'src/C.java': 'class C { int c; }' } },
    { id: 'Y', parents: ['Z'], message: 'feature part 2', files: { 'src/B.java': 'class B { int y; }' } },
    { id: 'D', parents: ['C'], message: 'bump pom', files: { 'pom.xml': '<p v="2"/>' } },
    { id: 'M', parents: ['D', 'Y'], message: '[MNG-7] merge the feature', files: { 'src/A.java': 'class A { int x; }', 'src/B.java': 'class B { int y; }' } },
  ], ['MNG-7']);
  assert.equal(r.records.length, 0);
  assert.deepEqual(r.dropped.map((d) => [d.id, d.reason]), [['MNG-7', 'entry-point-not-unique']]);
});

test('merge rule: a merge linked alone whose branch links another (unknown) key loses its link; octopus merges drop the issue', async () => {
  const { r } = await build([
    { id: 'X', parents: ['A'], message: '[MNG-100] branch work for another issue', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'B', parents: ['A'], message: 'main', files: { 'pom.xml': '<p v="2"/>' } },
    { id: 'M', parents: ['B', 'X'], message: '[MNG-8] merge', files: { 'src/A.java': 'class A { int x; }' } },
    { id: 'P', parents: ['M'], message: 'o1', files: { 'src/B.java': 'class B { int p; }' } },
    { id: 'Q', parents: ['M'], message: 'o2', files: { 'src/C.java': 'class C { int q; }' } },
    { id: 'O', parents: ['M', 'P', 'Q'], message: '[MNG-9] octopus', files: { 'src/B.java': 'class B { int p; }', 'src/C.java': 'class C { int q; }' } },
  ], ['MNG-8', 'MNG-9']);
  assert.deepEqual(r.dropped.map((d) => [d.id, d.reason]), [['MNG-8', 'merge-links-dropped'], ['MNG-9', 'octopus-merge']]);
  assert.equal(r.meta.counts.unknownKeys, 1);
  assert.equal(r.meta.counts.linked, 2);
});
