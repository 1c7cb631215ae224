import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { averageFieldLengths, IdCounts, IndexBuilder, invertFields, type InvertedIndex } from '../../src/index/inverted-index.js';
import { corpusInvertedIndex } from '../../src/retrieve/file-retrievers/bm25f.js';
import { corpusFromTokens, Vocabulary } from '../../src/retrieve/file-retrievers/corpus.js';
import { readIndexFile, writeIndexFile } from '../../src/index/store.js';
import { CorruptCacheFileError, setCacheWarningSink } from '../../src/util/checked-file.js';
import { blocksLayout, editUnderChecksums } from '../util/checked-blocks-fixture.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

/** Every temporary folder of this file lives here, removed at the end. */
const scratch = tempDir('issueloc-inverted-index-');
after(() => cleanup(scratch));

const m = (o: Record<string, number>) => new Map(Object.entries(o));

function sample() {
  const b = new IndexBuilder(['name', 'body']);
  b.add([m({ parse: 1 }), m({ parse: 2, token: 1 })]);
  b.add([m({}), m({ token: 3, lexer: 1 })]);
  b.add([m({ lexer: 1 }), m({ lexer: 1, parse: 1 })]);
  return b.build();
}

test('postings are grouped by term, ascending by document, with per-field tf', () => {
  const idx = sample();
  assert.equal(idx.docCount, 3);
  const parse = idx.termIds.get('parse')!;
  const s = idx.postingStart[parse], e = idx.postingStart[parse + 1];
  assert.deepEqual([...idx.postingDoc.subarray(s, e)], [0, 2]);
  // doc 0: name 1, body 2; doc 2: name 0, body 1
  assert.deepEqual([...idx.postingTf.subarray(s * 2, e * 2)], [1, 2, 0, 1]);
  assert.equal(idx.documentFrequency(idx.termIds.get('lexer')!), 2);
  assert.equal(idx.documentFrequency(idx.termIds.get('token')!), 2);
  assert.deepEqual([...idx.postings(parse).doc], [0, 2]);
  assert.deepEqual([...idx.postings(parse).tf], [1, 2, 0, 1]);
});

test('a field given as several lists is the index of their merged map: counts summed, first-seen term ids, tf clamped', () => {
  const lists = new IndexBuilder(['path', 'body']);
  const maps = new IndexBuilder(['path', 'body']);
  const path: [string, number][] = [['sympy', 1], ['core', 2]];
  const body: [string, number][] = [['subs', 3], ['core', 70000], ['sympy', 1]];
  const dictionary = ['subs', 'zeta', 'sympy', 'core'];
  const byIds = new IdCounts(dictionary, Int32Array.of(0, 3, 3, 70000, 2, 1)); // body, by dictionary ids
  lists.addSummed([[path], [path, byIds]], [3, 70005]);
  lists.addSummed([[], [byIds, body]]);
  maps.add([m({ sympy: 1, core: 2 }), m({ sympy: 2, core: 65535, subs: 3 })], [3, 70005]);
  maps.add([m({}), m({ subs: 6, core: 65535, sympy: 2 })], [0, 140008]);
  const a = lists.build();
  const b = maps.build();
  assert.deepEqual(a.vocabulary, ['sympy', 'core', 'subs']);
  assert.deepEqual([...byIds], body);
  assert.deepEqual([a.vocabulary, [...a.postingStart], [...a.postingDoc], [...a.postingTf], [...a.fieldLength]],
    [b.vocabulary, [...b.postingStart], [...b.postingDoc], [...b.postingTf], [...b.fieldLength]]);
});

test('field lengths default to the sum of counts; averages per field', () => {
  const idx = sample();
  assert.deepEqual([...idx.fieldLength], [1, 3, 0, 4, 1, 2]);
  const avg = averageFieldLengths(idx);
  assert.ok(Math.abs(avg[0] - 2 / 3) < 1e-12);
  assert.ok(Math.abs(avg[1] - 3) < 1e-12);
});

