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
 *
 * A file read in part (the code index: its postings are read when a query needs them) is a file of
 * checked blocks ({@link writeCheckedBlocks}, {@link openCheckedBlocks}): the same trailer with the
 * magic `ILCHECKB`, whose CRC covers a head read whole at open and a table of one CRC-32 per
 * block; each block is read by a positional read and verified on its first read. A corrupt
 * block is found then, not at open: it gives the same one warning and throws
 * {@link CorruptCacheFileError}, which the user of the file answers by rebuilding it.
 */
import { closeSync, fstatSync, futimesSync, openSync, readFileSync, readSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { bufferOf, writeFileAtomic } from './atomic-write.js';

const MAGIC = Buffer.from('ILCHECK1', 'latin1');
/** Magic of a file of checked blocks ({@link writeCheckedBlocks}). */
const BLOCKS_MAGIC = Buffer.from('ILCHECKB', 'latin1');
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
 * @param remove false when `path` no longer names the corrupt file (another process replaced it).
 */
export function warnCorruptCacheFile(path: string, remove = true): void {
  try {
    if (remove) rmSync(path, { force: true });
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
  return trailerOf(tag, bufs, bufs.reduce((n, b) => n + b.length, 0), MAGIC);
}

/** A trailer with `magic` whose CRC covers `bufs` (in order), then its tag and payload `length`. */
function trailerOf(tag: string, bufs: readonly Buffer[], length: number, magic: Buffer): Buffer {
  let crc = 0;
  for (const b of bufs) crc = crcOver(b, crc);
  const trailer = Buffer.alloc(TRAILER);
  tagBytes(tag).copy(trailer, 0);
  trailer.writeBigUInt64LE(BigInt(length), 8);
  crc = crcOver(trailer.subarray(0, 16), crc);
  trailer.writeUInt32LE(crc, 16);
  magic.copy(trailer, 20);
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
 * Whether `path` (a regular file of `size` bytes) ends with the trailer of {@link writeCheckedFile}
 * (or of {@link writeCheckedBlocks}):
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
  const magic = buf.subarray(20);
  return (magic.equals(MAGIC) || magic.equals(BLOCKS_MAGIC)) && buf.readBigUInt64LE(8) === BigInt(size - TRAILER);
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

/**
 * A corrupt block of a file of checked blocks, found on its first read ({@link CheckedBlocks.read}):
 * the warning line is given and the file removed already; the user of the file drops what it
 * read from it and rebuilds it.
 */
export class CorruptCacheFileError extends Error {
  constructor(readonly path: string) {
    super(`corrupt cache file ${path}`);
    this.name = 'CorruptCacheFileError';
  }
}

/** Bytes of the footer of a file of checked blocks: head length and block count (uint32 LE each). */
const FOOTER = 8;
const align4 = (n: number) => n + ((4 - (n % 4)) % 4);

/**
 * Writes a file of checked blocks to `path` atomically: `head` (parts as {@link writeCheckedFile}),
 * read whole at open, and N blocks, `body[start[b] … start[b + 1])`, each read on its own when
 * needed. Layout (little-endian):
 *
 *   head (H bytes) · padding to a multiple of 4 · block table: N + 1 offsets of the blocks in the
 *   body, then N CRC-32s (uint32 each) · body · H · N (uint32 each) · trailer (tag · payload
 *   length · CRC-32 of everything before the body, H, N, tag and length · magic `ILCHECKB`)
 *
 * @param start N + 1 ascending offsets into `body`, from 0 to its length (N ≥ 0).
 * @returns the bytes written.
 * @throws an Error for offsets that do not cut `body` or a body of 4 GiB or more; the underlying
 *   fs error (the target is left as it was).
 */
export function writeCheckedBlocks(
  path: string, tag: string, head: ReadonlyArray<string | ArrayBufferView>, body: Uint8Array, start: ArrayLike<number>, opts: { fsync?: boolean } = {},
): number {
  const N = start.length - 1;
  const table = new Uint32Array(2 * N + 1);
  for (let b = 0; b <= N; b++) table[b] = start[b];
  if (N < 0 || body.length > 0xffffffff || table[0] !== 0 || table[N] !== body.length || table.some((o, b) => b > 0 && b <= N && o < table[b - 1])) {
    throw new Error(`checked blocks: the offsets must cut the body (${body.length} bytes) from 0 to its end`);
  }
  const bodyBuf = bufferOf(body);
  for (let b = 0; b < N; b++) table[N + 1 + b] = crcOver(bodyBuf.subarray(table[b], table[b + 1]), 0);
  const heads = head.map(bufferOf);
  const H = heads.reduce((n, b) => n + b.length, 0);
  const footer = Buffer.alloc(FOOTER);
  footer.writeUInt32LE(H, 0);
  footer.writeUInt32LE(N, 4);
  const front = [...heads, Buffer.alloc(align4(H) - H), bufferOf(table)];
  const length = align4(H) + table.byteLength + body.length + FOOTER;
  const trailer = trailerOf(tag, [...front, footer], length, BLOCKS_MAGIC);
  writeFileAtomic(path, [...front, bodyBuf, footer, trailer], opts);
  return length + TRAILER;
}

/** Closes the files of the {@link CheckedBlocks} collected without {@link CheckedBlocks.close}. */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch { /* closed already */ }
});

/**
 * `n` bytes of `fd` from `position`; null when fewer are there. `own`: in an ArrayBuffer of their
 * own, at offset 0 (for typed-array views); else in a new Buffer, small ones from Node's pool
 * (a block read costs ≈ 10 µs CPU here, a new ArrayBuffer ≈ 7 µs more).
 */
function readAt(fd: number, n: number, position: number, own = false): Buffer | null {
  const buf = own ? Buffer.allocUnsafeSlow(n) : Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, got, n - got, position + got);
    if (k === 0) return null;
    got += k;
  }
  return buf;
}

