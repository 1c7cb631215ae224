/**
 * Finding and opening fetched repository mirrors (bare git directories) for benchmark rows.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GitRepo } from './git.js';

/**
 * GitHub repositories that moved after a benchmark named them (GitHub redirects the old name):
 * old `owner/name` (lower case) → the name a snapshot may carry now.
 */
const MOVED: Record<string, string> = {
  'intel-isl/open3d': 'isl-org/Open3D',
  'mwydmuch/vizdoom': 'Farama-Foundation/ViZDoom',
  'pytorchlightning/pytorch-lightning': 'Lightning-AI/pytorch-lightning',
  'google/iree': 'iree-org/iree',
};

/** The `dir/repo` folder of the entry of `mirrorsDir` named `dir` in any letter case, or null. */
function folderAnyCase(mirrorsDir: string, dir: string): string | null {
  const exact = join(mirrorsDir, dir, 'repo');
  if (existsSync(exact)) return exact;
  let names: string[];
  try {
    names = readdirSync(mirrorsDir);
  } catch {
    return null;
  }
  const key = dir.toLowerCase();
  const found = names.find((n) => n.toLowerCase() === key && existsSync(join(mirrorsDir, n, 'repo')));
  return found === undefined ? null : join(mirrorsDir, found, 'repo');
}

/**
 * The git directory of GitHub `owner/name` under `mirrorsDir`: `OWNER+NAME/repo`, else the
 * SWE-bench mirror `swe-bench+OWNER__NAME/repo` (the layout of the search tool's `fetch`, and
 * the lookup order of ref_eval.py's `find_mirror`); letter case ignored (GitHub's rule: a
 * benchmark may spell `paddlepaddle/paddle`), and a repository that moved found by its new name
 * too (`MOVED`). Null when none exists.
 */
export function mirrorPath(mirrorsDir: string, ownerName: string): string | null {
  const [owner, name] = ownerName.split('/');
  if (!owner || !name) return null;
  for (const dir of [`${owner}+${name}`, `swe-bench+${owner}__${name}`]) {
    const p = folderAnyCase(mirrorsDir, dir);
    if (p !== null) return p;
  }
  const moved = MOVED[ownerName.toLowerCase()];
  return moved === undefined ? null : mirrorPath(mirrorsDir, moved);
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
