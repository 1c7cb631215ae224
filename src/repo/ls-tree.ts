/** One regular file of a commit's tree. */
export interface TreeEntry {
  /** Path from the repository root, `/`-separated, as stored in git (UTF-8). */
  path: string;
  /** File mode: `100644`, or `100755` for executables. */
  mode: string;
  /** Blob SHA of the content. */
  blob: string;
  /** Content size in bytes; -1 when git cannot read the blob (missing from the object store). */
  size: number;
}

/** The regular files of a tree, and how many other entries were left out. */
export interface TreeListing {
  /** Regular files in git's tree order (bytewise by path). */
  entries: TreeEntry[];
  skipped: {
    /** Entries of mode 120000. */
    symlinks: number;
    /** Gitlinks (mode 160000, type commit). */
    submodules: number;
  };
}

/**
 * Parses the output of `git ls-tree -r -l -z`: records `<mode> SP <type> SP <sha> SP+ <size> TAB
 * <path> NUL` (git-ls-tree(1), OUTPUT FORMAT). Only regular files (modes 100644, 100755, and the
 * legacy 100664 of old trees) are kept; symlinks and submodules are counted. A size git cannot
 * read (printed `BAD` for a missing blob, `-` for non-blobs) becomes -1.
 */
export function parseLsTree(out: Buffer): TreeListing {
  const entries: TreeEntry[] = [];
  const skipped = { symlinks: 0, submodules: 0 };
  let pos = 0;
  while (pos < out.length) {
    let end = out.indexOf(0, pos);
    if (end < 0) end = out.length;
    const tab = out.indexOf(9, pos);
    if (tab > pos && tab < end) {
      const meta = out.toString('latin1', pos, tab).split(' ').filter((s) => s.length > 0);
      const [mode, type, sha, size] = meta;
      if (mode === '120000') skipped.symlinks++;
      else if (mode === '160000' || type === 'commit') skipped.submodules++;
      else if (type === 'blob' && mode.startsWith('100')) {
        const n = Number(size);
        entries.push({ path: out.toString('utf8', tab + 1, end), mode, blob: sha, size: Number.isInteger(n) ? n : -1 });
      }
    }
    pos = end + 1;
  }
  return { entries, skipped };
}
