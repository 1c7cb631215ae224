import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRepo } from '../repo/git.js';
import { IssuelocError } from '../errors.js';
import {
  DEFAULT_INDEX_SETTINGS, indexFilePath, loadCodeIndex, saveCodeIndex,
  type CodeIndex, type IndexSettings,
} from './code-index.js';
import { CacheFolderNotWritable, lockWaitFromEnv, withBuildLock } from './build-lock.js';
import { cacheMaxBytes, trimAfterBuild } from './cache-usage.js';
import { CorruptCacheFileError } from '../util/checked-file.js';
import { cacheCannotTake, warnCacheNotSaved } from '../util/file-errors.js';

/** Options of {@link indexCommit}. */
export interface IndexCommitOptions {
  cacheDir: string;
  settings?: Partial<IndexSettings>;
  /** Rebuild even when an index file exists, re-parsing every blob (blob entries are rewritten). */
  force?: boolean;
  /** Called as blobs are processed: (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** How long a second process waits for another's build in the same cache (ms; default ISSUELOC_LOCK_WAIT, else 10 min). */
  lockWaitMs?: number;
  /** Size cap of the cache folder, applied after a build (bytes; default ISSUELOC_CACHE_MAX_SIZE, else 2 GiB). */
  maxCacheBytes?: number;
  /**
   * Abandons a build when aborted: checked before each blob and before the index is saved, so
   * nothing is written after it fires; the promise rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /**
   * When the cache folder cannot take the index (full: ENOSPC, EDQUOT, EFBIG; read-only or
   * forbidden: EROFS, EACCES, EPERM), give the index built in memory, unsaved, with one warning
   * (`localize`: an answer, not the saving, is wanted). Default: the error is thrown (`index`).
   */
  answerUnsaved?: boolean;
  /** Where the warnings go (an index not saved); default stderr, `issueloc: warning: …`. */
  onWarning?: (message: string) => void;
}

/**
 * The code index of `commit`: loaded from the cache folder when present (and verified), else
 * built from the commit's tree (reading blobs through `git cat-file --batch`, parsing and
 * tokenizing only blobs missing from the blob cache) and saved atomically; after a build the
 * cache is trimmed to `maxCacheBytes`, least recently used entries first (src/index/cache-usage.ts).
 *
 * Concurrency: builds hold the lock of `<cacheDir>/index` (src/index/build-lock.ts); a second
 * process says on stderr that it waits (up to `lockWaitMs`), then loads what the first one wrote.
 *
 * An index missing blobs (a partial clone whose promisor remote cannot give them) is returned
 * with one warning naming how many and how to fetch them, and never saved: the next call builds it
 * again (from the blob cache, for the blobs it has).
 *
 * @throws IssuelocError (exit 2) when the cache folder is not writable and the index must be
 *   built (unless `answerUnsaved`), or when the lock cannot be had in time.
 */
