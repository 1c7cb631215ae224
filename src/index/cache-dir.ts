import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

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
 */
export function cacheDirFor(repo: { gitDir: string; workTree?: string | null }, explicit?: string): string {
  const chosen = explicit ?? process.env.ISSUELOC_CACHE_DIR ?? inWorkTree(repo.workTree) ?? userCacheDir(repo.gitDir);
  mkdirSync(chosen, { recursive: true });
  return chosen;
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
