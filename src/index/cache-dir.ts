import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { IssuelocError } from '../errors.js';

/**
 * Where the index cache of a repository lives.
 *
 * - `explicit` (from `--cache-dir` or the ISSUELOC_CACHE_DIR environment variable) wins;
 * - a clone with a work tree: `<worktree>/.issueloc/` (with a `.gitignore` of `*` inside, so git
 *   ignores it), unless the work tree is not writable;
 * - a bare repository or a read-only work tree: `$XDG_CACHE_HOME/issueloc/<name>-<hash>/`
 *   (default `~/.cache`), where hash is a digest of the git directory's absolute path.
 *
 * The folder is created when missing.
 * @returns the absolute folder path.
 * @throws IssuelocError naming the folder when it cannot be created (a file in its path, no
 *   permission, a read-only or special file system).
 */
export function cacheDirFor(repo: { gitDir: string; workTree?: string | null }, explicit?: string): string {
  const chosen = explicit ?? process.env.ISSUELOC_CACHE_DIR ?? inWorkTree(repo.workTree) ?? userCacheDir(repo.gitDir);
  makeDirs(chosen, explicit !== undefined ? '--cache-dir' : process.env.ISSUELOC_CACHE_DIR ? 'ISSUELOC_CACHE_DIR' : 'cache folder');
  return resolve(chosen);
}

/**
 * Creates `dir` and its missing parents one level at a time (not `mkdirSync`'s recursive mode,
 * which never returns for a path under /proc on Node 20).
 * @throws IssuelocError naming `what` and the folder.
 */
function makeDirs(dir: string, what: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!existsSync(at)) {
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  try {
    if (!statSync(at).isDirectory()) throw new IssuelocError(`${what} ${dir}: ${at} is not a folder`);
    for (const d of missing.reverse()) {
      try {
        mkdirSync(d);
      } catch (e) {
        // another run made it meanwhile: fine when it is a folder now
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(d, { throwIfNoEntry: false })?.isDirectory()) throw e;
      }
    }
  } catch (e) {
    if (e instanceof IssuelocError) throw e;
    throw new IssuelocError(`${what} ${dir}: cannot create it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

function inWorkTree(workTree: string | null | undefined): string | undefined {
  if (!workTree) return undefined;
  try {
    accessSync(workTree, constants.W_OK);
  } catch {
    return undefined;
  }
  const dir = join(workTree, '.issueloc');
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '.gitignore'), '*\n');
  }
  return dir;
}

function userCacheDir(gitDir: string): string {
  const root = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const name = basename(gitDir) === '.git' || basename(gitDir) === 'repo' ? basename(dirname(gitDir)) : basename(gitDir);
  const hash = createHash('sha1').update(gitDir).digest('hex').slice(0, 12);
  return join(root, 'issueloc', `${name.replace(/[^\w.+-]/g, '_')}-${hash}`);
}
