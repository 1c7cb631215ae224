/**
 * One wording for why an input file cannot be read, across every file the commands read (an
 * issue file, a model, a config, a list): `cannot read model x.json: no such file`.
 */

/**
 * Why a file could not be read, from the fs error: `no such file`, `a folder, not a file`,
 * `permission denied`, `not a folder on the way` (ENOTDIR); another error's code, else its message.
 */
export function whyUnreadable(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'a folder, not a file';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'ENOTDIR': return 'not a folder on the way';
    default: return code ?? (e instanceof Error ? e.message : String(e));
  }
}

/**
 * Codes of a write a cache folder cannot take: no room (ENOSPC, a quota's EDQUOT, a file-size
 * limit's EFBIG) or no permission (a read-only file system's EROFS, EACCES, EPERM).
 */
const CACHE_CANNOT_TAKE = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS', 'EACCES', 'EPERM']);

/** Whether `e` (an fs error, or its code) is a write a cache folder cannot take ({@link CACHE_CANNOT_TAKE}). */
export function cacheCannotTake(e: unknown): boolean {
  const code = typeof e === 'string' ? e : (e as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && CACHE_CANNOT_TAKE.has(code);
}

/** Whether this process warned of a write its cache folder refused ({@link warnCacheNotSaved}). */
let refusalSaid = false;

/**
 * Warns that a cache entry was not saved because of the fs error `e`. A refusal of the folder's
 * ({@link cacheCannotTake}: full, read-only) is said once per process: the first of a call (its
 * index, typically) is said, later ones (its history, code graph, …: refused for the same reason)
 * are not. Other errors are said each time.
 * @param message names what was not saved and why.
 * @param warn where the line goes; default stderr, `issueloc: warning: …`.
 */
export function warnCacheNotSaved(message: string, e: unknown, warn?: (message: string) => void): void {
  if (cacheCannotTake(e)) {
    if (refusalSaid) return;
    refusalSaid = true;
  }
  if (warn) warn(message);
  else process.stderr.write(`issueloc: warning: ${message}\n`);
}
