// A full disk, a quota or a read-only folder for one child process, without root or a file system
// of its own: loaded with `node --import` before the CLI, it makes node:fs fail under the folder
// FAIL_WRITES_UNDER with the error code FAIL_WRITES_CODE (ENOSPC, EDQUOT: a write fails after half
// its bytes, as on a full disk; EROFS, EACCES: opening a file for writing, making a folder or a
// rename fails). The patched functions are synced into the ES modules' named imports of node:fs.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';

const under = process.env.FAIL_WRITES_UNDER;
const code = process.env.FAIL_WRITES_CODE ?? 'ENOSPC';

if (under) {
  const root = resolve(under) + sep;
  const inside = (p: unknown) => (typeof p === 'string' || p instanceof URL) && `${resolve(String(p instanceof URL ? p.pathname : p))}${sep}`.startsWith(root);
  const failure = (syscall: string, path?: string) =>
    Object.assign(new Error(`${code}: injected failure, ${syscall}${path ? ` '${path}'` : ''}`), { code, syscall, ...(path ? { path } : {}) });
  const spaceLeft = code === 'ENOSPC' || code === 'EDQUOT';
  const writing = (flags: unknown) => flags !== undefined && flags !== 'r' && flags !== fs.constants.O_RDONLY &&
    !(typeof flags === 'number' && (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) === 0);
  const doomed = new Set<number>();
  const { openSync, writeSync, closeSync, mkdirSync, renameSync, writeFileSync, accessSync, existsSync } = fs;
  fs.openSync = ((path: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) => {
    if (inside(path) && writing(flags) && !spaceLeft) throw failure('open', String(path));
    const fd = openSync(path, flags ?? 'r', mode);
    if (inside(path) && writing(flags)) doomed.add(fd);
    return fd;
  }) as typeof fs.openSync;
  fs.writeSync = ((fd: number, buffer: NodeJS.ArrayBufferView | string, ...rest: unknown[]) => {
    if (!doomed.has(fd)) return (writeSync as (...a: unknown[]) => number)(fd, buffer, ...rest);
    // half of what was asked is written, then the disk is full
    const bytes = typeof buffer === 'string' ? Buffer.from(buffer) : Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    if (bytes.length > 1) writeSync(fd, bytes, 0, bytes.length >> 1);
    throw failure('write');
  }) as typeof fs.writeSync;
  fs.closeSync = ((fd: number) => {
    doomed.delete(fd);
    closeSync(fd);
  }) as typeof fs.closeSync;
  fs.writeFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (inside(path)) throw failure(spaceLeft ? 'write' : 'open', String(path));
    return (writeFileSync as (...a: unknown[]) => void)(path, ...rest);
  }) as typeof fs.writeFileSync;
  if (!spaceLeft) {
    fs.mkdirSync = ((path: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
      if (inside(path) && !existsSync(path)) throw failure('mkdir', String(path));
      return mkdirSync(path, options);
    }) as typeof fs.mkdirSync;
    fs.accessSync = ((path: fs.PathLike, mode?: number) => {
      if (inside(path) && mode !== undefined && (mode & fs.constants.W_OK) !== 0) throw failure('access', String(path));
      accessSync(path, mode);
    }) as typeof fs.accessSync;
    fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
      if (inside(to)) throw failure('rename', String(to));
      renameSync(from, to);
    }) as typeof fs.renameSync;
  }
  syncBuiltinESMExports();
}
