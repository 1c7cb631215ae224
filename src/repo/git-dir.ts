/**
 * Where a repository's git directory is, read from the file system as git's discovery would find
 * it, without a git process, for the plain layouts only: a folder holding a `.git` directory (the
 * top of a clone's work tree) or a folder that is itself a git directory (a bare repository or
 * mirror). Anything git could answer otherwise gives undefined, and the caller asks git: a folder
 * inside a work tree (git walks up), a `.git` file or link (linked work trees, submodules), a
 * shallow clone, a config with `core.worktree`, includes or extensions, a `core.bare` against the
 * layout, a folder owned by another user (git's `safe.directory` check), an environment variable
 * that changes git's configuration or discovery. Read afresh on every call.
 */
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPOSITORY_ENV } from './git-process.js';

/** What `git rev-parse --absolute-git-dir --is-bare-repository --is-shallow-repository --show-toplevel` says. */
export interface RepoLayout {
  /** Absolute git directory, its real path (as git prints it). */
  gitDir: string;
  /** Absolute top of the work tree (real path); null for a bare repository. */
  workTree: string | null;
  isBare: boolean;
  isShallow: boolean;
}

/** Variables that leave git's discovery and configuration as they are (the repository ones are removed for every git we run). */
const HARMLESS_ENV = /^GIT_(?:TRACE|AUTHOR_|COMMITTER_|EDITOR$|SEQUENCE_EDITOR$|PAGER$|SSH|ASKPASS$|TERMINAL_PROMPT$|LITERAL_PATHSPECS$|FLUSH$|HTTP_|SSL_|CURL_)/;
/** `HEAD` as a git directory holds it: a symbolic ref or an object id. */
const HEAD_TEXT = /^(?:ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/;
/** Config that moves the work tree or changes how the repository is read: git must answer. */
const UNUSUAL_CONFIG = /^\s*worktree\s*=|\[\s*(?:include|includeif|extensions)\b/im;

/** The layout of the repository at `path` when it is a plain one (see the file comment), else undefined. */
export function plainRepoLayout(path: string): RepoLayout | undefined {
  const uid = process.geteuid?.();
  if (uid === undefined) return undefined;
  if (Object.keys(process.env).some((k) => k.startsWith('GIT_') && !HARMLESS_ENV.test(k) && !REPOSITORY_ENV.includes(k))) return undefined;
  try {
    const dir = realpathSync(resolve(path));
    if (statSync(dir).uid !== uid) return undefined;
    const dotGit = join(dir, '.git');
    const entry = lstatSync(dotGit, { throwIfNoEntry: false });
    if (entry) {
      return entry.isDirectory() && plainGitDir(dotGit, uid, false) ? { gitDir: dotGit, workTree: dir, isBare: false, isShallow: false } : undefined;
    }
    return plainGitDir(dir, uid, true) ? { gitDir: dir, workTree: null, isBare: true, isShallow: false } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when `dir` is a git directory git would take as it is: `HEAD`, `objects/` and `refs/`,
 * owned by `uid`, not shallow, no linked work tree's `commondir`, a plain config whose
 * `core.bare`, if set, agrees with `bare` (a bare repository's config may be absent).
 */
function plainGitDir(dir: string, uid: number, bare: boolean): boolean {
  if (statSync(dir).uid !== uid) return false;
  if (!HEAD_TEXT.test(readFileSync(join(dir, 'HEAD'), 'latin1'))) return false;
  if (!statSync(join(dir, 'objects')).isDirectory() || !statSync(join(dir, 'refs')).isDirectory()) return false;
  if (existsSync(join(dir, 'shallow')) || existsSync(join(dir, 'commondir'))) return false;
  const configFile = join(dir, 'config');
  const config = existsSync(configFile) ? readFileSync(configFile, 'utf8') : '';
  if (UNUSUAL_CONFIG.test(config)) return false;
  const said = [...config.matchAll(/^\s*bare\s*=\s*(\S*)\s*$/gim)].map((m) => m[1].toLowerCase());
  return said.every((v) => v === String(bare));
}
