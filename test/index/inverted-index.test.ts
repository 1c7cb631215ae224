import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { averageFieldLengths, documentFrequency, IndexBuilder, invertFields } from '../../src/index/inverted-index.js';
import { corpusInvertedIndex } from '../../src/retrieve/file-retrievers/bm25f.js';
import { corpusFromTokens, Vocabulary } from '../../src/retrieve/file-retrievers/corpus.js';
import { readIndexFile, writeIndexFile } from '../../src/index/store.js';
import { setCacheWarningSink } from '../../src/util/checked-file.js';
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
  assert.equal(documentFrequency(idx, idx.termIds.get('lexer')!), 2);
  assert.equal(documentFrequency(idx, idx.termIds.get('token')!), 2);
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

test('index file round-trips arrays, vocabulary and meta', () => {
  const idx = sample();
  const dir = mkdtempSync(join(scratch, 'store-'));
  const file = join(dir, 'x.bin');
  writeIndexFile(file, idx, { commit: 'abc', units: ['a', 'b', 'c'] });
  const back = readIndexFile(file, (_m): _m is { commit: string; units: string[] } => true);
  assert.ok(back);
  assert.deepEqual(back.meta, { commit: 'abc', units: ['a', 'b', 'c'] });
  assert.deepEqual([...back.index.postingDoc], [...idx.postingDoc]);
  assert.deepEqual([...back.index.postingTf], [...idx.postingTf]);
  assert.deepEqual([...back.index.fieldLength], [...idx.fieldLength]);
  assert.deepEqual(back.index.vocabulary, idx.vocabulary);
  assert.equal(back.index.termIds.get('lexer'), idx.termIds.get('lexer'));
  assert.deepEqual(readdirSync(dir), ['x.bin'], 'no temporary file is left behind');
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