export async function indexCommit(repo: GitRepo, commit: string, opts: IndexCommitOptions): Promise<{ codeIndex: CodeIndex; built: boolean }> {
  const settings: IndexSettings = { ...DEFAULT_INDEX_SETTINGS, ...opts.settings };
  // read (and checked) whether or not they are needed: a bad value is an error every time
  const maxBytes = opts.maxCacheBytes ?? cacheMaxBytes();
  const waitMs = opts.lockWaitMs ?? lockWaitFromEnv();
  if (!opts.force) {
    const cached = loadCodeIndex(opts.cacheDir, commit, settings);
    if (cached) return { codeIndex: cached, built: false };
  }
  const what = `the index of ${commit.slice(0, 12)}`;
  const refused = (code: string) => `cache folder ${opts.cacheDir} cannot take ${what} (${code}): answered from memory, not saved (built again next time)`;
  // the cache cannot take it: built in memory, no lock held (nothing is written)
  const unsaved = async (code: string) => {
    const { buildFromTree } = await import('./build-tree.js');
    const { codeIndex } = await buildFromTree(repo, commit, settings, opts);
    warnCacheNotSaved(refused(code), code, opts.onWarning);
    return { codeIndex, built: true };
  };
  const lockDir = join(opts.cacheDir, 'index');
  try {
    mkdirSync(lockDir, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (opts.answerUnsaved && cacheCannotTake(e)) return unsaved(code!);
    throw new IssuelocError(`cache folder ${opts.cacheDir} is not writable (${code}): cannot build ${what} there; use --cache-dir or ISSUELOC_CACHE_DIR`);
  }
  try {
    return await withBuildLock(lockDir, { what, waitMs }, async () => {
      opts.signal?.throwIfAborted();
      if (!opts.force) {
        const cached = loadCodeIndex(opts.cacheDir, commit, settings);
        if (cached) return { codeIndex: cached, built: false };
      }
      // the parsers (tree-sitter and the extractors) loaded only when a build runs: a cached index needs none
      const { buildFromTree } = await import('./build-tree.js');
      const { codeIndex, blobBytes } = await buildFromTree(repo, commit, settings, opts);
      opts.signal?.throwIfAborted();
      const missing = codeIndex.stats.skipped.missing ?? 0;
      if (missing > 0) {
        warnCacheNotSaved(`${missing} file${missing === 1 ? '' : 's'} of ${commit.slice(0, 12)} could not be read from git (missing from its object store, as in a partial clone): ` +
          `answered without ${missing === 1 ? 'it' : 'them'}; ${what} is not saved (built again next time); ` +
          `fetch them with \`git -C ${repo.path} fetch --refetch --no-filter\`, or clone without --filter`, undefined, opts.onWarning);
        return { codeIndex, built: true };
      }
      const saved = [indexFilePath(opts.cacheDir, commit, settings), indexFilePath(opts.cacheDir, commit, settings, 'file')];
      if (codeIndex.nonSource) saved.push(indexFilePath(opts.cacheDir, commit, settings, 'nonSource'));
      try {
        saveCodeIndex(opts.cacheDir, codeIndex);
      } catch (e) {
        if (!opts.answerUnsaved || !cacheCannotTake(e)) throw e;
        // the parts written before the failure (each whole: written atomically) go too
        for (const f of saved) {
          try { rmSync(f, { force: true }); } catch { /* a read-only folder: nothing was written */ }
        }
        warnCacheNotSaved(refused((e as NodeJS.ErrnoException).code!), e, opts.onWarning);
        return { codeIndex, built: true };
      }
      try {
        trimAfterBuild(opts.cacheDir, maxBytes, blobBytes + saved.reduce((s, f) => s + statSync(f).size, 0), new Set(saved));
      } catch { /* a file that cannot be removed stays; the next build tries again */ }
      return { codeIndex, built: true };
    });
  } catch (e) {
    if (opts.answerUnsaved && e instanceof CacheFolderNotWritable) return unsaved(e.code);
    throw e;
  }
}


/**
 * Runs `use` on the code index of `commit` ({@link indexCommit}). A loaded index reads its term
 * records when `use` first needs them: a corrupt block found then (CorruptCacheFileError: its one
 * warning given, the file removed) has the index rebuilt and `use` run once more, on the rebuilt
 * index (held in memory: no block is read again), so `use` must be safe to run twice. At most one
 * rebuild per call.
 * @throws what {@link indexCommit} and `use` throw.
 */
export async function withCodeIndex<T>(
  repo: GitRepo, commit: string, opts: IndexCommitOptions, use: (opened: { codeIndex: CodeIndex; built: boolean }) => Promise<T>,
): Promise<T> {
  const opened = await indexCommit(repo, commit, opts);
  try {
    return await use(opened);
  } catch (e) {
    if (!(e instanceof CorruptCacheFileError) || opened.built) throw e;
    return use(await indexCommit(repo, commit, opts));
  }
}
