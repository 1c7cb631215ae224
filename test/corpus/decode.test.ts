import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSource, isBinary, isUtf8Source } from '../../src/corpus/decode.js';

test('isBinary: a NUL byte within the first 8000 bytes', () => {
  assert.equal(isBinary(Buffer.from('plain text\n')), false);
  assert.equal(isBinary(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01])), true);
  const late = Buffer.alloc(9000, 0x61);
  late[8500] = 0;
  assert.equal(isBinary(late), false, 'a NUL after byte 8000 is not looked at');
  late[7999] = 0;
  assert.equal(isBinary(late), true);
  assert.equal(isBinary(Buffer.from('a\0b', 'utf16le')), true, 'UTF-16 counts as binary');
});

test('decodeSource: UTF-8, BOM dropped, CRLF and CR made LF', () => {
  assert.equal(decodeSource(Buffer.from('\uFEFFdef f():\r\n    return "é"\r\n')), 'def f():\n    return "é"\n');
  assert.equal(decodeSource(Buffer.from('a\rb\r\nc\n')), 'a\nb\nc\n');
  assert.equal(decodeSource(Buffer.alloc(0)), '');
});

test('decodeSource: invalid UTF-8 falls back to windows-1252 and never throws', () => {
  const latin1 = Buffer.from([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a, 0x80, 0x0a]); // "# café\n€\n"
  assert.equal(isUtf8Source(latin1), false);
  assert.equal(decodeSource(latin1), '# café\n€\n');
  const bomThenLatin1 = Buffer.from([0xef, 0xbb, 0xbf, 0x78, 0xe9]);
  assert.equal(decodeSource(bomThenLatin1), 'xé');
  const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  assert.equal(typeof decodeSource(everyByte), 'string');
});
