// The blob cache entry in bytes (src/index/blob-entry.ts): read back as the units written, by a dictionary's ids or as pairs; anything else is no entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BlobEntryReader, BlobEntryWriter } from '../../src/index/blob-entry.js';
import { BlobTermsCache, type UnitTerms } from '../../src/index/blob-terms.js';
import { IdCounts } from '../../src/index/inverted-index.js';
import { UnitBodyCounter } from '../../src/index/unit-bodies.js';
import { tokenize } from '../../src/text/tokenize.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

const KEY = `${'c'.repeat(40)}python`;

/** Units of every shape an entry holds: names beyond ASCII and with quotes, namespace parts, an empty body, a large count. */
function sampleUnits(counter: UnitBodyCounter): UnitTerms[] {
  const body = (...pairs: [string, number][]): IdCounts =>
    new IdCounts(counter.terms, Int32Array.from(pairs.flatMap(([t, n]) => [counter.termId(t), n])));
  return [
    { kind: 'file', qualifiedName: '', startLine: 1, endLine: 120, body: body(['import', 3], ['sympy', 12], ['größe', 1], ['x', 1234567]), bodyLength: 1234583 },
    { kind: 'class', qualifiedName: 'Ns.Outer "quoted" \\ back\u0001\u2028', namespaceParts: 1, startLine: 3, endLine: 40, body: body(['outer', 1]), bodyLength: 1 },
    { kind: 'function', qualifiedName: 'Outer.f', namespaceParts: 0, startLine: 10, endLine: 10, body: body(), bodyLength: 0 },
    { kind: 'function', qualifiedName: 'Outer.ünï', startLine: 11, endLine: 12, body: body(['sympy', 2], ['import', 1]), bodyLength: 3 },
  ];
}

const asPairs = (units: readonly UnitTerms[]) => units.map((u) => ({ ...u, body: [...u.body] }));

test('an entry reads back as the units written, by another dictionary\'s ids or as pairs', () => {
  const counter = new UnitBodyCounter(false);
  const units = sampleUnits(counter);
  const bytes = new BlobEntryWriter().encode(KEY, units);
  assert.ok(bytes);
  const payload = Buffer.from(bytes);
  const other = new UnitBodyCounter(false);
  other.termId('first');
  const read = new BlobEntryReader(other).read(payload, KEY);
  assert.ok(read);
  assert.deepEqual(asPairs(read), asPairs(units));
  assert.ok(read.every((u) => u.body instanceof IdCounts && u.body.terms === other.terms));
  assert.equal(other.terms[0], 'first');
  assert.deepEqual(new BlobEntryReader().readPairs(payload, KEY), asPairs(units));
  // each term once: `sympy` and `import` of two units stored once
  assert.equal(payload.toString('latin1').split('sympy').length, 2);
});

test('the name terms of units read back as written (by ids or as pairs); a unit without them reads back without', () => {
  const counter = new UnitBodyCounter(false);
  const units = sampleUnits(counter);
  units[2].nameTerms = counter.nameTerms('Outer.f');
  units[3].nameTerms = counter.nameTerms('Outer.sympy_import_größe');
  const payload = Buffer.from(new BlobEntryWriter().encode(KEY, units)!);
  const names = (us: readonly UnitTerms[]) => us.map((u) => (u.nameTerms ? [...u.nameTerms] : undefined));
  const other = new UnitBodyCounter(false);
  const read = new BlobEntryReader(other).read(payload, KEY)!;
  const counted = (name: string) => [...tokenize(name).reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>())];
  assert.deepEqual(names(read), [undefined, undefined, counted('Outer.f'), counted('Outer.sympy_import_größe')]);
  assert.deepEqual(counted('Outer.f'), [['outer', 1]]);
  assert.ok(read[3].nameTerms instanceof IdCounts && read[3].nameTerms.terms === other.terms);
  assert.deepEqual(names(new BlobEntryReader().readPairs(payload, KEY)!), names(read));
  // the name's terms share the entry's term table: `sympy` still written once (and inside `sympy_import_gr`)
  assert.equal(payload.toString('latin1').split('sympy').length, 3);
  // pairs or ids: the same bytes
  const asPairsWithNames = units.map((u) => ({ ...u, body: [...u.body], ...(u.nameTerms ? { nameTerms: [...u.nameTerms] } : {}) }));
  assert.deepEqual(Buffer.from(new BlobEntryWriter().encode(KEY, asPairsWithNames)!), payload);
  for (let n = 0; n < payload.length; n++) assert.equal(new BlobEntryReader(other).read(payload.subarray(0, n), KEY), undefined, `cut at ${n}`);
});