test('one inversion: a file corpus (term ids given) and IndexBuilder (string terms) give the same index', () => {
  const vocabulary = new Vocabulary();
  // the same documents as sample(), as token lists; the shared vocabulary assigns ids in the same first-seen order
  const corpus = corpusFromTokens([
    { id: 'a', fields: [['parse'], ['parse', 'parse', 'token']] },
    { id: 'b', fields: [[], ['token', 'token', 'token', 'lexer']] },
    { id: 'c', fields: [['lexer'], ['lexer', 'parse']] },
  ], vocabulary, ['name', 'body']);
  const fromCorpus = corpusInvertedIndex(corpus);
  vocabulary.idOf('added-later');
  const fromBuilder = sample();
  assert.deepEqual(fromCorpus.vocabulary, fromBuilder.vocabulary, 'a term added to the shared vocabulary later is not in the index');
  for (const k of ['postingStart', 'postingDoc', 'postingTf', 'fieldLength'] as const) assert.deepEqual([...fromCorpus[k]], [...fromBuilder[k]], k);
  // rows in any term order within a document; tf clamped to 65535
  const direct = invertFields(['body'], ['x', 'y'], new Map([['x', 0], ['y', 1]]), [
    { start: [0, 2, 3], term: [1, 0, 1], tf: [70000, 2, 1], length: [70002, 1] },
  ]);
  assert.deepEqual([...direct.postingStart], [0, 1, 3]);
  assert.deepEqual([...direct.postingDoc], [0, 0, 1]);
  assert.deepEqual([...direct.postingTf], [2, 65535, 1]);
  assert.deepEqual([...direct.fieldLength], [70002, 1]);
});

/** Every term of `a` has the same postings in `b` (looked up by its string), and nothing more. */
function assertSameIndex(b: InvertedIndex, a: InvertedIndex) {
  assert.equal(b.termCount, a.termCount);
  assert.equal(b.docCount, a.docCount);
  assert.deepEqual([...b.fieldLength], [...a.fieldLength]);
  for (let t = 0; t < a.termCount; t++) {
    const term = a.term(t);
    const u = b.termIds.get(term);
    assert.ok(u !== undefined && b.termIds.has(term), term);
    assert.equal(b.term(u), term);
    assert.equal(b.documentFrequency(u), a.documentFrequency(t), term);
    assert.deepEqual([...b.postings(u).doc], [...a.postings(t).doc], term);
    assert.deepEqual([...b.postings(u).tf], [...a.postings(t).tf], term);
  }
}

test('index file round-trips postings, field lengths, terms, meta and aux words', () => {
  const idx = sample();
  const dir = mkdtempSync(join(scratch, 'store-'));
  const file = join(dir, 'x.bin');
  writeIndexFile(file, idx, { commit: 'abc', units: ['a', 'b', 'c'] }, Uint32Array.of(7, 2 ** 32 - 1));
  const back = readIndexFile(file, (_m): _m is { commit: string; units: string[] } => true);
  assert.ok(back);
  assert.deepEqual(back.meta, { commit: 'abc', units: ['a', 'b', 'c'] });
  assert.deepEqual([...back.aux], [7, 2 ** 32 - 1]);
  assertSameIndex(back.index, idx);
  assert.deepEqual(Array.from({ length: 3 }, (_, t) => back.index.term(t)), ['lexer', 'parse', 'token'], 'stored term ids are ranks in term order');
  assert.equal(back.index.termIds.get('absent'), undefined);
  assert.equal(back.index.termIds.has('lexe'), false);
  assert.deepEqual(readdirSync(dir), ['x.bin'], 'no temporary file is left behind');
});

