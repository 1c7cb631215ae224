import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeUnit } from '../../src/corpus/types.js';
import { IssuelocError } from '../../src/errors.js';
import { GitRepo } from '../../src/repo/git.js';
import { goldForCommit, goldForPatch } from '../../src/dataset/gold.js';
import { addFunctionPositives } from '../../src/dataset/record-functions.js';
import type { DatasetRecord } from '../../src/dataset/record.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { parsePatch } from '../../src/dataset/patch.js';
import {
  editedFunctionNames,
  editedFunctionsOfFile,
  moduleOf,
  modulesOf,
} from '../../src/dataset/function-positives.js';

/**
 * A tiny indentation-based Python extractor for the tests (not tree-sitter): `def`/`class` at any
 * depth inside classes; a unit ends at its last non-blank line before a line indented no deeper.
 */
async function fakeExtract(path: string, text: string): Promise<CodeUnit[]> {
  const lines = text.split('\n');
  const units: CodeUnit[] = [];
  const stack: { indent: number; name: string; kind: 'class' | 'function' }[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)(def|class) (\w+)/.exec(line);
    if (!m) return;
    const indent = m[1].length;
    while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
    if (stack.some((s) => s.kind === 'function')) return; // nested in a function: part of it
    let end = i;
    for (let j = i + 1; j < lines.length; j++) {
      if (lines[j].trim() === '') continue;
      if (/^\s*/.exec(lines[j])![0].length <= indent) break;
      end = j;
    }
    const kind = m[2] === 'def' ? 'function' : 'class';
    const qualifiedName = [...stack.map((s) => s.name), m[3]].join('.');
    units.push({ id: `${path}:${qualifiedName}`, path, kind, qualifiedName, startLine: i + 1, endLine: end + 1, text: '' });
    stack.push({ indent, name: m[3], kind });
  });
  return units;
}

const BASE = [
  'import os', //                1
  '', //                         2
  'class A:', //                 3
  '    def m(self):', //         4
  '        return 1', //         5
  '', //                         6
  '    def n(self):', //         7
  '        return 2', //         8
  '', //                         9
  'def top():', //              10
  '    return 3', //            11
  '',
].join('\n');

function patchOf(hunk: string[]): string {
  return ['--- a/pkg/mod.py', '+++ b/pkg/mod.py', ...hunk, ''].join('\n');
}

test('editedFunctionNames: removed lines hit old spans, added lines hit new spans of existing functions', () => {
  const oldF = [
    { qualifiedName: 'A.m', startLine: 4, endLine: 5 },
    { qualifiedName: 'top', startLine: 10, endLine: 11 },
  ];
  const newF = [
    { qualifiedName: 'A.m', startLine: 4, endLine: 5 },
    { qualifiedName: 'A.fresh', startLine: 7, endLine: 8 },
    { qualifiedName: 'top', startLine: 12, endLine: 14 },
  ];
  assert.deepEqual(editedFunctionNames(oldF, newF, new Set([11]), new Set()), ['top']);
  assert.deepEqual(editedFunctionNames(oldF, newF, new Set(), new Set([8])), []); // new function only
  assert.deepEqual(editedFunctionNames(oldF, newF, new Set([5]), new Set([13])), ['A.m', 'top']);
  // base-file order, not hit order
  assert.deepEqual(editedFunctionNames(oldF, newF, new Set([4]), new Set([12])), ['A.m', 'top']);
  assert.deepEqual(editedFunctionNames(oldF, newF, new Set([1, 2, 3]), new Set([1, 2, 3])), []);
});

test('a line changed inside a method makes the method a positive', async () => {
  const [f] = parsePatch(patchOf(['@@ -7,2 +7,2 @@', '     def n(self):', '-        return 2', '+        return 22']));
  assert.deepEqual((await editedFunctionsOfFile(f, BASE, fakeExtract)).map((f) => f.id), ['pkg/mod.py:A.n']);
});

