import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GitRepo } from '../repo/git.js';
import { IssuelocError } from '../errors.js';
import { isBinary, decodeSource } from '../corpus/decode.js';
import { extractorOf, extractUnits, fileUnit } from '../corpus/extract.js';
import { specFor } from '../corpus/extract-specs.js';
import { languageOf } from '../corpus/languages.js';
import { selectNonSources, selectSources } from '../corpus/select.js';
import { BlobTermsCache, type UnitTerms } from './blob-terms.js';
import {
  blobCacheDir, bodyTerms, buildCodeIndex, DEFAULT_INDEX_SETTINGS, indexFilePath, loadCodeIndex, saveCodeIndex,
  type CodeIndex, type IndexSettings,
} from './code-index.js';
import { lockWaitFromEnv, withBuildLock } from './build-lock.js';
import { cacheMaxBytes, trimAfterBuild } from './cache-usage.js';

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
 * @throws IssuelocError (exit 2) when the cache folder is not writable and the index must be
 *   built, or when the lock cannot be had in time.
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
  const lockDir = join(opts.cacheDir, 'index');
  try {
    mkdirSync(lockDir, { recursive: true });
  } catch (e) {
    throw new IssuelocError(`cache folder ${opts.cacheDir} is not writable (${(e as NodeJS.ErrnoException).code}): cannot build the index of ${commit.slice(0, 12)} there; use --cache-dir or ISSUELOC_CACHE_DIR`);
  }
  return withBuildLock(lockDir, { what: `the index of ${commit.slice(0, 12)}`, waitMs }, async () => {
    opts.signal?.throwIfAborted();
    if (!opts.force) {
      const cached = loadCodeIndex(opts.cacheDir, commit, settings);
      if (cached) return { codeIndex: cached, built: false };
    }
    const { codeIndex, blobBytes } = await buildFromTree(repo, commit, settings, opts);
    opts.signal?.throwIfAborted();
    saveCodeIndex(opts.cacheDir, codeIndex);
    const saved = [indexFilePath(opts.cacheDir, commit, settings), indexFilePath(opts.cacheDir, commit, settings, 'file')];
    if (codeIndex.nonSource) saved.push(indexFilePath(opts.cacheDir, commit, settings, 'nonSource'));
    try {
      trimAfterBuild(opts.cacheDir, maxBytes, blobBytes + saved.reduce((s, f) => s + statSync(f).size, 0), new Set(saved));
    } catch { /* a file that cannot be removed stays; the next build tries again */ }
    return { codeIndex, built: true };
  });
}

/**
 * The blob cache key of a file: its blob and language, plus its extractor when that is not the
 * language's usual one (`.tsx` parses with the TSX grammar, `.h` with C++'s), so the same bytes
 * under two grammars never share cached units (a ranking never depends on which path the cache
 * saw first). Other keys are as they were, so their cached entries stay valid.
 */
function blobKey(blob: string, path: string): string {
  const language = languageOf(path);
  const extractor = extractorOf(path);
  return extractor === (specFor('', language)?.grammar ?? 'file') ? `${blob}${language}` : `${blob}${language}:${extractor}`;
}

