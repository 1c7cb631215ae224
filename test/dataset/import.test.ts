import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../src/errors.js';
import { GitRepo } from '../../src/repo/git.js';
import { importSwebench } from '../../src/dataset/import/swebench.js';
import { importLocbench } from '../../src/dataset/import/locbench.js';
import { importTomcat } from '../../src/dataset/import/tomcat.js';
import { mirrorPath } from '../../src/repo/mirrors.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { fixtureData, sharedDataOrSkip } from '../fixtures/data.js';

const A_PY = 'def f(x):\n    return x\n\n\ndef g():\n    return 1\n';

function jsonl(dir: string, name: string, rows: unknown[], extra = ''): string {
  const p = join(dir, name);
  writeFileSync(p, rows.map((r) => JSON.stringify(r)).join('\n') + '\n' + extra);
  return p;
}

test('SWE-bench Lite without repositories: a record per row, patch files as positives, no functions', async () => {
  const res = await importSwebench(fixtureData('swebench-lite.jsonl'));
  assert.deepEqual(res.records.map((x) => x.issue.id), ['django__django-15202', 'sphinx-doc__sphinx-8721', 'pytest-dev__pytest-5221']);
  assert.equal(res.dropped.length, 0);
  const r = res.records[0];
  assert.equal(r.issue.title, 'URLField throws ValueError instead of ValidationError on clean');
  assert.ok(r.issue.bodyRaw.startsWith('Description'));
  assert.equal(r.issue.created, '2021-12-15T15:04:13.000Z');
  assert.equal(r.aprioriCommit, '4fd3044ca0135da903a70dfb66992293f529ecf1');
  assert.deepEqual(r.positives, ['django/core/validators.py']);
  assert.deepEqual(r.positiveFunctions, []);
  assert.equal(r.repo, 'django/django');
  assert.equal(r.changesTests, true);
  assert.equal(r.variant, 'swebench');
});

test('SWE-bench Lite without repositories: all 300 rows become records', async (t) => {
  const file = sharedDataOrSkip(t, 'swebench-lite/swebench_lite.jsonl');
  if (!file) return;
  const res = await importSwebench(file);
  assert.equal(res.records.length, 300);
  assert.equal(res.dropped.length, 0);
  assert.equal(res.records.find((x) => x.issue.id === 'django__django-15202')?.aprioriCommit, '4fd3044ca0135da903a70dfb66992293f529ecf1');
});