test('code added inside a body counts; a new method between two methods does not', async () => {
  const inside = parsePatch(patchOf(['@@ -11,0 +12,1 @@', '+    print(4)']))[0];
  assert.deepEqual((await editedFunctionsOfFile(inside, BASE, fakeExtract)).map((f) => f.id), ['pkg/mod.py:top']);
  const between = parsePatch(
    patchOf(['@@ -6,0 +7,3 @@', '+    def fresh(self):', '+        return 0', '+']),
  )[0];
  assert.deepEqual((await editedFunctionsOfFile(between, BASE, fakeExtract)).map((f) => f.id), []);
});

test('a removed function is a positive; a header offset is absorbed by locating the hunk', async () => {
  // header says line 1 but the context is at line 10
  const [f] = parsePatch(patchOf(['@@ -1,2 +1,0 @@', '-def top():', '-    return 3']));
  assert.deepEqual((await editedFunctionsOfFile(f, BASE, fakeExtract)).map((f) => f.id), ['pkg/mod.py:top']);
});

test('CRLF base text gives the same positives as LF', async () => {
  const [f] = parsePatch(patchOf(['@@ -5 +5 @@', '-        return 1', '+        return 0']));
  assert.deepEqual((await editedFunctionsOfFile(f, BASE.replace(/\n/g, '\r\n'), fakeExtract)).map((f) => f.id), ['pkg/mod.py:A.m']);
});

test('moduleOf / modulesOf roll methods up to their top-level class', () => {
  assert.equal(moduleOf('a/b.py:A.B.m'), 'a/b.py:A');
  assert.equal(moduleOf('a/b.py:f'), 'a/b.py:f');
  assert.deepEqual(modulesOf(['x.py:A.m', 'x.py:f', 'x.py:A.n']), ['x.py:A', 'x.py:f']);
});

// ---- with the corpus extractor (tree-sitter) and git repositories the tests build

const PY_BASE = [
  'import os', //                   1
  '', //                            2
  'def deco(f):', //                3
  '    return f', //                4
  '', //                            5
  'class A:', //                    6
  '    @deco', //                   7
  '    def m(self):', //            8
  '        return 1', //            9
  '', //                           10
  '    @property', //              11
  '    def p(self):', //           12
  '        return self._p', //     13
  '', //                           14
  '    @p.setter', //              15
  '    def p(self, v):', //        16
  '        self._p = v', //        17
  '', //                           18
  'if os.name:', //                19
  '    def cond():', //            20
  '        return 2', //           21
  '', //                           22
  'def outer():', //               23
  '    def inner():', //           24
  '        return 3', //           25
  '    return inner', //           26
  '',
].join('\n');

function edit(text: string, edits: Record<number, string>): string {
  const lines = text.split('\n');
  for (const [n, s] of Object.entries(edits)) lines[Number(n) - 1] = s;
  return lines.join('\n');
}

