// The resolver's name and file lookups: the documents a map of lists pushed in document order holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocsByName, DocsOfFile } from '../../src/retrieve/unit-lookup.js';
import { lastNamePart } from '../../src/corpus/names.js';
import type { IndexedUnit } from '../../src/index/code-index.js';
import { UnitTable } from '../../src/index/unit-table.js';

const names = ['f', 'A.f', 'A.g', 'B.C.f', '', 'résumé', 'x.résumé', 'helper_1', 'helper_2', 'a.helper_1', '__init__', 'K.__init__', 'same_suffix_abcdef', 'other_abcdef'];
const units: IndexedUnit[] = Array.from({ length: 3000 }, (_, d) => ({
  path: `p${d % 7}.py`, kind: 'function', qualifiedName: d < 1000 ? names[d % names.length] : `n${d % 1700}.m${d % 13}`, startLine: 1, endLine: 2,
}));

test('DocsByName: per last name part, its documents ascending (none for unknown names and for nameless units)', () => {
  const want = new Map<string, number[]>();
  units.forEach((u, d) => {
    if (!u.qualifiedName) return;
    const k = lastNamePart(u.qualifiedName);
    want.set(k, [...(want.get(k) ?? []), d]);
  });
  const paths = Array.from({ length: 7 }, (_, f) => `p${f}.py`);
  const lookup = new DocsByName(UnitTable.of(units, paths, Uint32Array.from(units, (_, d) => d % 7)));
  for (const [k, docs] of want) assert.deepEqual(lookup.get(k), docs, k);
  for (const k of ['', 'A', 'abcdef', 'nothing', 'f.g']) assert.equal(lookup.get(k), undefined, k);
});

test('DocsOfFile: the documents of each file, whether the documents come file by file or not', () => {
  for (const fileOfUnit of [Uint32Array.from([0, 0, 1, 3, 3, 3]), Uint32Array.from([2, 0, 1, 0, 3, 1])]) {
    const lookup = new DocsOfFile(fileOfUnit, 5);
    for (let f = 0; f < 5; f++) assert.deepEqual(lookup.of(f), [...fileOfUnit.keys()].filter((d) => fileOfUnit[d] === f));
  }
});
