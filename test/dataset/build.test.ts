import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildDataset } from '../../src/dataset/build.js';
import { githubPattern, jiraPattern } from '../../src/dataset/links.js';
import { fixtureRepo, git } from '../repo/fixture-repo.js';
import { issue } from './issue-fixture.js';

const BODY = Array.from({ length: 30 }, (_, k) => `  int f${k}() { return ${k}; }`).join('\n');
const MNG = [jiraPattern(['MNG'])];

//  A  init: 4 java files, a pom, a text file that will become code
//  B  [MNG-1] modifies A.java, deletes C.java, adds N.java, renames Foo.java.txt -> Foo.java, touches pom
//  T  [MNG-2] touches only pom.xml (no source positive)       <- first commit of MNG-2
//  R  renames src/B.java -> src/Bx.java (no key)
//  D  [MNG-2] modifies Bx.java and Test.java
//  V  Revert "[MNG-3] ..."                                     <- revert: no link
//  U  [MNG-4] (Won't Fix issue) modifies A.java; [MNG-404] unknown key
//  E  [MNG-2] modifies A.java, 100 days later                 <- later commit of MNG-2
const repo = fixtureRepo([
  { id: 'A', message: 'init', files: { 'src/A.java': `class A {\n${BODY}\n}`, 'src/B.java': `class B {\n${BODY}\n}`, 'src/C.java': 'class C {}', 'src/test/ATest.java': 'class ATest {}', 'src/Foo.java.txt': 'class Foo {}', 'pom.xml': '<p/>', 'README.md': 'r' } },
  { id: 'B', parents: ['A'], message: '[MNG-1] fix A, drop C', files: { 'src/A.java': `class A {\n${BODY}\n int x;\n}`, 'src/C.java': null, 'src/N.java': 'class N {}', 'src/Foo.java.txt': null, 'src/Foo.java': 'class Foo {}', 'pom.xml': '<p v="1"/>' } },
  { id: 'T', parents: ['B'], message: '[MNG-2] update the pom', files: { 'pom.xml': '<p v="2"/>' } },
  { id: 'R', parents: ['T'], message: 'rename B', files: { 'src/B.java': null, 'src/Bx.java': `class B {\n${BODY}\n}` } },
  { id: 'D', parents: ['R'], message: '[MNG-2] fix Bx', files: { 'src/Bx.java': `class B {\n${BODY}\n int y;\n}`, 'src/test/ATest.java': 'class ATest { int t; }' } },
  { id: 'V', parents: ['D'], message: 'Revert "[MNG-3] something"\n\nThis reverts commit 0000000.', files: { 'src/N.java': 'class N { int v; }' } },
  { id: 'U', parents: ['V'], message: '[MNG-4] [MNG-404] wont fix but committed', files: { 'src/N.java': 'class N { int u; }' } },
  { id: 'E', parents: ['U'], message: '[MNG-2] follow-up', files: { 'src/A.java': `class A {\n${BODY}\n int x; int z;\n}` }, day: 120 },
]);
after(() => repo.remove());

const ISSUES = [
  issue('MNG-1'),
  issue('MNG-2'),
  issue('MNG-3'),
  issue('MNG-4', { resolution: "Won't Fix" }),
  issue('MNG-5'),
];

test('first-commit: positives are modified/removed source files; added, renamed-to-code and non-code are not', async () => {
  const r = await buildDataset({ repo: repo.dir, issues: ISSUES, patterns: MNG });
  const byId = new Map(r.records.map((x) => [x.issue.id, x]));
  const one = byId.get('MNG-1');
  assert.ok(one);
  assert.deepEqual(one.positives, ['src/A.java', 'src/C.java']);
  assert.equal(one.aprioriCommit, repo.sha('A'));
  assert.equal(one.candidates, 4, 'A, B, C, ATest: .java.txt, pom and README are not source files');
  assert.equal(one.changesTests, false);
  assert.deepEqual(one.positiveFunctions, []);
  assert.equal(one.issue.id, 'MNG-1');
  assert.equal(one.provenance.firstCommitTime, '2020-01-02T00:00:00.000Z');
  // MNG-2's first linked commit changes only the pom: no positive, dropped (not replaced by a later commit)
  assert.equal(byId.has('MNG-2'), false);
  const two = r.dropped.find((d) => d.id === 'MNG-2');
  assert.equal(two?.reason, 'no-positive');
  assert.match(two?.detail ?? '', new RegExp(`first linked commit ${repo.sha('T')}`));
});

