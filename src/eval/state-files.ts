/**
 * The files (path and blob SHA) of many a-priori states, fast: commit and tree objects come
 * through the repository's one `git cat-file --batch` process and each tree is parsed once and
 * kept by its SHA, so the state of a commit close to one already listed costs only the trees that
 * changed in between. (`src/repo/tree-objects.ts` lists paths alone with the same tree parser;
 * evaluation also needs each file's blob, the key of its cached term counts.)
 */
import { IssuelocError } from '../errors.js';
import type { GitRepo } from '../repo/git.js';
import { parseTree, type TreeNode } from '../repo/tree-objects.js';

/** A regular file of a state. */
export interface StateFile {
  readonly path: string;
  readonly blob: string;
}

/** What a commit object says that evaluation needs. */
export interface CommitInfo {
  readonly sha: string;
  readonly tree: string;
  /** Committer time, Unix seconds. */
  readonly committerTime: number;
}

/** Lists the files of commits with a cache of parsed trees (see the module comment). */
export class StateLister {
  private readonly trees = new Map<string, TreeNode>();
  /** Tree objects parsed so far (for reports). */
  parsedTrees = 0;

  constructor(readonly repo: GitRepo, private readonly maxTrees = 200_000) {}

  /**
   * The commit's tree and committer time, or null when the object store lacks the commit (or the
   * name is not a commit).
   */
  async commit(sha: string): Promise<CommitInfo | null> {
    if (!/^[0-9a-f]{4,64}$/i.test(sha)) return null;
    const obj = await this.repo.readObject(sha);
    if (!obj || obj.type !== 'commit') return null;
    const text = obj.data.toString('utf8');
    const tree = /^tree ([0-9a-f]{40,64})$/m.exec(text);
    const committer = /^committer .* (\d+) [+-]\d{4}$/m.exec(text);
    if (!tree || !committer) return null;
    const full = sha.length === tree[1].length ? sha.toLowerCase() : sha;
    return { sha: full, tree: tree[1], committerTime: Number(committer[1]) };
  }

  /**
   * Every regular file of a commit's tree, sorted by path (byte order of the UTF-16 strings).
   * @throws IssuelocError when the commit or one of its trees is missing from the object store.
   */
  async files(commit: CommitInfo): Promise<StateFile[]> {
    const idBytes = commit.tree.length / 2;
    if (this.trees.size > this.maxTrees) this.trees.clear();
    const out: StateFile[] = [];
    let level: [prefix: string, sha: string][] = [['', commit.tree]];
    while (level.length > 0) {
      const missing = level.filter(([, sha]) => !this.trees.has(sha));
      const objs = await Promise.all(missing.map(([, sha]) => this.repo.readObject(sha)));
      missing.forEach(([, sha], k) => {
        const obj = objs[k];
        if (!obj || obj.type !== 'tree') throw new IssuelocError(`tree ${sha} of commit ${commit.sha} is missing from ${this.repo.path}`);
        try {
          this.trees.set(sha, parseTree(obj.data, idBytes));
        } catch (e) {
          throw new IssuelocError(`tree ${sha} of commit ${commit.sha} in ${this.repo.path}: ${(e as Error).message}`);
        }
        this.parsedTrees++;
      });
      const next: [string, string][] = [];
      for (const [prefix, sha] of level) {
        const node = this.trees.get(sha) as TreeNode;
        for (const [name, blob] of node.files) out.push({ path: prefix + name, blob });
        for (const [name, sub] of node.trees) next.push([`${prefix}${name}/`, sub]);
      }
      level = next;
    }
    out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return out;
  }
}
