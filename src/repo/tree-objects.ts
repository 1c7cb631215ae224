/**
 * File lists of many commit trees, fast: trees are read through one `git cat-file --batch`
 * process (`GitRepo.readObject`) and each tree object is parsed once and kept by its SHA, so
 * listing a commit close to one already listed reads only the few trees that changed between
 * them (one `git ls-tree -r` per commit would re-read every tree each time).
 */
import { IssuelocError } from '../errors.js';
import type { GitRepo } from './git.js';

/** One parsed tree: regular files (name, blob id) and subtrees (name, tree id) directly inside it. */
export interface TreeNode {
  files: [name: string, blob: string][];
  trees: [name: string, sha: string][];
}

/**
 * Parses a raw tree object: entries `<octal mode> SP <name> NUL <binary id>` (20 bytes for
 * SHA-1, 32 for SHA-256). Regular files are modes 100644, 100755 and the legacy 100664;
 * symlinks (120000) and submodules (160000) are left out.
 */
export function parseTree(data: Buffer, idBytes: number): TreeNode {
  const node: TreeNode = { files: [], trees: [] };
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    const nul = data.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > data.length) throw new Error('truncated tree object');
    const mode = data.toString('latin1', i, space);
    const name = data.toString('utf8', space + 1, nul);
    const sha = data.toString('hex', nul + 1, nul + 1 + idBytes);
    if (mode === '40000') node.trees.push([name, sha]);
    else if (mode === '100644' || mode === '100755' || mode === '100664') node.files.push([name, sha]);
    i = nul + 1 + idBytes;
  }
  return node;
}

/** Lists the regular files of commit trees with a cache of parsed trees (see the file comment). */
export class TreeFileLister {
  private readonly nodes = new Map<string, TreeNode>();

  /**
   * @param repo an open repository (its `cat-file --batch` process is used).
   * @param maxNodes parsed trees kept; the cache is emptied when it grows past this.
   */
  constructor(private readonly repo: GitRepo, private readonly maxNodes = 200_000) {}

  private async read(sha: string, what: string): Promise<Buffer> {
    const obj = await this.repo.readObject(sha);
    if (!obj) throw new IssuelocError(`${what} ${sha} is missing from ${this.repo.path}`);
    return obj.data;
  }

  /**
   * Paths of the regular files of `commit`'s tree, `/`-separated, in no particular order.
   *
   * @throws IssuelocError when the commit or one of its trees is missing from the object store.
   */
  async files(commit: string): Promise<string[]> {
    const head = (await this.read(commit, 'commit')).toString('latin1', 0, 100);
    const m = /^tree ([0-9a-f]{40,64})\n/.exec(head);
    if (!m) throw new IssuelocError(`object ${commit} in ${this.repo.path} is not a commit`);
    const idBytes = m[1].length / 2;
    if (this.nodes.size > this.maxNodes) this.nodes.clear();
    const out: string[] = [];
    let level: [prefix: string, sha: string][] = [['', m[1]]];
    while (level.length > 0) {
      const next: [string, string][] = [];
      // read the uncached trees of this level together (the batch process pipelines them)
      const missing = level.filter(([, sha]) => !this.nodes.has(sha));
      const read = await Promise.all(missing.map(([, sha]) => this.read(sha, 'tree')));
      missing.forEach(([, sha], k) => {
        try {
          this.nodes.set(sha, parseTree(read[k], idBytes));
        } catch (e) {
          throw new IssuelocError(`tree ${sha} of ${commit} in ${this.repo.path}: ${(e as Error).message}`);
        }
      });
      for (const [prefix, sha] of level) {
        const node = this.nodes.get(sha) as TreeNode;
        for (const [f] of node.files) out.push(prefix + f);
        for (const [name, sub] of node.trees) next.push([`${prefix}${name}/`, sub]);
      }
      level = next;
    }
    return out;
  }
}
