/**
 * The one integrity layer of every cache file: a file is its payload followed by a 28-byte
 * trailer
 *
 *   tag (8 bytes, ASCII, the kind and format version of the payload, e.g. `index.v6`)
 *   · payload length (uint64 LE) · CRC-32 of payload + tag + length (uint32 LE) · magic `ILCHECK1`
 *
 * written atomically ({@link writeFileAtomic}). A read verifies length, tag and checksum, then the
 * caller's structure check: a file failing any of them is corrupt, never used; the caller rebuilds
 * it and one warning line is given (`issueloc: warning: corrupt cache file <path>: rebuilt`).
 * A missing file is a plain miss, without a warning. A file read whole and valid is marked used
 * (its mtime set to now: the least-recently-used order of src/index/cache-usage.ts).
 */
import { closeSync, openSync, readFileSync, readSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { bufferOf, writeFileAtomic } from './atomic-write.js';

const MAGIC = Buffer.from('ILCHECK1', 'latin1');
const TRAILER = 8 + 8 + 4 + 8;
/** Corrupt-file warnings given per process before further ones are summed up in one line. */
const MAX_WARNINGS = 10;

let warnings = 0;
let sink: (line: string) => void = (line) => process.stderr.write(line);

/** Redirects the warning lines (each ends with a newline); returns the previous sink. Tests use it. */
export function setCacheWarningSink(next: (line: string) => void): (line: string) => void {
  const prev = sink;
  sink = next;
  warnings = 0;
  return prev;
}

/**
 * Gives the one warning line of a corrupt cache file (at most {@link MAX_WARNINGS}, then one
 * summary line) and removes the file, so that it is rebuilt and never read again, even by a
 * caller that finds it needs nothing rebuilt (a read-only cache keeps it: the next run warns again).
 */
export function warnCorruptCacheFile(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch { /* a read-only cache: nothing more to do */ }
  warnings++;
  if (warnings <= MAX_WARNINGS) sink(`issueloc: warning: corrupt cache file ${path}: rebuilt\n`);
  else if (warnings === MAX_WARNINGS + 1) sink('issueloc: warning: more corrupt cache files: rebuilt (no further warnings)\n');
}

/** CRC-32 continued over `b` (Node 20's zlib.crc32 gives 0 for an empty view of an empty ArrayBuffer, whatever the start). */
const crcOver = (b: Buffer, crc: number) => (b.length === 0 ? crc : crc32(b, crc));

function tagBytes(tag: string): Buffer {
  if (!/^[\x20-\x7e]{1,8}$/.test(tag)) throw new Error(`checked-file tag must be 1-8 ASCII characters: ${tag}`);
  return Buffer.from(tag.padEnd(8, ' '), 'latin1');
}

/**
 * Writes `parts` (strings as UTF-8, or byte / typed arrays, in order) and the trailer of `tag`
 * to `path` atomically.
 * @param tag 1-8 ASCII characters naming the kind and format version; a read with another tag
 *   rejects the file.
 * @returns the bytes written (payload and trailer).
 * @throws the underlying fs error (ENOENT, EACCES, ENOSPC …); the target is left as it was.
 */
export function writeCheckedFile(path: string, tag: string, parts: ReadonlyArray<string | ArrayBufferView>, opts: { fsync?: boolean } = {}): number {
  const bufs = parts.map(bufferOf);
  const trailer = checkedTrailer(tag, bufs);
  writeFileAtomic(path, [...bufs, trailer], opts);
  return bufs.reduce((n, b) => n + b.length, 0) + TRAILER;
}

/** The trailer of {@link writeCheckedFile} for the payload `bufs` (in order) and `tag`. */
export function checkedTrailer(tag: string, bufs: readonly Buffer[]): Buffer {
  let length = 0;
  let crc = 0;
  for (const b of bufs) {
    length += b.length;
    crc = crcOver(b, crc);
  }
  const trailer = Buffer.alloc(TRAILER);
  tagBytes(tag).copy(trailer, 0);
  trailer.writeBigUInt64LE(BigInt(length), 8);
  crc = crcOver(trailer.subarray(0, 16), crc);
  trailer.writeUInt32LE(crc, 16);
  MAGIC.copy(trailer, 20);
  return trailer;
}

/**
 * The verified payload of a file written by {@link writeCheckedFile} with `tag`: a view of the
 * bytes read (`byteOffset` may be any value). `undefined` when the file does not exist or cannot
 * be read; `null` when it is corrupt (too short, no trailer, another tag, wrong length or checksum).
 */
export function readCheckedPayload(path: string, tag: string): Buffer | null | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return undefined; // missing (or removed by a prune meanwhile), or unreadable: a miss
  }
  return checkedPayload(buf, tag);
}

/** The verified payload of the bytes `buf` of a checked file of `tag` ({@link readCheckedPayload}); `null` when corrupt. */
export function checkedPayload(buf: Buffer, tag: string): Buffer | null {
  if (buf.length < TRAILER) return null;
  const t = buf.length - TRAILER;
  if (!buf.subarray(t + 20).equals(MAGIC) || !buf.subarray(t, t + 8).equals(tagBytes(tag))) return null;
  if (buf.readBigUInt64LE(t + 8) !== BigInt(t)) return null;
  const crc = crcOver(buf.subarray(t, t + 16), crcOver(buf.subarray(0, t), 0));
  if (crc !== buf.readUInt32LE(t + 16)) return null;
  return buf.subarray(0, t);
}