test('counts and drops: reverts, unknown keys, not linkable, no commit', async () => {
  const r = await buildDataset({ repo: repo.dir, issues: ISSUES, patterns: MNG });
  const c = r.meta.counts;
  assert.equal(c.issues, 5);
  assert.equal(c.maxLinkable, 4);
  assert.equal(c.linked, 2);
  assert.equal(c.inDataset, 1);
  assert.equal(c.revertCommits, 1);
  assert.equal(c.unknownKeys, 1);
  assert.equal(c.linkedNotLinkable, 1);
  assert.equal(c.commits, 8);
  assert.deepEqual(r.dropped.map((d) => [d.id, d.reason]), [['MNG-3', 'no-commit'], ['MNG-4', 'not-linkable'], ['MNG-5', 'no-commit'], ['MNG-2', 'no-positive']]);
  assert.deepEqual(r.meta.dropReasons, { 'no-commit': 2, 'not-linkable': 1, 'no-positive': 1 });
  const any = await buildDataset({ repo: repo.dir, issues: ISSUES, patterns: MNG, linkableResolutions: null });
  assert.deepEqual(any.records.map((x) => x.issue.id), ['MNG-1', 'MNG-4']);
});

test('all-future-files: positives of every linked commit, followed back through renames to the a-priori paths', async () => {
  const r = await buildDataset({ repo: repo.dir, issues: [issue('MNG-2')], patterns: MNG, variant: 'all-future-files', maxGap: null });
  assert.equal(r.records.length, 1);
  const rec = r.records[0];
  assert.equal(rec.aprioriCommit, repo.sha('B'), 'before the first linked commit T, though T has no positive');
  assert.deepEqual(rec.commits, [repo.sha('T'), repo.sha('D'), repo.sha('E')]);
  // D modifies src/Bx.java, which was src/B.java at the a-priori state (renamed by R)
  assert.deepEqual(rec.positives, ['src/A.java', 'src/B.java', 'src/test/ATest.java']);
  assert.equal(rec.provenance.renamedPositives, 1);
  assert.equal(rec.changesTests, true);
  const early = await buildDataset({ repo: repo.dir, issues: [issue('MNG-1', { id: 'MNG-1' })], patterns: MNG, variant: 'all-future-files', maxGap: null });
  assert.deepEqual(early.records[0].positives, ['src/A.java', 'src/C.java']);
});

