import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSource, isBinary, sourceEncoding } from '../../src/corpus/decode.js';

test('isBinary: a NUL byte within the first 8000 bytes', () => {
  assert.equal(isBinary(Buffer.from('plain text\n')), false);
  assert.equal(isBinary(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01])), true);
  const late = Buffer.alloc(9000, 0x61);
  late[8500] = 0;
  assert.equal(isBinary(late), false, 'a NUL after byte 8000 is not looked at');
  late[7999] = 0;
  assert.equal(isBinary(late), true);
  assert.equal(isBinary(Buffer.from('ab', 'utf16le')), true, 'UTF-16 without a byte-order mark counts as binary');
});

test('decodeSource: UTF-8, BOM dropped, CRLF made LF, a lone CR kept inside its line (git\'s lines)', () => {
  assert.equal(decodeSource(Buffer.from('\uFEFFdef f():\r\n    return "é"\r\n')), 'def f():\n    return "é"\n');
  assert.equal(decodeSource(Buffer.from('a\rb\r\nc\n')), 'a\rb\nc\n');
  assert.equal(decodeSource(Buffer.alloc(0)), '');
});

test('decodeSource: invalid UTF-8 falls back to windows-1252 and never throws', () => {
  const latin1 = Buffer.from([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a, 0x80, 0x0a]); // "# café\n€\n"
  assert.equal(sourceEncoding(latin1), 'windows-1252');
  assert.equal(decodeSource(latin1), '# café\n€\n');
  const bomThenLatin1 = Buffer.from([0xef, 0xbb, 0xbf, 0x78, 0xe9]);
  assert.equal(decodeSource(bomThenLatin1), 'xé');
  const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  assert.equal(typeof decodeSource(everyByte), 'string');
});

/** `text` as UTF-16 with its byte-order mark. */
function utf16(text: string, order: 'le' | 'be'): Buffer {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return order === 'le' ? le : Buffer.from(le).swap16();
}

test('UTF-16 with a byte-order mark (little- and big-endian) is text, decoded, CRLF made LF', () => {
  const src = 'def café(x):\r\n    return "€ 😀"\r\n';
  for (const order of ['le', 'be'] as const) {
    const buf = utf16(src, order);
    assert.equal(buf[0], order === 'le' ? 0xff : 0xfe);
    assert.equal(isBinary(buf), false, order);
    assert.equal(sourceEncoding(buf), `utf-16${order}`);
    assert.equal(decodeSource(buf), 'def café(x):\n    return "€ 😀"\n', order);
    assert.equal(decodeSource(Buffer.concat([buf, Buffer.from([0x41])])), 'def café(x):\n    return "€ 😀"\n', 'a last odd byte is dropped');
  }
  assert.equal(decodeSource(Buffer.from([0xff, 0xfe])), '');
  assert.equal(sourceEncoding(Buffer.from('plain')), 'utf-8');
});

test('a UTF-16 mark does not make binary bytes text: a NUL character in the first 4000, or UTF-32', () => {
  assert.equal(isBinary(utf16('a\0b', 'le')), true);
  assert.equal(isBinary(utf16('a\0b', 'be')), true);
  const utf32 = Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00]);
  assert.equal(isBinary(utf32), true);
  assert.equal(isBinary(utf16(`${'x'.repeat(4500)}\0`, 'le')), false, 'a NUL after character 4000 is not looked at');
});
