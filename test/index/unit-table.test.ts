// The unit table read as columns: a saved and loaded index answers every unit as the built one
// does, without making an object per unit at load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS, loadCodeIndex, saveCodeIndex } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';

const unit = (kind: UnitTerms['kind'], qualifiedName: string, startLine: number, endLine: number, namespaceParts = 0): UnitTerms =>
  ({ kind, qualifiedName, startLine, endLine, body: [['x', 1]], bodyLength: 1, ...(namespaceParts ? { namespaceParts } : {}) });
const stats = { files: 0, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 };

test('a loaded unit table gives each unit as built (names in UTF-8, namespace parts, file units); objects only when asked', () => {
  const built = buildCodeIndex('c0', DEFAULT_INDEX_SETTINGS, [
    { path: 'pkg/a.py', units: [unit('file', '', 1, 30), unit('function', 'Résumé.naïve', 3, 9), unit('function', 'f', 10, 30)] },
    { path: 'src/ns.cpp', units: [unit('file', '', 1, 40), unit('function', 'fmt.detail.Writer.put', 2, 20, 2), unit('function', '日本.関数', 21, 40)] },
    { path: 'tools/build.lua', units: [unit('file', '', 1, 3)] },
  ], stats);
  const dir = mkdtempSync(join(tmpdir(), 'unit-table-'));
  try {
    saveCodeIndex(dir, built);
    const loaded = loadCodeIndex(dir, 'c0', DEFAULT_INDEX_SETTINGS)!;
    assert.ok(loaded);
    // the loaded index makes its unit objects only when `units` is read
    assert.equal(typeof Object.getOwnPropertyDescriptor(loaded, 'units')?.get, 'function');
    const { table } = loaded;
    assert.equal(table.length, built.units.length);
    built.units.forEach((u, d) => {
      assert.deepEqual(table.unit(d), u);
      assert.equal(table.qualifiedName(d), u.qualifiedName);
      assert.equal(table.path(d), u.path);
      assert.equal(table.kind(d), u.kind);
      assert.equal(table.namespaceParts(d), u.namespaceParts ?? 0);
      assert.deepEqual([table.startLine(d), table.endLine(d)], [u.startLine, u.endLine]);
    });
    assert.deepEqual(loaded.units, built.units);
    assert.deepEqual([...loaded.fileOfUnit], [...built.fileOfUnit]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
