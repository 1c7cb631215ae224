// A commit-message index as the history cache file stores it: the same similar documents and
// scores as the index it was written from, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CosineIndex } from '../../src/history/similarity.js';
import { encodeMessages, StoredMessages } from '../../src/history/stored-messages.js';

/** A small deterministic generator (the test needs no randomness from run to run). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

test('stored message index: the similar documents and their scores of the built index, exactly (unicode terms, repeated tokens, long gaps)', () => {
  const rnd = lcg(7);
  const vocabulary = ['crash', 'parser', 'Ünïcode', 'naïve', '日本', 'z', 'zz', 'a', 'é', 'option', 'render', 'colour', ...Array.from({ length: 300 }, (_, i) => `w${i}`)];
  // rare terms far apart (gaps of several varint bytes), frequent terms in most documents, tf up to 40
  const docs = Array.from({ length: 3000 }, (_, d) => {
    const tokens: string[] = [];
    const n = 1 + Math.floor(rnd() * 12);
    for (let k = 0; k < n; k++) tokens.push(vocabulary[Math.floor(rnd() ** 3 * vocabulary.length)]);
    if (d % 997 === 0) for (let k = 0; k < 40; k++) tokens.push('rare');
    return tokens;
  });
  const built = new CosineIndex(docs);
  const tables = built.tables();
  const stored = new CosineIndex(new StoredMessages(encodeMessages(tables), tables.norms));
  const queries = [['crash', 'parser', 'crash'], ['Ünïcode', '日本', 'unknown'], ['rare', 'z'], ['w1', 'w2', 'w250', 'option', 'a'], ['nothing']];
  const allowed = Uint8Array.from(docs, (_, d) => (d % 3 === 0 ? 0 : 1));
  for (const q of queries) {
    for (const opts of [{}, { allowed }, { maxDf: 100 }]) {
      const want = built.similar(q, 50, opts);
      assert.deepEqual(stored.similar(q, 50, opts), want, q.join(' '));
      if (q[0] !== 'nothing' && !('maxDf' in opts)) assert.ok(want.length > 0, 'the query matches something');
    }
  }
});

test('stored message index: sections that do not fit together are refused when read, a term\'s offsets and postings that do not decode when first used', () => {
  const built = new CosineIndex([['a', 'b'], ['b', 'c', 'c']]);
  const tables = built.tables();
  const s = encodeMessages(tables);
  assert.throws(() => new StoredMessages({ ...s, termStart: s.termStart.subarray(0, 2) }, tables.norms));
  const short = Int32Array.from(s.postByte);
  short[short.length - 1]--;
  assert.throws(() => new StoredMessages({ ...s, postByte: short }, tables.norms), 'the offsets end before their section');
  const bad = Int32Array.from(s.postByte);
  bad[1] = bad[2] + 1;
  assert.throws(() => new StoredMessages({ ...s, postByte: bad }, tables.norms).postings(1), /cannot be decoded/);
  const badTerms = Int32Array.from(s.termStart);
  badTerms[1] = badTerms[2] + 1;
  assert.throws(() => new StoredMessages({ ...s, termStart: badTerms }, tables.norms).termId('b'), /terms cannot be read/);
  const bytes = Uint8Array.from(s.postingBytes);
  bytes[s.postByte[1]] = 0x7e; // a gap past the last document
  const stored = new StoredMessages({ ...s, postingBytes: bytes }, tables.norms);
  assert.throws(() => stored.postings(1), /cannot be decoded/);
});
