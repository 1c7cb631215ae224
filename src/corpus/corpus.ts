import type { GitRepo, TreeEntry } from '../repo/git.js';
import { decodeSource, isBinary, sourceEncoding } from './decode.js';
import { extractorOf, extractUnits } from './extract.js';
import type { Language } from './languages.js';
import { selectSources, type SelectionSkipped, type SelectOptions } from './select.js';
import type { CodeUnit } from './types.js';

/**
 * Parsed units by blob SHA, so a nearby commit only parses the blobs that changed. The cached
 * units carry the path they were parsed under; {@link buildCorpus} re-paths them when the same
 * blob sits at another path.
 */
export interface BlobUnitCache {
  get(blob: string): CodeUnit[] | undefined;
  set(blob: string, units: CodeUnit[]): void;
}

/** Options of {@link buildCorpus}. */
export interface CorpusOptions extends SelectOptions {
  /** Units by blob hash, read before parsing and filled after. */
  cache?: BlobUnitCache;
  /** Called as files are done: `(done, total)` over the source files to read. */
  onProgress?: (done: number, total: number) => void;
}

/** One source file of the corpus. */
export interface CorpusFile {
  path: string;
  blob: string;
  language: Language;
}

/** Files left out, by reason (counts). */
export interface CorpusSkipped extends SelectionSkipped {
  /** NUL byte in the first 8000 bytes. */
  binary: number;
  /** Blob absent from the object store (snapshots lack blobs of 4 MiB or more). */
  missing: number;
  symlinks: number;
  submodules: number;
}

/** The code units of one commit. */
export interface Corpus {
  commit: string;
  /** File units and their class/function units, in path order, then line order within a file. */
  units: CodeUnit[];
  files: CorpusFile[];
  skipped: CorpusSkipped;
  /** Files that were not valid UTF-8 and were read as windows-1252 (kept, not skipped). */
  decodedAsWindows1252: number;
  /** Files whose units came from the cache rather than a parse. */
  cachedFiles: number;
}

export { DEFAULT_MAX_FILE_BYTES } from './select.js';

/**
 * Builds the corpus of `commit`: every source file of its tree (by extension, tests left out by
 * default) cut into file, class and function units with tree-sitter (`extractUnits`).
 *
 * Blobs are read through the repository's one `git cat-file --batch` process, pipelined; blobs
 * found in `opts.cache` are not read at all. Symlinks, submodules, non-source, test, binary,
 * oversized and missing files are counted in `skipped`, never fatal; text with a UTF-16
 * byte-order mark is decoded as UTF-16, other non-UTF-8 text as windows-1252 (`decodeSource`).
 *
 * @param commit a full commit SHA (see `GitRepo.resolveCommit`).
 * @throws IssuelocError when the tree cannot be listed or git stops unexpectedly.
 */
export async function buildCorpus(repo: GitRepo, commit: string, opts: CorpusOptions = {}): Promise<Corpus> {
  const listing = await repo.listTree(commit);
  const selection = selectSources(listing.entries, opts);
  const skipped: CorpusSkipped = {
    binary: 0, missing: 0, ...selection.skipped,
    symlinks: listing.skipped.symlinks, submodules: listing.skipped.submodules,
  };
  const { sources } = selection;

  const total = sources.length;
  let done = 0;
  const unitsByPath = new Map<string, CodeUnit[]>();
  const toRead = new Map<string, { entry: TreeEntry; language: Language }[]>();
  let cachedFiles = 0;
  for (const s of sources) {
    const hit = opts.cache?.get(s.entry.blob);
    if (hit && hit.length > 0 && extractorOf(hit[0].path) === extractorOf(s.entry.path)) {
      unitsByPath.set(s.entry.path, repath(hit, s.entry.path));
      cachedFiles++;
      done++;
    } else {
      const same = toRead.get(s.entry.blob);
      if (same) same.push(s);
      else toRead.set(s.entry.blob, [s]);
    }
  }
  opts.onProgress?.(done, total);

  let decodedAsWindows1252 = 0;
  for await (const [blob, buf] of repo.readBlobs([...toRead.keys()])) {
    const parsed = new Map<string, CodeUnit[]>(); // by extractor: one parse per blob and grammar
    for (const s of toRead.get(blob)!) {
      done++;
      if (buf === null) skipped.missing++;
      else if (isBinary(buf)) skipped.binary++;
      else {
        if (sourceEncoding(buf) === 'windows-1252') decodedAsWindows1252++;
        const key = extractorOf(s.entry.path);
        const earlier = parsed.get(key);
        if (earlier) {
          unitsByPath.set(s.entry.path, repath(earlier, s.entry.path));
        } else {
          const units = await extractUnits(s.entry.path, decodeSource(buf));
          if (parsed.size === 0) opts.cache?.set(blob, units);
          parsed.set(key, units);
          unitsByPath.set(s.entry.path, units);
        }
      }
      if (done % 64 === 0) opts.onProgress?.(done, total);
    }
  }
  opts.onProgress?.(total, total);

  const files: CorpusFile[] = [];
  const units: CodeUnit[] = [];
  for (const s of sources) {
    const fileUnits = unitsByPath.get(s.entry.path);
    if (!fileUnits) continue;
    files.push({ path: s.entry.path, blob: s.entry.blob, language: s.language });
    for (const u of fileUnits) units.push(u);
  }
  return { commit, units, files, skipped, decodedAsWindows1252, cachedFiles };
}

/** The same units under another path (ids rebuilt; text and spans unchanged). */
export function repath(units: readonly CodeUnit[], path: string): CodeUnit[] {
  if (units.length === 0 || units[0].path === path) return units.slice();
  return units.map((u) => ({ ...u, path, id: u.kind === 'file' ? path : `${path}:${u.qualifiedName}` }));
}
