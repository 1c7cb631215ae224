/**
 * The on-disk cache of the commit miner: per repository and settings, what mining each commit
 * gave (a pseudo-issue or the reason it made none). An entry is keyed by the commit's SHA, which
 * fixes its parents, message and trees, so it is right for any history holding that commit: a
 * rewritten (force-pushed) history has other SHAs and never meets the entries of the old one,
 * another base commit reads only its own ancestors' entries. Entries of commits the history log
 * no longer holds are dropped when saving.
 */
import { join, resolve } from 'node:path';
import { isRecord, isStringArray, readCheckedJson, writeCheckedJson } from '../../util/checked-file.js';
import { sha1Hex } from '../../util/sha1.js';

/** A commit the miner kept: everything a pseudo-issue needs, the repository aside. */
export interface MinedEntry {
  parent: string;
  /** Committer time, seconds since the epoch. */
  time: number;
  author: string;
  message: string;
  /** Changed non-test source files the parent has (the positives). */
  files: string[];
  /** Changed non-test source files the parent lacks (added by the commit). */
  added: string[];
  /** Positive functions `path:Qualified.name`. */
  functions: string[];
  /** Their modules `path:TopLevelName`, each once. */
  modules: string[];
  changesTests: boolean;
  /** Positive files whose diff or blobs could not be read (missing blobs). */
  unreadable: string[];
}

/** Per commit: a {@link MinedEntry}, or the reason (a string) it made no pseudo-issue. */
export type CacheValue = MinedEntry | string;

interface MinedCacheFile {
  format: 1;
  settings: string;
  entries: Record<string, CacheValue>;
}

const TAG = 'mined.v1';

/** `<cacheDir>/history/mined-<digest of the repository path and the settings>.json`. */
export function minedCacheFile(cacheDir: string, repoPath: string, settings: string): string {
  const digest = sha1Hex(`${resolve(repoPath)}\0${settings}`).slice(0, 16);
  return join(cacheDir, 'history', `mined-${digest}.json`);
}

function isEntry(v: unknown): v is CacheValue {
  if (typeof v === 'string') return true;
  return isRecord(v) && typeof v.parent === 'string' && Number.isInteger(v.time) && typeof v.author === 'string' && typeof v.message === 'string' &&
    isStringArray(v.files) && isStringArray(v.added) && isStringArray(v.functions) && isStringArray(v.modules) && typeof v.changesTests === 'boolean' && isStringArray(v.unreadable);
}

function isCacheFile(x: unknown, settings: string): x is MinedCacheFile {
  return isRecord(x) && x.format === 1 && x.settings === settings && isRecord(x.entries) && Object.values(x.entries).every(isEntry);
}

/** The mined commits of one repository under one set of settings (see the module comment). */
export class MinedCache {
  private constructor(private readonly file: string | undefined, private readonly settings: string, readonly entries: Map<string, CacheValue>) {}

  /** Loads the cache (an empty one when `cacheDir` is absent, or the file is missing, corrupt or of other settings). */
  static load(cacheDir: string | undefined, repoPath: string, settings: string): MinedCache {
    const file = cacheDir === undefined ? undefined : minedCacheFile(cacheDir, repoPath, settings);
    const data = file ? readCheckedJson(file, TAG, (x): x is MinedCacheFile => isCacheFile(x, settings)) : undefined;
    return new MinedCache(file, settings, new Map(Object.entries(data?.entries ?? {})));
  }

  /**
   * Saves the entries of the commits `keep` accepts (atomically); a cache folder that cannot
   * take it costs one warning line, never the run.
   */
  save(keep: (sha: string) => boolean): void {
    if (!this.file) return;
    const entries: Record<string, CacheValue> = {};
    for (const [sha, v] of this.entries) if (keep(sha)) entries[sha] = v;
    try {
      writeCheckedJson(this.file, TAG, { format: 1, settings: this.settings, entries } satisfies MinedCacheFile, { fsync: false });
    } catch (e) {
      process.stderr.write(`issueloc: warning: cannot save the mined-commits cache ${this.file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); commits are mined again next time\n`);
    }
  }
}
