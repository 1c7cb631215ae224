import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';

const unit = (kind: UnitTerms['kind'], qualifiedName: string, startLine: number, endLine: number, words: string[]): UnitTerms => {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return { kind, qualifiedName, startLine, endLine, body: [...m], bodyLength: words.length };
};
const stats = { files: 0, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 };

test('function-level documents: functions of parsed files; one document per file without a grammar; no class or top-level-only documents', () => {
  const ci = buildCodeIndex('c0', DEFAULT_INDEX_SETTINGS, [
    { path: 'app/models.py', units: [
      unit('file', '', 1, 9, ['class', 'migration', 'def', 'save']),
      unit('class', 'Migration', 1, 3, ['class', 'migration']),
      unit('class', 'Model', 4, 9, ['class', 'model', 'def', 'save']),
      unit('function', 'Model.save', 5, 9, ['def', 'save']),
    ] },
    { path: 'app/settings.py', units: [unit('file', '', 1, 2, ['debug', 'true'])] },
    { path: 'tools/build.lua', units: [unit('file', '', 1, 3, ['function', 'build'])] },
  ], stats);
  assert.deepEqual(ci.units.map((u) => `${u.path}:${u.qualifiedName}`), ['app/models.py:Model.save', 'tools/build.lua:']);
  // the file-level index still holds every file (it feeds the file prior)
  assert.deepEqual(ci.filePaths, ['app/models.py', 'app/settings.py', 'tools/build.lua']);
});

test('the body field starts with the path tokens (ref_eval.py: document = path + source)', () => {
  const ci = buildCodeIndex('c0', DEFAULT_INDEX_SETTINGS, [
    { path: 'pkg/parser.py', units: [unit('file', '', 1, 2, []), unit('function', 'parse', 1, 2, ['def', 'parse', 'text'])] },
  ], stats);
  const { index } = ci;
  const body = index.fieldNames.indexOf('body');
  assert.equal(index.fieldLength[body], 3 + 3, 'pkg parser py + def parse text');
  const t = index.termIds.get('pkg')!;
  const { tf } = index.postings(t);
  assert.equal(tf[body], 1);
  assert.equal(tf[index.fieldNames.indexOf('path')], 1);
});
