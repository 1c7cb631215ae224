/**
 * Building the code index of a commit from its tree (src/index/index-commit.ts loads this module
 * only when no cached index serves): the blobs missing from the blob cache are read, parsed and
 * tokenized.
 */
import type { GitRepo } from '../repo/git.js';
import { isBinary, decodeSource } from '../corpus/decode.js';
import { extractorKey, extractUnitSpans, fileUnit } from '../corpus/extract.js';
import { specFor } from '../corpus/extract-specs.js';
import { languageOf } from '../corpus/languages.js';
import { selectNonSources, selectSources } from '../corpus/select.js';
import { BlobTermsCache, type UnitTerms } from './blob-terms.js';
import { UnitBodyCounter } from './unit-bodies.js';
import { blobCacheDir, bodyTerms, buildCodeIndex, type CodeIndex, type IndexSettings } from './code-index.js';

/** Options of {@link buildFromTree} (those of `indexCommit` that shape a build). */
export interface BuildTreeOptions {
  cacheDir: string;
  /** Re-parse every blob (blob entries are rewritten). */
  force?: boolean;
  /** Called as blobs are processed: (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** Checked before each blob: the build stops with its reason. */
  signal?: AbortSignal;
}

/**
 * The blob cache key of a file: its blob and language, plus its extractor when that is not the
 * language's usual one (`.tsx` parses with the TSX grammar, `.h` with C++'s), so the same bytes
 * under two grammars never share cached units (a ranking never depends on which path the cache
 * saw first). Other keys are as they were, so their cached entries stay valid.
 */
function blobKey(blob: string, path: string): string {
  const language = languageOf(path);
  const extractor = extractorKey(path);
  return extractor === (specFor('', language)?.grammar ?? 'file') ? `${blob}${language}` : `${blob}${language}:${extractor}`;
}

/** Builds the index of `commit`; `blobBytes`: what the new blob entries take on disk. */
export async function buildFromTree(repo: GitRepo, commit: string, settings: IndexSettings, opts: BuildTreeOptions): Promise<{ codeIndex: CodeIndex; blobBytes: number }> {
  const { entries, skipped: treeSkipped } = await repo.listTree(commit);
  const selection = selectSources(entries, settings);
  const skipped: Record<string, number> = { ...selection.skipped, symlinks: treeSkipped.symlinks, submodules: treeSkipped.submodules, binary: 0, missing: 0 };
  const sources = selection.sources.map((s) => s.entry);
  const cache = new BlobTermsCache(blobCacheDir(opts.cacheDir, settings));
  const unitsOf = new Map<string, UnitTerms[]>();
  // one term dictionary for the units read from the cache and those parsed
  const counter = new UnitBodyCounter(settings.stem);
  const toParse: typeof sources = [];
  for (const e of sources) {
    const key = blobKey(e.blob, e.path);
    // read into the build's dictionary as it is read (no pair arrays kept)
    const hit = opts.force ? undefined : cache.getByIds(key, counter);
    if (!hit) toParse.push(e);
    else if (hit.length === 0) skipped.binary++; // cached as binary: a text file has at least its file unit
    else unitsOf.set(e.path, hit);
  }
  // with `files: all` the files that are not source code are read after the source files: the progress covers both
  const nonSources = settings.files === 'all' ? selectNonSources(entries, settings) : undefined;
  const total = sources.length + (nonSources?.length ?? 0);
  let done = sources.length - toParse.length;
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
      const units = await extractUnitSpans(e.path, text, undefined, { testItems: settings.includeTests });
      const bodies = counter.unitBodies(text, units.map((u) => ({ from: u.from, to: u.to, maxWords: u.kind === 'file' ? settings.maxFileWords : settings.maxBodyWords })));
      const terms: UnitTerms[] = units.map((u, i) => ({
        kind: u.kind, qualifiedName: u.qualifiedName, ...(u.namespaceParts ? { namespaceParts: u.namespaceParts } : {}),
        startLine: u.startLine, endLine: u.endLine, ...bodies[i],
        ...(u.kind === 'function' ? { nameTerms: counter.nameTerms(u.qualifiedName) } : {}),
      }));
      cache.set(blobKey(e.blob, e.path), terms);
      unitsOf.set(e.path, terms);
      if (done % 50 === 0) opts.onProgress?.(done, total);
    }
  }
  opts.onProgress?.(done, total);
  const files = sources.filter((e) => unitsOf.has(e.path)).map((e) => ({ path: e.path, units: unitsOf.get(e.path)! }));
  const nonSource = nonSources && await nonSourceTerms(repo, nonSources, settings, cache, opts.force === true, {
    signal: opts.signal, onProgress: (n) => opts.onProgress?.(done + n, total),
  });
  opts.onProgress?.(total, total);
  opts.signal?.throwIfAborted();
  const codeIndex = buildCodeIndex(commit, settings, files, {
    files: files.length,
    skipped,
    parsedBlobs: pathsOfBlob.size + (nonSource?.read ?? 0),
    cachedBlobs: cache.hits,
  }, nonSource?.files);
  return { codeIndex, blobBytes: cache.bytesWritten };
}

/**
 * The whole-text terms of the files `chosen` of a tree that are not source code
 * (`selectNonSources`), in listing order; binary and unreadable files are left out. Blob cache
 * entries are keyed `<blob>:text`, apart from any language's. `read`: the blobs read from git (not
 * in the cache); `onProgress(n)`: n of `chosen` done.
 */
async function nonSourceTerms(
  repo: GitRepo, chosen: ReturnType<typeof selectNonSources>, settings: IndexSettings, cache: BlobTermsCache, force: boolean,
  opts: { signal?: AbortSignal; onProgress?: (done: number) => void },
): Promise<{ files: { path: string; text: UnitTerms }[]; read: number }> {
  const { signal } = opts;
  const termsOf = new Map<string, UnitTerms | null>();
  const toRead = new Set<string>();
  const pathsOf = new Map<string, number>();
  for (const e of chosen) {
    pathsOf.set(e.blob, (pathsOf.get(e.blob) ?? 0) + 1);
    if (termsOf.has(e.blob)) continue;
    const hit = force ? undefined : cache.get(`${e.blob}:text`);
    if (hit) termsOf.set(e.blob, hit[0] ?? null);
    else toRead.add(e.blob);
  }
  let done = 0;
  for (const [blob, n] of pathsOf) if (!toRead.has(blob)) done += n;
  opts.onProgress?.(done);
  for await (const [blob, buf] of repo.readBlobs([...toRead])) {
    signal?.throwIfAborted();
    const before = done;
    done += pathsOf.get(blob) ?? 0;
    if (Math.floor(done / 50) > Math.floor(before / 50)) opts.onProgress?.(done);
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
  const files = chosen.flatMap((e) => {
    const text = termsOf.get(e.blob);
    return text ? [{ path: e.path, text }] : [];
  });
  return { files, read: toRead.size };
}