/**
 * The blocks of a file of checked blocks ({@link openCheckedBlocks}): each read by a positional
 * read of the file, opened once, and verified against its CRC-32 when read. The file stays open
 * until {@link close} or until this object is collected; a file replaced or removed meanwhile is
 * still read as it was opened.
 */
export class CheckedBlocks {
  private corrupt = false;

  /**
   * @param table N + 1 block offsets in the body, then N CRC-32s (verified by the head's CRC).
   * @param bodyAt the body's offset in the file.
   */
  constructor(readonly path: string, private fd: number, private readonly table: Uint32Array, readonly count: number, private readonly bodyAt: number) {
    closer.register(this, fd, this);
  }

  /** Bytes of block `b`. */
  size(b: number): number {
    return this.table[b + 1] - this.table[b];
  }

  /**
   * Block `b` (0 ≤ b < {@link count}), read now and verified: a new Buffer.
   * @throws CorruptCacheFileError when it does not match its CRC-32, cannot be read whole or ends
   *   before it starts (the table's offsets are checked per block, when read, not at open): the
   *   one warning line names the file, which is removed (unless another file took its name
   *   meanwhile), and every later read throws it too. An Error after {@link close}.
   */
  read(b: number): Buffer {
    if (!(b >= 0 && b < this.count)) throw new RangeError(`block ${b} of ${this.count}`);
    if (!this.corrupt) {
      if (this.fd < 0) throw new Error(`${this.path}: read after close`);
      let buf: Buffer | null = null;
      try {
        if (this.size(b) >= 0) buf = readAt(this.fd, this.size(b), this.bodyAt + this.table[b]);
      } catch { /* EIO and the like: the block cannot be had */ }
      if (buf && crcOver(buf, 0) === this.table[this.count + 1 + b]) return buf;
      this.fail();
    }
    throw new CorruptCacheFileError(this.path);
  }

  /** Marks the file corrupt: the warning, the file removed when its path still names it, closed. */
  private fail(): void {
    this.corrupt = true;
    let same = false;
    try {
      const open = fstatSync(this.fd), named = statSync(this.path);
      same = open.ino === named.ino && open.dev === named.dev;
    } catch { /* removed already */ }
    warnCorruptCacheFile(this.path, same);
    this.close();
  }

  /** Closes the file (later reads throw). */
  close(): void {
    if (this.fd < 0) return;
    closer.unregister(this);
    try {
      closeSync(this.fd);
    } catch { /* closed already */ }
    this.fd = -1;
  }
}

/** The verified head and the blocks of the file of checked blocks open as `fd`; null when corrupt. */
function openBlocks(path: string, fd: number, tag: string): { head: Buffer; blocks: CheckedBlocks } | null {
  const size = fstatSync(fd).size;
  if (size < FOOTER + TRAILER) return null;
  const tail = readAt(fd, FOOTER + TRAILER, size - FOOTER - TRAILER);
  if (!tail || !tail.subarray(FOOTER + 20).equals(BLOCKS_MAGIC) || !tail.subarray(FOOTER, FOOTER + 8).equals(tagBytes(tag))) return null;
  if (tail.readBigUInt64LE(FOOTER + 8) !== BigInt(size - TRAILER)) return null;
  const H = tail.readUInt32LE(0), N = tail.readUInt32LE(4);
  const bodyAt = align4(H) + 4 * (2 * N + 1);
  if (bodyAt > size - FOOTER - TRAILER) return null;
  const front = readAt(fd, bodyAt, 0, true);
  if (!front || crcOver(tail.subarray(0, FOOTER + 16), crcOver(front, 0)) !== tail.readUInt32LE(FOOTER + 16)) return null;
  // a block ending before it starts (only a writer's bug, under a matching CRC) is corrupt when read
  const table = new Uint32Array(front.buffer, align4(H), 2 * N + 1);
  if (table[0] !== 0 || table[N] !== size - FOOTER - TRAILER - bodyAt) return null;
  return { head: front.subarray(0, H), blocks: new CheckedBlocks(path, fd, table, N, bodyAt) };
}

/**
 * Opens a file of checked blocks written by {@link writeCheckedBlocks} with `tag`: reads its
 * trailer, head and block table (no block), verifies them, then `decode` turns the head (a view
 * at offset 0 of an ArrayBuffer of its own) and the blocks into a value, throwing (any error)
 * when the head's structure is not what the caller wrote. The file is marked used.
 * @returns the value (`decode` must not return undefined; it owns the blocks: it closes them when
 *   done); `undefined` for a missing file (no warning) and for a corrupt one (trailer, head,
 *   table or structure; one warning line, see {@link warnCorruptCacheFile}).
 */
export function openCheckedBlocks<T>(path: string, tag: string, decode: (head: Buffer, blocks: CheckedBlocks) => T): T | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined; // missing (or removed by a prune meanwhile), or unreadable: a miss
  }
  let opened: ReturnType<typeof openBlocks> = null;
  try {
    opened = openBlocks(path, fd, tag);
  } catch { /* EIO and the like: as corrupt */ }
  if (opened) {
    let value: T | undefined;
    try {
      value = decode(opened.head, opened.blocks);
    } catch {
      // fall through: a matching checksum over a wrong structure is corrupt too
    }
    if (value !== undefined) {
      const now = new Date();
      try {
        futimesSync(fd, now, now);
      } catch { /* read-only */ }
      return value;
    }
    opened.blocks.close();
  } else {
    closeSync(fd);
  }
  warnCorruptCacheFile(path);
  return undefined;
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
