import { accessSync, constants, lstatSync, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { IssuelocError } from '../errors.js';
import { makeDirs } from '../util/make-dirs.js';
import { sha1Hex } from '../util/sha1.js';

/**
 * Where the cache of a repository lives (its indexes, parsed blobs, vectors, LLM answers, history).
 *
 * - `explicit` (from `--cache-dir`), else the ISSUELOC_CACHE_DIR environment variable;
 * - else `$XDG_CACHE_HOME/issueloc/<name>-<hash>/` (`~/.cache` when XDG_CACHE_HOME is unset or
 *   not absolute), for clones and bare repositories alike: never inside the work tree, so
 *   nothing a repository ships (a committed `.issueloc/`, a symbolic link) is read as cache or
 *   redirects its writes. `name` is the repository folder's name, `hash` a digest of the
 *   git directory's absolute path;
 * - when that user cache root cannot be created or written, `<tmpdir>/issueloc-<uid>/<name>-<hash>/`
 *   (a folder only this user can enter), with one warning line on stderr.
 *
 * The folder is created when missing.
 * @returns the absolute folder path.
 * @throws IssuelocError for an empty `explicit`; naming the folder when it cannot be created (a file in its path, no
 *   permission, a read-only or special file system), or when the fallback folder in the
 *   temporary directory is not this user's own.
 */
export function cacheDirFor(repo: { gitDir: string; workTree?: string | null }, explicit?: string): string {
  // `--cache-dir ""` would resolve to the current folder (often the work tree); an empty variable is unset
  if (explicit !== undefined && explicit.trim() === '') throw new IssuelocError(`--cache-dir takes a folder, got '${explicit}'`);
  const chosen = explicit ?? (process.env.ISSUELOC_CACHE_DIR || undefined);
  if (chosen !== undefined) {
    makeCacheDirs(chosen, explicit !== undefined ? '--cache-dir' : 'ISSUELOC_CACHE_DIR');
    return resolve(chosen);
  }
  const leaf = repoCacheName(repo.gitDir);
  const root = userCacheRoot();
  try {
    makeCacheDirs(root, 'cache folder');
    accessSync(root, constants.W_OK);
  } catch (e) {
    const tmp = join(tmpdir(), `issueloc-${process.getuid?.() ?? 'user'}`);
    const why = e instanceof IssuelocError ? e.message : `cache folder ${root}: not writable`;
    process.stderr.write(`issueloc: warning: ${why}; using ${join(tmp, leaf)} instead (set --cache-dir or ISSUELOC_CACHE_DIR)\n`);
    ownPrivateDir(tmp);
    makeCacheDirs(join(tmp, leaf), 'cache folder');
    return join(tmp, leaf);
  }
  const dir = join(root, leaf);
  makeCacheDirs(dir, 'cache folder');
  return dir;
}

/** `$XDG_CACHE_HOME/issueloc` (an absolute XDG_CACHE_HOME only, as the XDG spec says), else `~/.cache/issueloc`. */
function userCacheRoot(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'issueloc');
}

/** `<name>-<hash>`: the repository folder's name and 12 hex digits of the git directory's path. */
function repoCacheName(gitDir: string): string {
  const abs = resolve(gitDir);
  const name = basename(abs) === '.git' || basename(abs) === 'repo' ? basename(dirname(abs)) : basename(abs);
  const hash = sha1Hex(abs).slice(0, 12);
  return `${name.replace(/[^\w.+-]/g, '_')}-${hash}`;
}

/**
 * Makes `dir` (in a shared temporary directory) a folder of this user's only, or refuses it:
 * a symbolic link, another user's folder, or one others may write would let them plant cache files.
 * @throws IssuelocError naming the folder.
 */
function ownPrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new IssuelocError(`cache folder ${dir}: cannot create it (${(e as NodeJS.ErrnoException).code})`);
  }
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) {
    throw new IssuelocError(`cache folder ${dir} is not this user's own private folder; set --cache-dir or ISSUELOC_CACHE_DIR`);
  }
}

/**
 * Creates `dir` and its missing parents ({@link makeDirs}).
 * @throws IssuelocError naming `what` and the folder.
 */
function makeCacheDirs(dir: string, what: string): void {
  try {
    makeDirs(dir);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOTDIR') throw new IssuelocError(`${what} ${dir}: ${err.path ?? dir} is not a folder`);
    throw new IssuelocError(`${what} ${dir}: cannot create it (${err.code ?? err.message})`);
  }
}
