/**
 * The files of a commit's tree: the one way issueloc lists them. Tree objects are read through
 * the repository's `git cat-file --batch` process (a level of the tree at a time, pipelined) and
 * each is parsed once and kept by its id, so listing a commit close to one already listed reads
 * only the few trees that changed in between (the a-priori states of a dataset, the states
 * of an evaluation); one `git ls-tree -r` per commit would re-read every tree each time.
 *
 * The listing is the one `git ls-tree -r --full-tree` prints: the same entries in the same order
 * (depth first in each tree's stored order, which for a well-formed tree is byte order of the
 * whole paths), modes read as git reads them (`canon_mode`: any regular-file mode is 100644, or
 * 100755 when its owner-execute bit is set; an unknown mode is a submodule).
 */
import { IssuelocError } from '../errors.js';
import type { GitObject } from './cat-file.js';

/** One regular file of a commit's tree. */
export interface TreeFile {
  /** Path from the repository root, `/`-separated, as stored in git (UTF-8). */
  path: string;
  /** File mode: `100644`, or `100755` for executables. */
  mode: string;
  /** Blob SHA of the content. */
  blob: string;
}

/** A {@link TreeFile} with its content size. */
export interface TreeEntry extends TreeFile {
  /** Content size in bytes; -1 when git cannot read the blob (missing from the object store). */
  size: number;
}

/** The regular files of a tree, and how many other entries were left out. */
export interface TreeListing<E extends TreeFile = TreeEntry> {
  /** Regular files in git's order (`git ls-tree -r`). */
  entries: E[];
  skipped: {
    /** Entries of mode 120000. */
    symlinks: number;
    /** Gitlinks (mode 160000), and entries of a mode git does not know. */
    submodules: number;
  };
}

/** Canonical modes (`canon_mode` of git), shared strings. */
const FILE = '100644';
const EXECUTABLE = '100755';
const SYMLINK = '120000';
const TREE = '40000';
const SUBMODULE = '160000';

/** One parsed tree object: its entries in stored order (entry k: `modes[k]`, `names[k]`, `ids[k]`). */
export interface TreeNode {
  /** Canonical modes. */
  modes: string[];
  names: string[];
  /** Hex object ids. */
  ids: string[];
  /** How many entries are trees. */
  trees: number;
}

/** git's `canon_mode` of an octal mode text. */
function canonicalMode(octal: string): string {
  const mode = parseInt(octal, 8);
  switch (mode & 0o170000) {
    case 0o100000: return mode & 0o100 ? EXECUTABLE : FILE;
    case 0o120000: return SYMLINK;
    case 0o040000: return TREE;
    default: return SUBMODULE;
  }
}

/**
 * Parses a raw tree object: entries `<octal mode> SP <name> NUL <binary id>` (20 bytes for
 * SHA-1, 32 for SHA-256).
 * @throws Error `truncated tree object` when an entry is cut short.
 */
export function parseTree(data: Buffer, idBytes: number): TreeNode {
  const node: TreeNode = { modes: [], names: [], ids: [], trees: 0 };
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    const nul = data.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > data.length) throw new Error('truncated tree object');
    const octal = data.toString('latin1', i, space);
    const mode = octal === FILE ? FILE : canonicalMode(octal);
    if (mode === TREE) node.trees++;
    node.modes.push(mode);
    node.names.push(data.toString('utf8', space + 1, nul));
    node.ids.push(data.toString('hex', nul + 1, nul + 1 + idBytes));
    i = nul + 1 + idBytes;
  }
  return node;
}

const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Lists the regular files of trees, keeping parsed trees by id (see the file comment).
 * Safe to call concurrently. `GitRepo.listFiles` / `listTree` / `listPaths` are its entry points.
 */
export class TreeFileLister {
  private readonly nodes = new Map<string, TreeNode>();
  private entriesKept = 0;
  /** Tree objects parsed so far (for reports). */
  parsedTrees = 0;