/**
 * Whether `path` (a regular file of `size` bytes) ends with the trailer of {@link writeCheckedFile}:
 * the magic and a payload length that matches its size. Reads its last 28 bytes only (no checksum):
 * enough to tell a file issueloc wrote from a user's, not to trust its payload.
 */
export function hasCheckedTrailer(path: string, size: number): boolean {
  if (size < TRAILER) return false;
  const buf = Buffer.alloc(TRAILER);
  let fd = -1;
  try {
    fd = openSync(path, 'r');
    if (readSync(fd, buf, 0, TRAILER, size - TRAILER) !== TRAILER) return false;
  } catch {
    return false;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
  return buf.subarray(20).equals(MAGIC) && buf.readBigUInt64LE(8) === BigInt(size - TRAILER);
}

/**
 * Reads, verifies and decodes a checked file in one step: `decode` turns the verified payload
 * into a value and throws (any error) when its structure is not what the caller wrote.
 * @returns the value (`decode` must not return undefined); `undefined` for a missing file (no
 *   warning) and for a corrupt one (checksum or structure; one warning line naming the file, see
 *   {@link warnCorruptCacheFile}).
 */
export function readCheckedFile<T>(path: string, tag: string, decode: (payload: Buffer) => T): T | undefined {
  const payload = readCheckedPayload(path, tag);
  if (payload === undefined) return undefined;
  if (payload !== null) {
    let value: T | undefined;
    try {
      value = decode(payload);
    } catch {
      // fall through: a matching checksum over a wrong structure is corrupt too
    }
    if (value !== undefined) {
      markUsed(path);
      return value;
    }
  }
  warnCorruptCacheFile(path);
  return undefined;
}

/** Sets the mtime of `path` to now (its last use); a read-only cache keeps no order of use. */
export function markUsed(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch { /* read-only */ }
}

/** {@link readCheckedFile} of a JSON payload, checked by `valid` (a type guard). */
export function readCheckedJson<T>(path: string, tag: string, valid: (x: unknown) => x is T): T | undefined {
  return readCheckedFile(path, tag, (payload) => {
    const x: unknown = JSON.parse(payload.toString('utf8'));
    if (!valid(x)) throw new Error('unexpected structure');
    return x;
  });
}

/** {@link writeCheckedFile} of `value` as JSON; returns the bytes written. */
export function writeCheckedJson(path: string, tag: string, value: unknown, opts: { fsync?: boolean } = {}): number {
  return writeCheckedFile(path, tag, [JSON.stringify(value)], opts);
}

/** Shape checks for the `valid` guards of cache readers. */
export const isInt = (x: unknown, min = 0): x is number => Number.isInteger(x) && (x as number) >= min;
export const isIntArray = (x: unknown, below = Infinity): x is number[] =>
  Array.isArray(x) && x.every((v) => Number.isInteger(v) && v >= 0 && v < below);
export const isStringArray = (x: unknown): x is string[] => Array.isArray(x) && x.every((v) => typeof v === 'string');
export const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A content-addressed cache of checked JSON entries (as {@link writeCheckedJson}): one small file
 * per key at `<dir>/<first two characters>/<rest>.json`, holding `{ key, [field]: value }`. The
 * key is inside the checksum, so an entry copied under another key's name is refused, as is one
 * whose value fails `isValue`: a miss, with one warning line, rewritten by its next `set`.
 * Writes are atomic and not synced (a cache: a lost entry is parsed again).
 */
export class KeyedJsonCache<T> {
  hits = 0;
  misses = 0;
  /** Bytes of the entries written by {@link set} (payloads and trailers). */
  bytesWritten = 0;

  /**
   * @param tag the entries' tag (bump it when the value's shape changes)
   * @param field the payload's name of the value (`units`, `facts`: part of the file format)
   */
  constructor(readonly dir: string, private readonly tag: string, private readonly field: string, private readonly isValue: (x: unknown) => x is T) {}

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key.slice(2)}.json`);
  }

  /** The cached value of `key`, or undefined. */
  get(key: string): T | undefined {
    return this.getDecoded(key, () => undefined, (value) => value);
  }

  /**
   * The cached value of `key` as `decode` reads it from the verified payload; when `decode`
   * cannot (undefined), the payload is parsed as JSON, checked as {@link get} checks it and
   * turned by `convert`. A `decode` must give what `convert` gives for the same payload.
   */
  protected getDecoded<R>(key: string, decode: (payload: Buffer) => R | undefined, convert: (value: T) => R): R | undefined {
    const got = readCheckedFile(this.file(key), this.tag, (payload) => {
      const read = decode(payload);
      if (read !== undefined) return read;
      const x: unknown = JSON.parse(payload.toString('utf8'));
      if (!isRecord(x) || x.key !== key || !this.isValue(x[this.field])) throw new Error('unexpected structure');
      return convert(x[this.field] as T);
    });
    if (got !== undefined) this.hits++;
    else this.misses++;
    return got;
  }

  /** Stores the value of `key`; a write error is returned, not thrown (the cache is an optimisation). */
  set(key: string, value: T): Error | undefined {
    return this.setPayload(key, JSON.stringify({ key, [this.field]: value }));
  }

  /**
   * Stores the payload of `key`: the JSON of `{ key, [field]: value }` ({@link set}), as a string
   * or its UTF-8 bytes; a write error is returned, not thrown.
   */
  protected setPayload(key: string, json: string | Uint8Array): Error | undefined {
    try {
      this.bytesWritten += writeCheckedFile(this.file(key), this.tag, [json], { fsync: false });
      return undefined;
    } catch (e) {
      return e as Error;
    }
  }
}
