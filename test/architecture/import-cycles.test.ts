import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repositoryImports, repositoryRoot } from './layer-rules.js';
import { importCycles } from './import-cycles.js';

const root = repositoryRoot(import.meta.url);

test('no two files of src/, bench/, faults/ or test/ import each other, directly or through others', () => {
  const cycles = importCycles(repositoryImports(root, ['src', 'bench', 'faults', 'test']));
  assert.deepEqual(cycles, [], `import circles (move the shared type or function down into a file of its own):\n${cycles.map((c) => c.join(' ↔ ')).join('\n')}`);
});

test('the circle finder finds direct, long and self circles and nothing in a tree', () => {
  const e = (from: string, to: string) => ({ from, to });
  assert.deepEqual(importCycles([e('a', 'b'), e('b', 'c'), e('a', 'c'), e('c', 'd')]), []);
  assert.deepEqual(importCycles([e('a', 'b'), e('b', 'a'), e('x', 'x')]), [['a', 'b'], ['x']]);
  assert.deepEqual(importCycles([e('p', 'q'), e('q', 'r'), e('r', 's'), e('s', 'q'), e('r', 't')]), [['q', 'r', 's']]);
});
