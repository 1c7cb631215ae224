/**
 * The a-priori states evaluation reads: a commit's tree and committer time, and the files (path
 * and blob SHA: the key of their cached term counts) of its tree. Files are listed by
 * `GitRepo.listFiles`, which keeps parsed trees, so the state of a commit close to one already
 * listed costs only the trees that changed in between.
 */
import type { GitRepo } from '../repo/git.js';

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

/**
 * The commit's tree and committer time, or null when the object store lacks the commit (or the
 * name is not a commit).
 */
export async function commitInfo(repo: GitRepo, sha: string): Promise<CommitInfo | null> {
  if (!/^[0-9a-f]{4,64}$/i.test(sha)) return null;
  const obj = await repo.readObject(sha);
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
 * @throws IssuelocError when the commit's tree or one of its subtrees is missing from the object store.
 */
export async function stateFiles(repo: GitRepo, commit: CommitInfo): Promise<StateFile[]> {
  const { entries } = await repo.listFiles(commit.tree);
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
