// The numbers a query tells function ids and modules apart by (UnitIds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IndexedUnit } from '../../src/index/code-index.js';
import { UnitTable } from '../../src/index/unit-table.js';
import { UnitIds } from '../../src/retrieve/unit-ids.js';

test('UnitIds: documents share a unit number exactly when they share an id, a module number exactly when they share a module id', () => {
  const names = ['f', 'A.f', 'A.g', 'f', 'B.h', 'A.f', '', 'B.k.inner'];
  const paths = ['a.py', 'b.py', 'a:b.py'];
  const units: IndexedUnit[] = Array.from({ length: 24 }, (_, d) => ({ path: paths[d % 3], kind: 'function', qualifiedName: names[d % names.length], startLine: d, endLine: d + 1 }));
  const ids = new UnitIds(UnitTable.of(units, paths, Uint32Array.from(units, (_, d) => d % 3)));
  // asked in an order that is not the documents'
  const order = [...units.keys()].sort((x, y) => ((x * 7) % 24) - ((y * 7) % 24));
  for (const x of order) {
    for (const y of order) {
      assert.equal(ids.unitNumber(x) === ids.unitNumber(y), ids.id(x) === ids.id(y), `ids of ${x}, ${y}`);
      assert.equal(ids.moduleNumber(x) === ids.moduleNumber(y), ids.module(x) === ids.module(y), `modules of ${x}, ${y}`);
    }
  }
});