test('SWE-bench with a repository: gold functions, candidates, and the drop reasons', async () => {
  const dir = tempDir();
  try {
    const work = join(dir, 'repo');
    const base = commitFiles(work, { 'pkg/a.py': A_PY, 'tests/test_a.py': 'def test_f():\n    pass\n', 'README.md': 'x\n' });
    commitFiles(work, { 'pkg/a.py': A_PY.replace('return x', 'return x + 1') });
    const editPatch = git(work, 'diff', 'HEAD~1', 'HEAD') + '\n';
    commitFiles(work, { 'pkg/a.py': A_PY.replace('return x', 'return x + 1') + '\n\ndef h():\n    return 2\n' });
    const addPatch = git(work, 'diff', 'HEAD~1', 'HEAD') + '\n';
    const row = (id: string, repo: string, commit: string, patch: string): Record<string, string> => ({
      instance_id: id, repo, base_commit: commit, problem_statement: `Title ${id}\nbody`, patch, test_patch: '', created_at: '2020-01-02T03:04:05Z',
    });
    const file = jsonl(dir, 'swe.jsonl', [
      row('o__r-1', 'o/r', base, editPatch),
      row('o__r-2', 'o/r', base, addPatch),
      row('o__r-3', 'o/r', '0'.repeat(40), editPatch),
      row('x__y-1', 'x/y', base, editPatch),
    ]);
    const repo = await GitRepo.open(work);
    try {
      const openRepo = async (name: string): Promise<GitRepo | null> => (name === 'o/r' ? repo : null);
      const res = await importSwebench(file, { openRepo });
      assert.deepEqual(res.records.map((r) => r.issue.id), ['o__r-1', 'x__y-1']);
      const [r1, r2] = res.records;
      assert.deepEqual(r1.positiveFunctions, ['pkg/a.py:f']);
      assert.deepEqual(r1.positiveModules, ['pkg/a.py:f']);
      assert.deepEqual(r1.positives, ['pkg/a.py']);
      assert.equal(r1.candidates, 1); // pkg/a.py; the test file and README are not candidates
      assert.equal(r1.changesTests, false);
      assert.deepEqual(r2.positiveFunctions, []);
      assert.equal(r2.candidates, 0);
      assert.deepEqual(
        res.dropped.map((d) => [d.id, d.reason]),
        [
          ['o__r-2', 'gold patch edits no existing function'],
          ['o__r-3', 'base commit missing in repository'],
        ],
      );
      const kept = await importSwebench(file, { openRepo, keepWithoutFunctions: true });
      assert.deepEqual(kept.records.find((r) => r.issue.id === 'o__r-2')?.positiveFunctions, []);
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(dir);
  }
});

test('importers name the file and line of a corrupt row, or skip and list it', async () => {
  const dir = tempDir();
  try {
    const good = { instance_id: 'a', repo: 'o/r', base_commit: 'c', problem_statement: 't', patch: '' };
    const file = jsonl(dir, 'bad.jsonl', [good, { ...good, instance_id: 'b', patch: 3 }], '{not json\n');
    await assert.rejects(importSwebench(file), (e: unknown) => e instanceof IssuelocError && e.message.includes('bad.jsonl:3'));
    const skipped = await importSwebench(file, { skipInvalid: true });
    assert.deepEqual(skipped.records.map((r) => r.issue.id), ['a']);
    assert.equal(skipped.invalid.length, 2);
    assert.match(skipped.invalid.join('\n'), /bad\.jsonl:2: field 'patch' missing or not a string/);
    await assert.rejects(importLocbench(join(dir, 'absent.jsonl')), /cannot read/);
  } finally {
    cleanup(dir);
  }
});

test('Loc-Bench V1: records with the given gold functions, modules and mapped categories', async () => {
  const res = await importLocbench(fixtureData('locbench.jsonl'));
  assert.equal(res.records.length, 4);
  const r = res.records.find((x) => x.issue.id === 'UXARRAY__uxarray-1117')!;
  assert.equal(r.issue.title, 'Optimize Face Centroid Calculations');
  assert.equal(r.issue.type, 'Performance Issue');
  assert.equal(r.issue.category, 'Improvement');
  assert.deepEqual(r.positives, ['uxarray/grid/connectivity.py', 'uxarray/grid/coordinates.py']);
  assert.deepEqual(r.positiveModules, ['uxarray/grid/connectivity.py:_build_n_nodes_per_face', 'uxarray/grid/coordinates.py:_construct_face_centroids']);
  // one row of each Loc-Bench category: Bug Report and Security Vulnerability are bugs
  assert.deepEqual(res.records.map((x) => [x.issue.type, x.issue.category]), [
    ['Performance Issue', 'Improvement'], ['Security Vulnerability', 'Bug'], ['Bug Report', 'Bug'], ['Feature Request', 'New Feature'],
  ]);
  assert.ok(res.records.every((x) => x.positiveFunctions.length > 0));
});

test('Loc-Bench V1: all 560 rows become records, in the published category counts', async (t) => {
  const file = sharedDataOrSkip(t, 'locbench/locbench_v1.jsonl');
  if (!file) return;
  const res = await importLocbench(file);
  assert.equal(res.records.length, 560);
  const byCategory: Record<string, number> = {};
  for (const x of res.records) byCategory[x.issue.category] = (byCategory[x.issue.category] ?? 0) + 1;
  assert.deepEqual(byCategory, { Bug: 242 + 29, 'New Feature': 150, Improvement: 139 });
  assert.ok(res.records.every((x) => x.positiveFunctions.length > 0));
});

const JAVA_A = [
  'package org;',
  'public class A {',
  '    public int run() {',
  '        return 1;',
  '    }',
  '    public int other() {',
  '        return 2;',
  '    }',
  '}',
  '',
].join('\n');

test('Tomcat (Ye et al. 2014): full commit, first parent as a-priori state, added files set aside', async () => {
  const dir = tempDir();
  try {
    const work = join(dir, 'tomcat');
    const parent = commitFiles(work, {
      'java/org/A.java': JAVA_A,
      'java/org/B.java': 'package org;\nclass B {}\n',
      'test/org/TestA.java': 'package org;\nclass TestA {}\n',
    });
    const fix = commitFiles(work, {
      'java/org/A.java': JAVA_A.replace('return 1;', 'return 11;'),
      'java/org/C.java': 'package org;\nclass C {}\n',
      'test/org/TestA.java': 'package org;\nclass TestA { int t; }\n',
    });
    const row = {
      bug_id: '56012', summary: 'Bug 56012 wrong import statement', description: null, report_time: '2014-01-15 07:30:17',
      status: 'resolved fixed', commit: fix.slice(0, 7), files: 'java/org/A.java java/org/C.java test/org/TestA.java',
    };
    const file = jsonl(dir, 'tomcat.jsonl', [row, { ...row, bug_id: '2', summary: 'Bug 2 x', commit: 'abcdef0' }]);
    const repo = await GitRepo.open(work);
    try {
      const res = await importTomcat(file, { repo });
      assert.equal(res.records.length, 1);
      const r = res.records[0];
      assert.equal(r.issue.id, '56012');
      assert.equal(r.issue.title, 'wrong import statement');
      assert.equal(r.issue.body, '');
      assert.equal(r.issue.created, '2014-01-15T07:30:17.000Z');
      assert.equal(r.issue.resolved, '2024-01-01T00:00:00.000Z');
      assert.deepEqual(r.commits, [fix]);
      assert.equal(r.aprioriCommit, parent);
      assert.deepEqual(r.positives, ['java/org/A.java', 'test/org/TestA.java']);
      assert.deepEqual(r.provenance.addedFiles, ['java/org/C.java']);
      assert.deepEqual(r.positiveFunctions, ['java/org/A.java:A.run']);
      assert.equal(r.changesTests, true);
      assert.equal(r.candidates, 3); // A, B and the test TestA
      assert.deepEqual(res.dropped.map((d) => d.id), ['2']);
      assert.match(res.dropped[0].reason, /abcdef0 not found/);
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(dir);
  }
});

test('mirrorPath finds OWNER+NAME and then the swe-bench mirror', () => {
  const dir = tempDir();
  try {
    commitFiles(join(dir, 'swe-bench+o__r', 'repo'), { 'x.py': '' });
    assert.equal(mirrorPath(dir, 'o/r'), join(dir, 'swe-bench+o__r', 'repo'));
    commitFiles(join(dir, 'o+r', 'repo'), { 'x.py': '' });
    assert.equal(mirrorPath(dir, 'o/r'), join(dir, 'o+r', 'repo'));
    assert.equal(mirrorPath(dir, 'z/z'), null);
    assert.equal(mirrorPath(dir, 'bad'), null);
  } finally {
    cleanup(dir);
  }
});

test('mirrorPath ignores letter case (a benchmark may spell paddlepaddle/visualdl) and finds a moved repository by its new name', () => {
  const dir = tempDir();
  try {
    mkdirSync(join(dir, 'PaddlePaddle+VisualDL', 'repo'), { recursive: true });
    assert.equal(mirrorPath(dir, 'paddlepaddle/visualdl'), join(dir, 'PaddlePaddle+VisualDL', 'repo'));
    mkdirSync(join(dir, 'isl-org+Open3D', 'repo'), { recursive: true });
    assert.equal(mirrorPath(dir, 'intel-isl/open3d'), join(dir, 'isl-org+Open3D', 'repo'));
    mkdirSync(join(dir, 'other+only-a-folder'), { recursive: true });
    assert.equal(mirrorPath(dir, 'Other/Only-A-Folder'), null);
    assert.equal(mirrorPath(join(dir, 'missing'), 'a/b'), null);
  } finally {
    cleanup(dir);
  }
});