/** Builds the index of `commit`; `blobBytes`: what the new blob entries take on disk. */
async function buildFromTree(repo: GitRepo, commit: string, settings: IndexSettings, opts: IndexCommitOptions): Promise<{ codeIndex: CodeIndex; blobBytes: number }> {
  const { entries, skipped: treeSkipped } = await repo.listTree(commit);
  const selection = selectSources(entries, settings);
  const skipped: Record<string, number> = { ...selection.skipped, symlinks: treeSkipped.symlinks, submodules: treeSkipped.submodules, binary: 0, missing: 0 };
  const sources = selection.sources.map((s) => s.entry);
  const cache = new BlobTermsCache(blobCacheDir(opts.cacheDir, settings));
  const unitsOf = new Map<string, UnitTerms[]>();
  const toParse: typeof sources = [];
  for (const e of sources) {
    const key = blobKey(e.blob, e.path);
    const hit = opts.force ? undefined : cache.get(key);
    if (!hit) toParse.push(e);
    else if (hit.length === 0) skipped.binary++; // cached as binary: a text file has at least its file unit
    else unitsOf.set(e.path, hit);
  }
  const total = sources.length;
  let done = total - toParse.length;
  opts.onProgress?.(done, total);
  const pathsOfBlob = new Map<string, typeof sources>();
  for (const e of toParse) {
    const list = pathsOfBlob.get(e.blob) ?? [];
    list.push(e);
    pathsOfBlob.set(e.blob, list);
  }
  for await (const [blob, buf] of repo.readBlobs([...pathsOfBlob.keys()])) {
    opts.signal?.throwIfAborted();
    for (const e of pathsOfBlob.get(blob) ?? []) {
      done++;
      if (buf === null) { skipped.missing++; continue; }
      if (isBinary(buf)) {
        skipped.binary++;
        cache.set(blobKey(e.blob, e.path), []);
        continue;
      }
      const text = decodeSource(buf);
      const units = await extractUnits(e.path, text);
      const terms: UnitTerms[] = units.map((u) => ({
        kind: u.kind, qualifiedName: u.qualifiedName, ...(u.namespaceParts ? { namespaceParts: u.namespaceParts } : {}),
        startLine: u.startLine, endLine: u.endLine,
        ...bodyTerms(u.text, u.kind === 'file' ? settings.maxFileWords : settings.maxBodyWords, settings.stem),
      }));
      cache.set(blobKey(e.blob, e.path), terms);
      unitsOf.set(e.path, terms);
      if (done % 50 === 0) opts.onProgress?.(done, total);
    }
  }
  opts.onProgress?.(total, total);
  const files = sources.filter((e) => unitsOf.has(e.path)).map((e) => ({ path: e.path, units: unitsOf.get(e.path)! }));
  const nonSource = settings.files === 'all' ? await nonSourceTerms(repo, entries, settings, cache, opts.force === true, opts.signal) : undefined;
  opts.signal?.throwIfAborted();
  const codeIndex = buildCodeIndex(commit, settings, files, {
    files: files.length,
    skipped,
    parsedBlobs: pathsOfBlob.size,
    cachedBlobs: cache.hits,
  }, nonSource);
  return { codeIndex, blobBytes: cache.bytesWritten };
}

/**
 * The whole-text terms of the files of a tree that are not source code (`selectNonSources`), in
 * listing order; binary and unreadable files are left out. Blob cache entries are keyed
 * `<blob>:text`, apart from any language's.
 */
async function nonSourceTerms(repo: GitRepo, entries: Parameters<typeof selectNonSources>[0], settings: IndexSettings, cache: BlobTermsCache, force: boolean, signal?: AbortSignal): Promise<{ path: string; text: UnitTerms }[]> {
  const chosen = selectNonSources(entries, settings);
  const termsOf = new Map<string, UnitTerms | null>();
  const toRead = new Set<string>();
  for (const e of chosen) {
    if (termsOf.has(e.blob)) continue;
    const hit = force ? undefined : cache.get(`${e.blob}:text`);
    if (hit) termsOf.set(e.blob, hit[0] ?? null);
    else toRead.add(e.blob);
  }
  for await (const [blob, buf] of repo.readBlobs([...toRead])) {
    signal?.throwIfAborted();
    if (buf === null) { termsOf.set(blob, null); continue; }
    if (isBinary(buf)) {
      termsOf.set(blob, null);
      cache.set(`${blob}:text`, []);
      continue;
    }
    const u = fileUnit('', decodeSource(buf));
    const terms: UnitTerms = { kind: 'file', qualifiedName: '', startLine: u.startLine, endLine: u.endLine, ...bodyTerms(u.text, settings.maxFileWords, settings.stem) };
    termsOf.set(blob, terms);
    cache.set(`${blob}:text`, [terms]);
  }
  return chosen.flatMap((e) => {
    const text = termsOf.get(e.blob);
    return text ? [{ path: e.path, text }] : [];
  });
}
