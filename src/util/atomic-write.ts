import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirs } from './make-dirs.js';

/** A part of a file to write as bytes: a string as UTF-8, a byte / typed array as a view of its bytes (no copy). */
export function bufferOf(part: string | ArrayBufferView): Buffer {
  return typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
}

/**
 * Writes `parts` to `path` atomically: into a temporary file in the same folder, flushed to disk,
 * then renamed over `path`. A reader sees the old file or the whole new one, never half of it;
 * on any error the temporary file is removed and `path` is left as it was.
 *
 * @param parts strings (written as UTF-8) or byte arrays / typed arrays, in order.
 * @param opts.fsync flush to disk before the rename (default true); a cache whose entries can be
 *   rebuilt may skip it for speed.
 * @throws the underlying fs error (ENOENT, EACCES, ENOSPC …); its `path` is `path` when the
 *   failing call named none (a write or flush failing for a full disk names the file it was for).
 */
export function writeFileAtomic(
  path: string,
  parts: ReadonlyArray<string | ArrayBufferView>,
  opts: { fsync?: boolean } = {},
): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  let fd = -1;
  try {
    fd = openSync(tmp, 'w');
  } catch {
    // the folder is missing (or not one): make it, or throw the error of the level that cannot be made
    makeDirs(dirname(path));
  }
  try {
    if (fd < 0) fd = openSync(tmp, 'w');
    for (const part of parts) {
      const buf = bufferOf(part);
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off);
    }
    if (opts.fsync !== false) fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, path);
  } catch (e) {
    if (fd >= 0) closeSync(fd);
    rmSync(tmp, { force: true });
    const err = e as NodeJS.ErrnoException;
    if (err && typeof err === 'object' && err.code !== undefined && err.path === undefined) err.path = path;
    throw e;
  }
}
