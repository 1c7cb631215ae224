// The resolver's name and file lookups: the documents a map of lists pushed in document order holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocsByName, DocsOfFile, NAME_TABLE_TAG, docsByNameOf, storeDocsByNameAt } from '../../src/retrieve/unit-lookup.js';
import { setCacheWarningSink, writeCheckedFile } from '../../src/util/checked-file.js';
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

// The name table stored beside an index (storeDocsByNameAt): read by a later process instead of
// made; a corrupt, cut, stale or foreign file is never used (one warning, made again and rewritten).
const paths7 = Array.from({ length: 7 }, (_, f) => `p${f}.py`);
const tableOf = (us: IndexedUnit[]) => UnitTable.of(us, paths7, Uint32Array.from(us, (_, d) => d % 7));
const probes = ['f', 'g', 'résumé', 'helper_1', '__init__', 'm3', 'nothing', 'same_suffix_abcdef', 'other_abcdef'];
const lookups = (m: DocsByName) => probes.map((k) => m.get(k));

/** Runs `body` with a fresh folder and the corrupt-file warnings collected. */
function withStore(body: (dir: string, warnings: string[]) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-names-'));
  const warnings: string[] = [];
  const prev = setCacheWarningSink((line) => warnings.push(line));
  try {
    body(dir, warnings);
  } finally {
    setCacheWarningSink(prev);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A saved index's file in `dir` (the name table is kept only beside one). */
function indexBeside(dir: string): string {
  const file = join(dir, 'c.k.bin');
  writeFileSync(file, '');
  return file;
}

test('a stored name table: written by the first use, then read (the same file, no warning) with the same lookups', () => withStore((dir, warnings) => {
  const file = join(dir, 'c.k.names.bin');
  const want = lookups(new DocsByName(tableOf(units)));
  const first = tableOf(units);
  storeDocsByNameAt(first, file, indexBeside(dir));
  assert.deepEqual(lookups(docsByNameOf(first)), want);
  const written = statSync(file);
  const later = tableOf(units);
  storeDocsByNameAt(later, file, indexBeside(dir));
  assert.deepEqual(lookups(docsByNameOf(later)), want);
  assert.equal(statSync(file).ino, written.ino, 'read, not rewritten');
  assert.deepEqual(warnings, []);
}));

test('a stored name table that is corrupt, cut short, of an older format or of other names: one warning, the lookups made again, the file rewritten', () => withStore((dir, warnings) => {
  const file = join(dir, 'c.k.names.bin');
  const want = lookups(new DocsByName(tableOf(units)));
  const whole = new DocsByName(tableOf(units)).parts();
  const other = units.map((u, d) => (d === 5 ? { ...u, qualifiedName: 'A.renamed' } : u));
  const spoil: [string, () => void][] = [
    ['a flipped bit', () => {
      writeCheckedFile(file, NAME_TABLE_TAG, whole);
      const b = readFileSync(file);
      b[100] ^= 4;
      writeFileSync(file, b);
    }],
    ['cut short', () => {
      writeCheckedFile(file, NAME_TABLE_TAG, whole);
      writeFileSync(file, readFileSync(file).subarray(0, 5000));
    }],
    ['an older format', () => writeCheckedFile(file, 'names.v0', whole)],
    ['made from other names', () => writeCheckedFile(file, NAME_TABLE_TAG, new DocsByName(tableOf(other)).parts())],
    ['chains out of order', () => {
      const [header, head, next] = whole as [Uint32Array, Int32Array, Int32Array];
      const loop = Int32Array.from(next);
      loop[loop.findIndex((n) => n > 0)] = 0;
      writeCheckedFile(file, NAME_TABLE_TAG, [header, head, loop]);
    }],
  ];
  for (const [what, make] of spoil) {
    make();
    warnings.length = 0;
    const table = tableOf(units);
    storeDocsByNameAt(table, file, indexBeside(dir));
    assert.deepEqual(lookups(docsByNameOf(table)), want, what);
    assert.equal(warnings.length, 1, what);
    assert.match(warnings[0], /corrupt cache file .*names\.bin: rebuilt/, what);
    const again = tableOf(units);
    storeDocsByNameAt(again, file, indexBeside(dir));
    assert.deepEqual(lookups(docsByNameOf(again)), want, what);
    assert.equal(warnings.length, 1, `${what}: rewritten whole`);
  }
}));

test('a name table that cannot be stored (its folder missing) is made each time, without a warning', () => withStore((dir, warnings) => {
  const table = tableOf(units);
  storeDocsByNameAt(table, join(dir, 'no-such-folder', 'c.k.names.bin'), indexBeside(dir));
  assert.deepEqual(lookups(docsByNameOf(table)), lookups(new DocsByName(tableOf(units))));
  assert.deepEqual(warnings, []);
}));

test('no name table is stored beside an index that was not saved (its file absent): made in memory, no file written', () => withStore((dir, warnings) => {
  const file = join(dir, 'c.k.names.bin');
  const table = tableOf(units);
  storeDocsByNameAt(table, file, join(dir, 'c.k.bin'));
  assert.deepEqual(lookups(docsByNameOf(table)), lookups(new DocsByName(tableOf(units))));
  assert.equal(existsSync(file), false);
  assert.deepEqual(warnings, []);
}));
