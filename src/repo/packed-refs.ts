/**
 * The ids of named refs in a git directory's `packed-refs` file (`<id> <ref>` lines, `# …` header
 * comments, `^<id>` peeled lines), read as git's packed ref store holds them, without a git
 * process. The file is read a chunk at a time and searched as bytes (a mirror's can hold megabytes
 * of pull-request refs): memory stays at one chunk whatever its size. Bounded input: a file over
 * {@link MAX_PACKED_REFS_BYTES}, one that is not a regular file (a FIFO or a device is never waited
 * on), or a line longer than a chunk gives `unknown` (the caller asks git).
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { fileIdentity } from './file-identity.js';

/** A full object id (SHA-1 or SHA-256). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Bytes read at a time; also the longest line read (refs are far shorter). */
const CHUNK = 1 << 16;
/** The largest `packed-refs` read (bytes): a bigger file is left to git. */
export const MAX_PACKED_REFS_BYTES = 256 << 20;

/**
 * What `packed-refs` says of the refs asked for: each ref a line names, with its id (undefined
 * when that line's id is malformed: git must answer), or `unknown` when the file was not read
 * (see the file comment). A ref absent from the map is not packed (no file: none is).
 */
export type PackedRefIds = Map<string, string | undefined> | 'unknown';

/**
 * The ids the first line naming each of `refs` (full names, `refs/heads/main`) gives in the
 * `packed-refs` file of the git directory `gitDir`. A line names a ref when it ends with a blank
 * and the ref (trailing blanks and a CR aside) and does not start with `#` or `^`.
 *
 * @throws the fs error of opening or reading the file other than ENOENT (EACCES, EIO …).
 */
export function packedRefIds(gitDir: string, refs: readonly string[]): PackedRefIds {
  const found = new Map<string, string | undefined>();
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading does not wait for a writer
    fd = openSync(join(gitDir, 'packed-refs'), fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return found;
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_PACKED_REFS_BYTES) return 'unknown';
    const needles = refs.map((ref) => ({ ref, bytes: Buffer.from(` ${ref}`, 'utf8') }));
    const buf = Buffer.allocUnsafe(CHUNK);
    let kept = 0;
    let total = 0;
    for (;;) {
      const read = readSync(fd, buf, kept, CHUNK - kept, null);
      total += read;
      // the file grew past the bound while read
      if (total > MAX_PACKED_REFS_BYTES) return 'unknown';
      const size = kept + read;
      // whole lines only; the last line of the file has no newline perhaps
      const end = read === 0 ? size : buf.lastIndexOf(0x0a, size - 1) + 1;
      if (end === 0 && size === CHUNK) return 'unknown';
      const lines = buf.subarray(0, end);
      for (const needle of needles) {
        if (found.has(needle.ref)) continue;
        for (let at = lines.indexOf(needle.bytes); at >= 0; at = lines.indexOf(needle.bytes, at + 1)) {
          const id = idOfLine(lines, at, needle.bytes.length);
          if (id === null) continue;
          found.set(needle.ref, id);
          break;
        }
      }
      if (read === 0 || found.size === needles.length) return found;
      kept = size - end;
      buf.copy(buf, 0, end, size);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The id of the line of `lines` holding a ref at `at` (its leading blank) of `length` bytes: null
 * when the ref does not end that line or the line is a comment or a peeled line, undefined when the
 * id is malformed.
 */
function idOfLine(lines: Buffer, at: number, length: number): string | undefined | null {
  let end = at + length;
  while (end < lines.length && (lines[end] === 0x20 || lines[end] === 0x09 || lines[end] === 0x0d)) end++;
  if (end < lines.length && lines[end] !== 0x0a) return null;
  const id = lines.toString('latin1', lines.lastIndexOf(0x0a, at) + 1, at);
  if (id.includes(' ') || id.startsWith('#') || id.startsWith('^')) return null;
  return OBJECT_ID.test(id) ? id : undefined;
}

/** The `packed-refs` files {@link packedRefIdsKept} keeps parsed (one per git directory, the least recently read dropped). */
const KEPT_FILES = 8;
/** Parsed `packed-refs` files by path: the stat they were read at and each ref's id (first line naming it). */
const kept = new Map<string, { stat: string; ids: Map<string, string | undefined> }>();

/**
 * {@link packedRefIds}, from the file parsed once and kept while its {@link fileIdentity} stays
 * the same, as git keeps its own packed ref store: git replaces the file (a new one renamed over it) at every change, so a changed file is
 * never taken for the kept one. For a process answering many requests on one repository (a file
 * of megabytes is searched in microseconds, not milliseconds). At most {@link KEPT_FILES} files
 * are kept, each under {@link MAX_PACKED_REFS_BYTES}.
 *
 * @throws as {@link packedRefIds}.
 */
export function packedRefIdsKept(gitDir: string, refs: readonly string[]): PackedRefIds {
  const path = join(gitDir, 'packed-refs');
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw e;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile() || stat.size > BigInt(MAX_PACKED_REFS_BYTES)) return 'unknown';
    const signature = fileIdentity(stat);
    let entry = kept.get(path);
    if (entry?.stat !== signature) {
      const ids = parsePackedRefs(fd, Number(stat.size));
      if (ids === undefined) return 'unknown';
      entry = { stat: signature, ids };
    }
    kept.delete(path);
    kept.set(path, entry);
    if (kept.size > KEPT_FILES) kept.delete(kept.keys().next().value!);
    const found = new Map<string, string | undefined>();
    for (const ref of refs) if (entry.ids.has(ref)) found.set(ref, entry.ids.get(ref));
    return found;
  } finally {
    closeSync(fd);
  }
}

/**
 * Each ref a `packed-refs` file of `size` bytes names, with the id of the first line naming it
 * (undefined when malformed), as {@link packedRefIds} reads lines; undefined when the file is
 * not `size` bytes long when read (it changed meanwhile).
 */
function parsePackedRefs(fd: number, size: number): Map<string, string | undefined> | undefined {
  const bytes = Buffer.allocUnsafe(size + 1);
  let read = 0;
  for (let n; read <= size && (n = readSync(fd, bytes, read, size + 1 - read, read)) > 0;) read += n;
  if (read !== size) return undefined;
  const ids = new Map<string, string | undefined>();
  for (const raw of bytes.toString('latin1', 0, size).split('\n')) {
    if (raw.startsWith('#') || raw.startsWith('^')) continue;
    const line = raw.replace(/[ \t\r]+$/, '');
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const id = line.slice(0, space);
    const ref = Buffer.from(line.slice(space + 1), 'latin1').toString('utf8');
    if (!ids.has(ref)) ids.set(ref, OBJECT_ID.test(id) ? id : undefined);
  }
  return ids;
}
