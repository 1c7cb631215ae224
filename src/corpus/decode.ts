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

/**
 * Whether a file's bytes look binary: a NUL byte among the first 8000 bytes, as git decides
 * (git `buffer_is_binary`, also GNU grep's rule). UTF-16 text counts as binary (it has NULs).
 */
export function isBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

/** Whether the bytes are valid UTF-8; when false, {@link decodeSource} reads them as windows-1252. */
export function isUtf8Source(buf: Uint8Array): boolean {
  return isUtf8(buf);
}

function hasUtf8Bom(buf: Uint8Array): boolean {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

/**
 * Source text of a file's bytes; never throws.
 *
 * - valid UTF-8 is decoded as such; anything else is read as windows-1252 (the WHATWG
 *   `latin1` label: every byte maps to a character, so no input fails);
 * - a leading UTF-8 byte-order mark is dropped;
 * - line ends CRLF and lone CR become LF, so line numbers match git's and Python's `ast`.
 */
export function decodeSource(buf: Uint8Array): string {
  let text: string;
  if (isUtf8(buf)) text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8');
  else text = decodeWindows1252(hasUtf8Bom(buf) ? buf.subarray(3) : buf);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  return text;
}
