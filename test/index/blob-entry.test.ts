// The blob cache entry written and read as bytes: the same bytes as JSON.stringify, the same units as JSON.parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BlobEntryReader, BlobEntryWriter } from '../../src/index/blob-entry.js';
import { BlobTermsCache, type UnitTerms } from '../../src/index/blob-terms.js';
import { IdCounts } from '../../src/index/inverted-index.js';
import { UnitBodyCounter } from '../../src/index/unit-bodies.js';
import { writeCheckedFile } from '../../src/util/checked-file.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

const KEY = `${'c'.repeat(40)}python`;

/** Units of every shape an entry holds: names to escape, namespace parts, an empty body, terms beyond ASCII. */
function sampleUnits(counter: UnitBodyCounter): UnitTerms[] {
  const body = (...pairs: [string, number][]): IdCounts =>
    new IdCounts(counter.terms, Int32Array.from(pairs.flatMap(([t, n]) => [counter.termId(t), n])));
  return [
    { kind: 'file', qualifiedName: '', startLine: 1, endLine: 120, body: body(['import', 3], ['sympy', 12], ['größe', 1], ['x', 1234567]), bodyLength: 1234583 },
    { kind: 'class', qualifiedName: 'Ns.Outer "quoted" \\ back\u0001\u2028\ud800', namespaceParts: 1, startLine: 3, endLine: 40, body: body(['outer', 1]), bodyLength: 1 },
    { kind: 'function', qualifiedName: 'Outer.f', startLine: 10, endLine: 10, body: body(), bodyLength: 0 },
    { kind: 'function', qualifiedName: 'Outer.ünï', startLine: 11, endLine: 12, body: body(['sympy', 2], ['import', 1]), bodyLength: 3 },
  ];
}

const asPairs = (units: readonly UnitTerms[]) => units.map((u) => ({ ...u, body: [...u.body] }));

test('the writer gives the bytes of JSON.stringify and the reader the units of JSON.parse', () => {
  const counter = new UnitBodyCounter(false);
  const units = sampleUnits(counter);
  const writer = new BlobEntryWriter();
  const bytes = writer.encode(KEY, units);
  assert.ok(bytes);
  const json = JSON.stringify({ key: KEY, units });
  assert.equal(Buffer.from(bytes).toString('utf8'), json);
  // read into another dictionary: the same terms and counts, by its ids
  const other = new UnitBodyCounter(false);
  other.termId('first');
  const read = new BlobEntryReader(other).read(Buffer.from(json, 'utf8'), KEY);
  // the name with escapes is JSON's to read: the whole entry goes to JSON.parse
  assert.equal(read, undefined);
  const plain = units.filter((u) => u.kind !== 'class');
  const plainRead = new BlobEntryReader(other).read(Buffer.from(JSON.stringify({ key: KEY, units: plain }), 'utf8'), KEY);
  assert.ok(plainRead);
  assert.deepEqual(asPairs(plainRead as UnitTerms[]), JSON.parse(JSON.stringify(plain)));
  assert.equal(other.terms[0], 'first');
});

test('the reader leaves anything but the writer\'s form to JSON (undefined)', () => {
  const reader = new BlobEntryReader(new UnitBodyCounter(false));
  const entry = (units: string, key = KEY) => Buffer.from(`{"key":"${key}","units":${units}}`, 'utf8');
  const unit = (rest: string) => `[{"kind":"function","qualifiedName":"f",${rest}}]`;
  assert.deepEqual(reader.read(entry('[]'), KEY), []);
  assert.ok(reader.read(entry(unit('"startLine":1,"endLine":2,"body":[["f",1]],"bodyLength":1')), KEY));
  for (const bad of [
    entry('[]', 'other'), // another key
    entry(' []'), // white space
    entry(unit('"startLine":1.0,"endLine":2,"body":[],"bodyLength":0')), // a number JSON reads as an integer
    entry(unit('"startLine":01,"endLine":2,"body":[],"bodyLength":0')), // no JSON at all
    entry(unit('"startLine":1,"endLine":2,"body":[["\\u0066",1]],"bodyLength":1')), // an escape
    entry(unit('"startLine":1,"endLine":2,"body":[],"bodyLength":0,"extra":1')), // another field
    entry(unit('"startLine":-1,"endLine":2,"body":[],"bodyLength":0')),
    Buffer.from(`{"key":"${KEY}","units":[]}x`, 'utf8'),
  ]) assert.equal(reader.read(bad, KEY), undefined, bad.toString());
});

test('the cache reads an entry JSON writes otherwise (white space) through JSON, the same units', () => {
  const dir = tempDir('issueloc-blob-entry-');
  try {
    const cache = new BlobTermsCache(join(dir, 'blobs'));
    const counter = new UnitBodyCounter(false);
    const units = sampleUnits(counter);
    assert.equal(cache.set(KEY, units), undefined);
    const expected = JSON.parse(JSON.stringify(units));
    assert.deepEqual(cache.get(KEY), expected);
    const byIds = (u: UnitTerms[]) => counter.byIds(u);
    assert.deepEqual(asPairs(cache.getByIds(KEY, counter, byIds) ?? []), expected);
    const spaced = `${'d'.repeat(40)}python`;
    const plain = units.filter((u) => u.kind !== 'class');
    writeCheckedFile(join(dir, 'blobs', spaced.slice(0, 2), `${spaced.slice(2)}.json`), 'blob.v2', [JSON.stringify({ key: spaced, units: plain }, null, 1)]);
    assert.deepEqual(asPairs(cache.getByIds(spaced, counter, byIds) ?? []), JSON.parse(JSON.stringify(plain)));
    assert.equal(cache.hits, 3);
  } finally {
    cleanup(dir);
  }
});