test('goldForPatch on a real git diff: decorators, setters, if-blocks, nested functions, new methods', async () => {
  const dir = tempDir();
  try {
    const base = commitFiles(dir, { 'pkg/a.py': PY_BASE, 'README.md': 'hi\n' });
    const changed = edit(PY_BASE, {
      7: '    @deco  # traced', //                       decorator line of A.m
      17: '        self._p = v + 1', //                  the setter (same id as the getter)
      21: '        return 22', //                        function inside a module-level if
      25: '        return 33', //                        nested function: its parent is gold
      10: '\n    def fresh(self):\n        return 0\n', // a new method between two: not gold
    });
    const head = commitFiles(dir, { 'pkg/a.py': changed, 'pkg/new.py': 'def n():\n    pass\n', 'README.md': 'ho\n' });
    const patch = git(dir, 'diff', base, head);
    const repo = await GitRepo.open(dir);
    try {
      const gold = await goldForPatch(repo, base, patch);
      assert.deepEqual(gold.functions, ['pkg/a.py:A.m', 'pkg/a.py:A.p', 'pkg/a.py:cond', 'pkg/a.py:outer']);
      assert.deepEqual(gold.modules, ['pkg/a.py:A', 'pkg/a.py:cond', 'pkg/a.py:outer']);
      assert.deepEqual(gold.files, ['README.md', 'pkg/a.py', 'pkg/new.py']);
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(dir);
  }
});

test('goldForCommit diffs against the first parent and flags test changes', async () => {
  const dir = tempDir();
  try {
    commitFiles(dir, { 'pkg/a.py': PY_BASE });
    const fixed = edit(PY_BASE, { 4: '    return f  # noop' });
    const fix = commitFiles(dir, { 'pkg/a.py': fixed, 'tests/test_a.py': 'def test_x():\n    assert 1\n' });
    const plain = commitFiles(dir, { 'pkg/a.py': edit(fixed, { 9: '        return 9' }) });
    const repo = await GitRepo.open(dir);
    try {
      const g = await goldForCommit(repo, fix);
      assert.deepEqual(g.functions, ['pkg/a.py:deco']);
      assert.equal(g.changesTests, true);
      assert.deepEqual(g.files, ['pkg/a.py', 'tests/test_a.py']);
      assert.deepEqual(g.unreadable, []);
      const p = await goldForCommit(repo, plain);
      assert.equal(p.parent, fix);
      assert.deepEqual(p.functions, ['pkg/a.py:A.m']); // base state is the fix, not the root
      assert.equal(p.changesTests, false);
      await assert.rejects(goldForCommit(repo, 'deadbeef'), IssuelocError);
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(dir);
  }
});

test('addFunctionPositives: functions of the positive files that exist at the a-priori state; test-change filter', async () => {
  const dir = tempDir();
  try {
    const c0 = commitFiles(dir, { 'pkg/a.py': PY_BASE, 'pkg/b.py': 'def b():\n    return 0\n' });
    // first fix: edits cond and adds a new function late()
    const s1 = edit(PY_BASE, { 21: '        return 22' }) + 'def late():\n    return 5\n';
    const c1 = commitFiles(dir, { 'pkg/a.py': s1, 'tests/test_a.py': 'def test_a():\n    pass\n' });
    // second fix: edits late() (absent at the a-priori state c0), outer, and b.py
    const c2 = commitFiles(dir, {
      'pkg/a.py': edit(s1, { 25: '        return 33' }).replace('return 5', 'return 6'),
      'pkg/b.py': 'def b():\n    return 1\n',
    });
    const record: DatasetRecord = {
      issue: { id: 'X-1', title: 't', body: '', bodyRaw: '', type: 'Bug', category: 'Bug', created: null, resolved: null, labels: [] },
      commits: [c1, c2],
      aprioriCommit: c0,
      positives: ['pkg/a.py'],
      positiveFunctions: [],
      candidates: 2,
      variant: 'all-future-files',
      provenance: {},
      changesTests: true,
    };
    const other: DatasetRecord = { ...record, issue: { ...record.issue, id: 'X-2' }, commits: [c2], aprioriCommit: c1, changesTests: false };
    const repo = await GitRepo.open(dir);
    try {
      const res = await addFunctionPositives(repo, [record, other]);
      assert.deepEqual(res.records[0].positiveFunctions, ['pkg/a.py:cond', 'pkg/a.py:outer']); // not late(), not b.py
      assert.deepEqual(res.records[0].positiveModules, ['pkg/a.py:cond', 'pkg/a.py:outer']);
      assert.deepEqual(res.records[1].positiveFunctions, ['pkg/a.py:outer', 'pkg/a.py:late']);
      assert.deepEqual(record.positiveFunctions, []); // input untouched
      const only = await addFunctionPositives(repo, [record, other], { onlyChangingTests: true });
      assert.deepEqual(only.records.map((r) => r.issue.id), ['X-1']);
      assert.equal(only.droppedNoTestChange, 1);
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(dir);
  }
});
