import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Creates the folder `dir` and its missing parents one level at a time, as `mkdir -p` does
 * (not `mkdirSync`'s recursive mode, which never returns for a path under /proc on Node 20).
 * A folder made meanwhile by another process is fine.
 *
 * @throws the fs error of the level that cannot be made (`ENOENT` under /proc, `EACCES`,
 *   `EROFS`), or `ENOTDIR` when a file stands in the path; its `path` names that level.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!existsSync(at)) {
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  if (!statSync(at).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR', syscall: 'mkdir', path: at });
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(d, { throwIfNoEntry: false })?.isDirectory()) throw e;
    }
  }
}