test('index file round-trips large tfs, long gaps, non-ASCII terms and any field count', () => {
  for (const fields of [['path', 'name', 'body'], ['a', 'b', 'c', 'd'], ['body']]) {
    const F = fields.length;
    const b = new IndexBuilder(fields);
    for (let d = 0; d < 1000; d++) {
      const terms = (k: number) => m({
        common: 1 + ((d * (k + 1)) % 20), ['é' + (d % 7)]: k, 'z\u{1F600}': d % 300 === 0 ? 70000 : 0,
        ...(d % 500 === 3 ? { rare: 4 + k } : {}), ['ß' + (d % 3)]: 16 + k, a: k === F - 1 ? 3 : 4, [`w${d % 97}`]: 1, [`w${d % 97}x`]: 2,
      });
      b.add(fields.map((_, k) => new Map([...terms(k)].filter(([, n]) => n > 0))));
    }
    const idx = b.build();
    const file = join(mkdtempSync(join(scratch, 'store-')), 'x.bin');
    writeIndexFile(file, idx, {});
    const back = readIndexFile(file, (_m): _m is object => true);
    assert.ok(back);
    assertSameIndex(back.index, idx);
    const z = back.index.postings(back.index.termIds.get('z\u{1F600}')!);
    assert.deepEqual([...z.doc], [0, 300, 600, 900]);
    assert.equal(z.tf[F - 1], 65535, 'clamped');
    assert.ok(back.index.termCount > 200, 'many blocks of terms');
    assert.equal(back.index.termIds.get('w97'), undefined);
    assert.equal(back.index.termIds.get(''), undefined);
  }
});

test('postings that do not decode under a matching checksum throw, never give wrong documents', () => {
  const idx = sample();
  const file = join(mkdtempSync(join(scratch, 'store-')), 'x.bin');
  writeIndexFile(file, idx, {});
  // the last posting of the last term ('token': docs 0, 1): its gap byte, then its tf bytes (2 fields: varints)
  editUnderChecksums(file, (bytes, { blockAt }) => { bytes[blockAt[blockAt.length - 1] - 3] = 0x7f; });
  const back = readIndexFile(file, (_m): _m is object => true);
  assert.ok(back, 'loads: postings are checked as they are decoded');
  assert.deepEqual([...back.index.postings(back.index.termIds.get('parse')!).doc], [0, 2]);
  assert.throws(() => back.index.postings(back.index.termIds.get('token')!), /the postings of term 2 cannot be decoded/);
});

test('a stored index reads a block of terms when a lookup first needs it: a flipped bit in a block is found then, never read as terms or postings', () => {
  const b = new IndexBuilder(['name', 'body']);
  for (let d = 0; d < 200; d++) b.add([m({ [`n${d}`]: 1 }), m({ [`w${d % 50}`]: 1 + (d % 3), common: 1 })]);
  const idx = b.build();
  const file = join(mkdtempSync(join(scratch, 'store-')), 'x.bin');
  writeIndexFile(file, idx, {});
  const good = readFileSync(file);
  const { blockAt } = blocksLayout(good);
  assert.ok(blockAt.length > 10, 'many blocks');
  const lines: string[] = [];
  const prev = setCacheWarningSink((l) => lines.push(l));
  try {
    // the block holding 'n150' (terms in byte order: common, n0, n1, n10, n100 …)
    const back0 = readIndexFile(file, (_m): _m is object => true)!;
    const id = back0.index.termIds.get('n150')!;
    back0.close();
    const block = Math.floor(id / 16);
    const bad = Buffer.from(good);
    bad[blockAt[block] + 2] ^= 0x04;
    writeFileSync(file, bad);
    const back = readIndexFile(file, (_m): _m is object => true);
    assert.ok(back, 'opens: the blocks are not read at open');
    assert.deepEqual(lines, []);
    assert.deepEqual([...back.index.postings(back.index.termIds.get('common')!).doc], Array.from({ length: 200 }, (_, d) => d), 'another block reads as written');
    assert.throws(() => back.index.termIds.get('n150'), CorruptCacheFileError);
    assert.deepEqual(lines, [`issueloc: warning: corrupt cache file ${file}: rebuilt\n`]);
    assert.throws(() => back.index.postings(id), CorruptCacheFileError, 'and every read after it');
    assert.equal(lines.length, 1, 'one warning');
  } finally {
    setCacheWarningSink(prev);
  }
});

test('a file that is not an index is refused with a warning naming it', () => {
  const dir = mkdtempSync(join(scratch, 'store-'));
  const file = join(dir, 'junk.bin');
  writeFileSync(file, 'hello world, not an index');
  const lines: string[] = [];
  const prev = setCacheWarningSink((l) => lines.push(l));
  try {
    assert.equal(readIndexFile(file, (_m): _m is unknown => true), undefined);
  } finally {
    setCacheWarningSink(prev);
  }
  assert.deepEqual(lines, [`issueloc: warning: corrupt cache file ${file}: rebuilt\n`]);
});