test('all-future-files: a later commit on a renamed file maps to the old path; the gap rule drops late commits', async () => {
  const f = fixtureRepo([
    { id: 'A', message: 'init', files: { 'src/A.java': `class A {\n${BODY}\n}`, 'src/B.java': `class B {\n${BODY}\n}` } },
    { id: 'B', parents: ['A'], message: '[MNG-1] part one', files: { 'src/A.java': `class A {\n${BODY}\n int x;\n}` } },
    { id: 'R', parents: ['B'], message: 'move B', files: { 'src/B.java': null, 'src/pkg/B.java': `package pkg;\nclass B {\n${BODY}\n}` } },
    { id: 'C', parents: ['R'], message: '[MNG-1] part two', files: { 'src/pkg/B.java': `package pkg;\nclass B {\n${BODY}\n int y;\n}` }, day: 3 },
    { id: 'Z', parents: ['C'], message: '[MNG-9] other', files: { 'src/A.java': 'class A {}' }, day: 4 },
    { id: 'Y', parents: ['Z'], message: '[MNG-9] much later', files: { 'src/B.java': 'class B {}' }, day: 400 },
  ]);
  try {
    const r = await buildDataset({ repo: f.dir, issues: [issue('MNG-1')], patterns: MNG, variant: 'all-future-files' });
    assert.deepEqual(r.records[0].positives, ['src/A.java', 'src/B.java']);
    assert.equal(r.records[0].provenance.renamedPositives, 1);
    const gap = await buildDataset({ repo: f.dir, issues: [issue('MNG-1'), issue('MNG-9')], patterns: MNG, variant: 'all-future-files', maxGap: 10 });
    const nine = gap.records.find((x) => x.issue.id === 'MNG-9');
    assert.ok(nine);
    assert.deepEqual(nine.commits, [f.sha('Z')]);
    assert.equal(gap.meta.counts.gapDroppedCommits, 1);
    assert.equal(gap.meta.maxGapDays, 10);
    // missing blobs: rename detection fails, the build goes on and counts the commit
    const blob = git(f.dir, ['rev-parse', `${f.sha('R')}:src/pkg/B.java`]).trim();
    rmSync(join(f.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    const broken = await buildDataset({ repo: f.dir, issues: [issue('MNG-1')], patterns: MNG, variant: 'all-future-files' });
    assert.deepEqual(broken.records[0].positives, ['src/A.java']);
    assert.equal(broken.meta.counts.missingContentCommits, 1);
    assert.deepEqual(broken.meta.missingContentCommits, [f.sha('C')]);
  } finally {
    f.remove();
  }
});

test('exact-commits: one sample per linked commit with source positives, each at its own parent', async () => {
  const r = await buildDataset({ repo: repo.dir, issues: [issue('MNG-2')], patterns: MNG, variant: 'exact-commits', maxGap: null });
  assert.deepEqual(r.records.map((x) => [x.commits[0], x.aprioriCommit, x.provenance.sample]), [
    [repo.sha('D'), repo.sha('R'), 0],
    [repo.sha('E'), repo.sha('U'), 1],
  ]);
  assert.equal(r.meta.counts.inDataset, 1);
  assert.equal(r.meta.counts.samples, 2);
});

test('fixing commits named by the issue source: abbreviated SHAs resolved, a-priori = first parent', async () => {
  const r = await buildDataset({
    repo: repo.dir,
    issues: [issue('56012', { fixCommits: [repo.sha('B').slice(0, 7)], resolution: '' }), issue('9', { fixCommits: ['abcdef0'], resolution: '' })],
    patterns: [],
  });
  assert.equal(r.records.length, 1);
  assert.equal(r.records[0].aprioriCommit, repo.sha('A'));
  assert.equal(r.records[0].provenance.linkedBy, 'given');
  assert.deepEqual(r.dropped.map((d) => [d.id, d.reason]), [['9', 'fix-commit-not-found']]);
});

test('without test files: tests are neither candidates nor positives', async () => {
  const r = await buildDataset({ repo: repo.dir, issues: [issue('MNG-2')], patterns: MNG, withTests: false, variant: 'exact-commits' });
  assert.deepEqual(r.records[0].positives, ['src/Bx.java']);
  assert.equal(r.records[0].candidates, 4, 'A, Bx, N, Foo (ATest left out)');
});

test('GitHub links: "#N" in first lines meets issue ids of the GitHub source', async () => {
  const f = fixtureRepo([
    { id: 'A', message: 'init', files: { 'pkg/a.py': 'a = 1\n', 'pkg/b.py': 'b = 1\n' } },
    { id: 'B', parents: ['A'], message: 'Fix crash in a (fixes #12)\n\nsee also #13', files: { 'pkg/a.py': 'a = 2\n' } },
    { id: 'C', parents: ['B'], message: 'Tidy b, GH-13', files: { 'pkg/b.py': 'b = 2\n' } },
  ]);
  try {
    const r = await buildDataset({ repo: f.dir, issues: [issue('12', { resolution: 'completed' }), issue('13', { resolution: 'not_planned' })], patterns: [githubPattern()] });
    assert.deepEqual(r.records.map((x) => [x.issue.id, x.positives]), [['12', ['pkg/a.py']]]);
    assert.deepEqual(r.dropped.map((d) => [d.id, d.reason]), [['13', 'not-linkable']]);
    assert.equal(r.meta.counts.linkedNotLinkable, 1);
  } finally {
    f.remove();
  }
});
