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