test('bodies as pairs or by ids give the same bytes', () => {
  const counter = new UnitBodyCounter(false);
  const units = sampleUnits(counter);
  const writer = new BlobEntryWriter();
  const byIds = Buffer.from(writer.encode(KEY, units)!);
  assert.deepEqual(Buffer.from(writer.encode(KEY, asPairs(units))!), byIds);
});

test('a payload cut, extended, of another key or with a term number out of range is no entry', () => {
  const counter = new UnitBodyCounter(false);
  const units = sampleUnits(counter);
  const payload = Buffer.from(new BlobEntryWriter().encode(KEY, units)!);
  const reader = new BlobEntryReader(new UnitBodyCounter(false));
  for (let n = 0; n < payload.length; n++) assert.equal(reader.read(payload.subarray(0, n), KEY), undefined, `cut at ${n}`);
  assert.equal(reader.read(Buffer.concat([payload, Buffer.of(0)]), KEY), undefined);
  assert.equal(reader.read(payload, `${'d'.repeat(40)}python`), undefined);
  assert.equal(new BlobEntryReader().readPairs(payload, KEY.slice(1)), undefined);
  // one unit, one pair whose term number (5) is past the entry's one term, no name terms
  const one = Buffer.concat([Buffer.of(KEY.length), Buffer.from(KEY), Buffer.of(1, 1, 0x61, 1, 2, 1, 0x66, 0, 1, 2, 1, 1, 5, 1, 0)]);
  assert.equal(reader.read(one, KEY), undefined);
  one[one.length - 3] = 0;
  assert.deepEqual(asPairs(reader.read(one, KEY)!), [{ kind: 'function', qualifiedName: 'f', startLine: 1, endLine: 2, body: [['a', 1]], bodyLength: 1 }]);
});

test('the cache reads its entries back into the dictionary of the units parsed; a number out of range is not written', () => {
  const dir = tempDir('issueloc-blob-entry-');
  try {
    const cache = new BlobTermsCache(join(dir, 'blobs'));
    const counter = new UnitBodyCounter(false);
    const [parsed] = counter.unitBodies('parse_token token', [{ from: 0, to: 17, maxWords: 0 }]);
    const units = sampleUnits(counter);
    assert.equal(cache.set(KEY, units), undefined);
    assert.ok(existsSync(join(dir, 'blobs', 'cc', `${KEY.slice(2)}.bin`)));
    assert.deepEqual(cache.get(KEY), asPairs(units));
    const read = cache.getByIds(KEY, counter);
    assert.deepEqual(asPairs(read ?? []), asPairs(units));
    assert.equal((read![0].body as IdCounts).terms, parsed.body.terms);
    assert.equal(cache.hits, 2);
    const odd = `${'e'.repeat(40)}python`;
    assert.ok(cache.set(odd, [{ ...units[2], startLine: -1 }]) instanceof Error);
    assert.ok(cache.set(odd, [{ ...units[2], body: [['x', 1.5]] }]) instanceof Error);
    assert.equal(cache.get(odd), undefined);
    assert.equal(cache.misses, 1);
  } finally {
    cleanup(dir);
  }
});
