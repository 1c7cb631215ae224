import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha1Hex } from '../../src/util/sha1.js';

test('sha1Hex: the FIPS 180 test vectors', () => {
  assert.equal(sha1Hex(''), 'da39a3ee5e6b4b0d3255bfef95601890afd80709');
  assert.equal(sha1Hex('abc'), 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.equal(sha1Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'), '84983e441c3bd26ebaae4aa1f95129e5e54670f1');
  assert.equal(sha1Hex('a'.repeat(1_000_000)), '34aa973cd4c4daa4f61eeb2bdbad27316534016f');
});

test('sha1Hex: the digest node:crypto gives, at every length around the block boundaries and for non-ASCII text', () => {
  let text = '';
  for (let n = 0; n <= 200; n++) {
    assert.equal(sha1Hex(text), createHash('sha1').update(text).digest('hex'), `length ${n}`);
    text += String.fromCharCode(97 + (n * 7) % 26);
  }
  for (const s of ['/home/ü/repo', '日本語のパス', '["v14","abc",["python"]]\u0000😀']) {
    assert.equal(sha1Hex(s), createHash('sha1').update(s).digest('hex'), s);
  }
  const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 31) & 0xff);
  assert.equal(sha1Hex(bytes), createHash('sha1').update(bytes).digest('hex'));
});
