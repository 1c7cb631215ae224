import { GitRepo } from '../repo/git.js';
import { cacheDirFor } from './cache-dir.js';
import { indexCommit } from './index-commit.js';
import type { CodeIndex, IndexSettings } from './code-index.js';

/** Options of {@link openIndex}. */
export interface OpenIndexOptions {
  /** Revision to index (any `git rev-parse` name; default HEAD). */
  rev?: string;
  /** Cache folder (default: see cacheDirFor). */
  cacheDir?: string;
  settings?: Partial<IndexSettings>;
  force?: boolean;
  /** Size cap of the cache folder (bytes; see indexCommit). */
  maxCacheBytes?: number;
  onProgress?: (done: number, total: number) => void;
}

/** What {@link openIndex} returns: the index, and how it was had. */
export interface OpenedIndex {
  repo: GitRepo;
  commit: string;
  cacheDir: string;
  codeIndex: CodeIndex;
  /** true when built now, false when loaded from the cache. */
  built: boolean;
  /** Milliseconds spent loading or building. */
  millis: number;
}

/**
 * Opens the repository at `repoPath` (a work tree or a bare repository), resolves `rev` to a
 * commit and returns that commit's code index (from the cache, else built and cached).
 * The caller closes `repo` when done.
 *
 * @throws IssuelocError for a path that is not a git repository, an unknown revision, or a
 *   commit missing from a shallow clone (each message names the input).
 */
export async function openIndex(repoPath: string, opts: OpenIndexOptions = {}): Promise<OpenedIndex> {
  const t0 = performance.now();
  const repo = await GitRepo.open(repoPath);
  try {
    const commit = await repo.resolveCommit(opts.rev ?? 'HEAD');
    const cacheDir = cacheDirFor(repo, opts.cacheDir);
    const { codeIndex, built } = await indexCommit(repo, commit, {
      cacheDir, settings: opts.settings, force: opts.force, onProgress: opts.onProgress, maxCacheBytes: opts.maxCacheBytes,
    });
    return { repo, commit, cacheDir, codeIndex, built, millis: performance.now() - t0 };
  } catch (e) {
    await repo.close();
    throw e;
  }
}
