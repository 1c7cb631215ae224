import { isUtf8 } from 'node:buffer';

/** How many leading bytes {@link isBinary} inspects: git's own heuristic (xdiff `buffer_is_binary`). */
export const BINARY_SNIFF_BYTES = 8000;

/**
 * windows-1252 characters of bytes 0x80–0x9F (WHATWG Encoding, index-windows-1252); the five
 * unassigned bytes keep their C1 code point. Written out because Node 20's TextDecoder decodes
 * `windows-1252` as plain ISO-8859-1.
 */
const CP1252_C1 = '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F'
  + '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/** Decodes bytes as windows-1252: every byte maps to one character, so this never fails. */
export function decodeWindows1252(buf: Uint8Array): string {
  const latin1 = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]);
}

/** The byte order a UTF-16 byte-order mark at the start of `buf` gives, if there is one. */
function utf16Order(buf: Uint8Array): 'le' | 'be' | undefined {
  if (buf.length < 2) return undefined;
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'le';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'be';
  return undefined;
}

/** Text of UTF-16 bytes after their byte-order mark (a last odd byte is dropped). */
function decodeUtf16(buf: Uint8Array, order: 'le' | 'be'): string {
  const body = Buffer.from(buf.buffer, buf.byteOffset + 2, (buf.byteLength - 2) & ~1);
  return (order === 'le' ? body : Buffer.from(body).swap16()).toString('utf16le');
}

/** How {@link decodeSource} reads a file's bytes. */
export type SourceEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/**
 * The encoding {@link decodeSource} reads `buf` in: UTF-16 when it starts with a UTF-16
 * byte-order mark (FF FE little-endian, FE FF big-endian), else UTF-8 when the bytes are valid
 * UTF-8, else windows-1252.
 */
export function sourceEncoding(buf: Uint8Array): SourceEncoding {
  const order = utf16Order(buf);
  if (order) return order === 'le' ? 'utf-16le' : 'utf-16be';
  return isUtf8(buf) ? 'utf-8' : 'windows-1252';
}

/**
 * Whether a file's bytes look binary: a NUL byte among the first 8000 bytes, as git decides
 * (git `buffer_is_binary`, also GNU grep's rule). Text with a UTF-16 byte-order mark is judged on
 * its characters instead: binary when a NUL character is among the first 4000 (so UTF-32, whose
 * mark FF FE 00 00 starts like UTF-16's, stays binary); UTF-16 without a mark counts as binary.
 */
export function isBinary(buf: Uint8Array): boolean {
  const order = utf16Order(buf);
  if (order) return decodeUtf16(buf.subarray(0, 2 + BINARY_SNIFF_BYTES), order).includes('\0');
  const n = Math.min(buf.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

function hasUtf8Bom(buf: Uint8Array): boolean {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

/**
 * Source text of a file's bytes; never throws.
 *
 * - bytes starting with a UTF-16 byte-order mark are decoded as UTF-16 (little- or big-endian,
 *   as the mark says; a last odd byte is dropped);
 * - valid UTF-8 is decoded as such; anything else is read as windows-1252 (the WHATWG
 *   `latin1` label: every byte maps to a character, so no input fails);
 * - a leading byte-order mark is dropped;
 * - line ends CRLF become LF; a lone CR stays inside its line, as git counts lines (its line
 *   numbers are the ones in forge links, diffs and `git grep -n`; see {@link sourceLines}).
 */
export function decodeSource(buf: Uint8Array): string {
  let text: string;
  const encoding = sourceEncoding(buf);
  if (encoding === 'utf-8') text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8');
  else if (encoding === 'windows-1252') text = decodeWindows1252(hasUtf8Bom(buf) ? buf.subarray(3) : buf);
  else text = decodeUtf16(buf, encoding === 'utf-16le' ? 'le' : 'be');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\r\n')) text = text.replace(/\r\n/g, '\n');
  return text;
}

/**
 * The lines of source text as git numbers them: split at LF (a CRLF is one line end), never at a
 * lone CR, which stays inside its line. Every line number issueloc gives (units, previews, MCP and
 * web answers, forge links, gold functions) counts lines this way; tree-sitter's rows do too.
 */
export function sourceLines(text: string): string[] {
  return text.split(/\r?\n/);
}
