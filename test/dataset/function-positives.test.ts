import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeUnit } from '../../src/corpus/types.js';
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
  assert.deepEqual(await editedFunctionsOfFile(f, BASE, fakeExtract), ['pkg/mod.py:A.n']);
});

test('code added inside a body counts; a new method between two methods does not', async () => {
  const inside = parsePatch(patchOf(['@@ -11,0 +12,1 @@', '+    print(4)']))[0];
  assert.deepEqual(await editedFunctionsOfFile(inside, BASE, fakeExtract), ['pkg/mod.py:top']);
  const between = parsePatch(
    patchOf(['@@ -6,0 +7,3 @@', '+    def fresh(self):', '+        return 0', '+']),
  )[0];
  assert.deepEqual(await editedFunctionsOfFile(between, BASE, fakeExtract), []);
});

test('a removed function is a positive; a header offset is absorbed by locating the hunk', async () => {
  // header says line 1 but the context is at line 10
  const [f] = parsePatch(patchOf(['@@ -1,2 +1,0 @@', '-def top():', '-    return 3']));
  assert.deepEqual(await editedFunctionsOfFile(f, BASE, fakeExtract), ['pkg/mod.py:top']);
});

test('CRLF base text gives the same positives as LF', async () => {
  const [f] = parsePatch(patchOf(['@@ -5 +5 @@', '-        return 1', '+        return 0']));
  assert.deepEqual(await editedFunctionsOfFile(f, BASE.replace(/\n/g, '\r\n'), fakeExtract), ['pkg/mod.py:A.m']);
});

test('moduleOf / modulesOf roll methods up to their top-level class', () => {
  assert.equal(moduleOf('a/b.py:A.B.m'), 'a/b.py:A');
  assert.equal(moduleOf('a/b.py:f'), 'a/b.py:f');
  assert.deepEqual(modulesOf(['x.py:A.m', 'x.py:f', 'x.py:A.n']), ['x.py:A', 'x.py:f']);
});
