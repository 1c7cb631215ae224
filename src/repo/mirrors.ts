/**
 * Finding and opening fetched repository mirrors (bare git directories) for benchmark rows.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GitRepo } from './git.js';

/**
 * The bare git directory of GitHub `owner/name` under `mirrorsDir`: `OWNER+NAME/repo`, else the
 * SWE-bench mirror `swe-bench+OWNER__NAME/repo` (the layout of the search tool's `fetch`, and
 * the lookup order of ref_eval.py's `find_mirror`); null when neither exists.
 */
export function mirrorPath(mirrorsDir: string, ownerName: string): string | null {
  const [owner, name] = ownerName.split('/');
  if (!owner || !name) return null;
  for (const dir of [`${owner}+${name}`, `swe-bench+${owner}__${name}`]) {
    const p = join(mirrorsDir, dir, 'repo');
    if (existsSync(p)) return p;
  }
  return null;
}

/**
 * Opens each mirrored repository once and keeps it open (one `git cat-file --batch` each) until
 * {@link close}. `open` fits `ImportOptions.openRepo`.
 */
export class RepoPool {
  private readonly repos = new Map<string, Promise<GitRepo | null>>();

  constructor(readonly mirrorsDir: string) {}

  /** The repository of `owner/name`, or null when it is not mirrored. */
  open = (ownerName: string): Promise<GitRepo | null> => {
    let r = this.repos.get(ownerName);
    if (!r) {
      const p = mirrorPath(this.mirrorsDir, ownerName);
      r = p === null ? Promise.resolve(null) : GitRepo.open(p);
      this.repos.set(ownerName, r);
    }
    return r;
  };

  /** Closes every repository opened. */
  async close(): Promise<void> {
    for (const r of this.repos.values()) {
      const repo = await r.catch(() => null);
      if (repo) await repo.close();
    }
    this.repos.clear();
  }
}