  /**
   * @param read reads objects by any `git cat-file` names, one answer (or null) per name in
   *   order (the repository's batch process).
   * @param label how errors name the repository.
   * @param maxEntries tree entries kept; the cache is emptied when it grows past this (about 130 bytes each).
   */
  constructor(
    private readonly read: (names: readonly string[]) => Promise<(GitObject | null)[]>,
    private readonly label: string,
    private readonly maxEntries = 2_000_000,
  ) {}

  /**
   * The regular files of the tree of `rev`, in git's order.
   * @param rev a commit (SHA, branch, `HEAD~2`, …), a tag or a tree.
   * @throws IssuelocError `cannot list the files of <rev> in <repo>: …` when `rev` names no commit
   *   or tree, or one of its trees is missing from the object store or corrupt.
   */
  async list(rev: string): Promise<TreeListing<TreeFile>> {
    const named = /[\x00-\x1f]/.test(rev) ? JSON.stringify(rev) : rev; // the message stays one line
    const fail = (why: string) => new IssuelocError(`cannot list the files of ${named} in ${this.label}: ${why}`);
    if (rev === '' || rev.includes('\n')) throw fail('no commit or tree of that name');
    if (this.entriesKept > this.maxEntries) {
      this.nodes.clear();
      this.entriesKept = 0;
    }
    // the root: by id when it is a known tree, else peeled by git (`^{tree}`)
    let root = FULL_ID.test(rev) ? rev : '';
    const seen = new Map<string, TreeNode>();
    if (!this.nodes.has(root)) {
      const [obj] = await this.read([`${rev}^{tree}`]);
      if (!obj || obj.type !== 'tree') throw fail('no commit or tree of that name');
      root = obj.sha;
      if (!this.nodes.has(root)) seen.set(root, this.parse(root, obj.data, fail));
    }
    const idBytes = root.length / 2;
    // load every tree, a level at a time (the batch process pipelines a level's reads)
    const visited = new Set<string>();
    const expand = (node: TreeNode, next: string[]): void => {
      if (node.trees === 0) return;
      for (let k = 0; k < node.modes.length; k++) {
        const sub = node.ids[k];
        if (node.modes[k] === TREE && !visited.has(sub)) {
          visited.add(sub);
          next.push(sub);
        }
      }
    };
    let level = [root];
    visited.add(root);
    while (level.length > 0) {
      const next: string[] = [];
      const missing: string[] = [];
      for (const sha of level) {
        const node = seen.get(sha) ?? this.nodes.get(sha);
        if (node === undefined) missing.push(sha);
        else {
          seen.set(sha, node);
          expand(node, next);
        }
      }
      const objs = await this.read(missing);
      missing.forEach((sha, k) => {
        const obj = objs[k];
        if (!obj || obj.type !== 'tree') throw fail(`tree ${sha} is missing from the object store`);
        const node = this.parse(sha, obj.data, fail, idBytes);
        seen.set(sha, node);
        expand(node, next);
      });
      level = next;
    }
    return emit(root, seen);
  }

  private parse(sha: string, data: Buffer, fail: (why: string) => IssuelocError, idBytes = sha.length / 2): TreeNode {
    let node: TreeNode;
    try {
      node = parseTree(data, idBytes);
    } catch (e) {
      throw fail(`tree ${sha}: ${(e as Error).message}`);
    }
    this.parsedTrees++;
    this.nodes.set(sha, node);
    this.entriesKept += node.modes.length;
    return node;
  }
}

/** The files under `root`, depth first in stored order (as `git ls-tree -r`). */
function emit(root: string, nodes: ReadonlyMap<string, TreeNode>): TreeListing<TreeFile> {
  const entries: TreeFile[] = [];
  const skipped = { symlinks: 0, submodules: 0 };
  const walk = (sha: string, prefix: string): void => {
    const { modes, names, ids } = nodes.get(sha) as TreeNode;
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[k];
      if (mode === FILE || mode === EXECUTABLE) entries.push({ path: prefix + names[k], mode, blob: ids[k] });
      else if (mode === TREE) walk(ids[k], `${prefix}${names[k]}/`);
      else if (mode === SYMLINK) skipped.symlinks++;
      else skipped.submodules++;
    }
  };
  walk(root, '');
  return { entries, skipped };
}
