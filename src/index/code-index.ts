import { join } from 'node:path';
import { extractorOf } from '../corpus/extract-specs.js';
import { IdCounts, IndexBuilder, type InvertedIndex, type TermCounts } from './inverted-index.js';
import { readIndexFile, writeIndexFile } from './store.js';
import { UnitTable, type IndexedUnit } from './unit-table.js';
import type { UnitTerms } from './blob-terms.js';
import { tokenize } from '../text/tokenize.js';
import { firstWords } from '../text/first-words.js';
import { isRecord, isStringArray, warnCorruptCacheFile } from '../util/checked-file.js';
import { sha1Hex } from '../util/sha1.js';

/**
 * The BM25F fields of every document, in index order:
 * - `path`: the file path's tokens (`sympy/core/basic.py` → sympy, core, basic, py);
 * - `name`: the qualified name's tokens (`Basic.subs` → basic, subs; the file name for files);
 * - `body`: the file path, then the unit's source text cut to `maxBodyWords` whitespace-separated
 *   words (the document of the reference evaluator ref_eval.py, docs/benchmark-gold.md: path + "\n" + source).
 */
export const FIELDS = ['path', 'name', 'body'] as const;

/** Settings that change what is indexed; part of the cache key. */
export interface IndexSettings {
  /** Words of a unit's source kept for its body field (the SweRank protocol cuts at ~1024 tokens). */
  maxBodyWords: number;
  /** Index test files too (default false: the SweRank corpus is non-test files only). */
  includeTests: boolean;
  /** Files larger than this many bytes are skipped and counted. */
  maxFileBytes: number;
  /** Porter-stem every token. */
  stem: boolean;
  /** Words of each whole file kept for the file-level index (0 = all). */
  maxFileWords: number;
  /** Languages to index (names of src/corpus/languages.ts); empty = every language. */
  languages: string[];
  /**
   * `source` (default): source files only, as the SweRank protocol's corpus; `all`: also the files
   * that are not source code (manifests, changelogs, docs, configuration: `selectNonSources`),
   * each one whole-file document of {@link CodeIndex.nonSource}, never a unit.
   */
  files: FileSelection;
}

/** Which files the code index holds (see {@link IndexSettings.files}). */
export type FileSelection = 'source' | 'all';

/** The values of {@link FileSelection}. */
export const FILE_SELECTIONS: readonly FileSelection[] = ['source', 'all'];

export const DEFAULT_INDEX_SETTINGS: IndexSettings = {
  maxBodyWords: 1024,
  includeTests: false,
  maxFileBytes: 1 << 20,
  stem: false,
  maxFileWords: 0,
  languages: [],
  files: 'source',
};

export type { IndexedUnit } from './unit-table.js';

/** Counts of what indexing passed over or did, per commit. */
export interface CorpusStats {
  files: number;
  units: number;
  skipped: Record<string, number>;
  parsedBlobs: number;
  cachedBlobs: number;
}

/**
 * Header stored with an index file. The unit table ({@link UnitTable}) is the file's aux words
 * (src/index/store.ts), column after column, D documents: fileOfUnit (D), info (D: kind code
 * 0 file, 1 class, 2 function, plus 4 × namespaceParts), startLine (D), endLine (D), nameStart
 * (D + 1); the qualified names are the file's bytes (UTF-8, one after the other).
 */
export interface CodeIndexMeta {
  format: 3;
  commit: string;
  settings: IndexSettings;
  stats: CorpusStats;
}

/**
 * A loaded index of one commit: the function-level inverted index with its documents' units,
 * and the file-level index (one document per source file, the whole file as body) with the
 * file of each unit.
 */
export interface CodeIndex {
  commit: string;
  settings: IndexSettings;
  index: InvertedIndex;
  /** The function-level documents as columns: read these (no object per document). */
  table: UnitTable;
  /**
   * The documents as objects, made whole on first read of a loaded index (`table.toArray()`):
   * for callers that pass over all of them; a query reads {@link table}.
   */
  readonly units: readonly IndexedUnit[];
  fileIndex: InvertedIndex;
  /** Path of each file-level document. */
  filePaths: string[];
  /** fileOfUnit[u] = the file-level document of unit u. */
  fileOfUnit: Uint32Array;
  /**
   * The files that are not source code, when `settings.files` is `all`: one document each (path,
   * file name, whole text as body, fields `FIELDS`), in an index of their own, so the statistics
   * and scores of the source files stay as they are without them (src/retrieve/non-source.ts).
   */
  nonSource?: { index: InvertedIndex; paths: string[] };
  stats: CorpusStats;
}

/**
 * Version of blob-level results (extraction + tokenization); bump to invalidate blob caches.
 * v5: snake_case parts kept whole (`GitHub_token_v2` → also `github`, `v2`); the text of a unit on
 * a long (minified) line is its own source range. v6: more units outside Python (object-literal
 * methods, `macro_rules!`, C/C++ behind macros, declarations in headers; `extract-specs.ts`).
 * v7: units inside C++ namespaces, Rust inline `mod`s and TS namespaces carry `namespaceParts`
 * (their module is their top-level class or function, not the namespace).
 * v8: no parse while a grammar loads (src/corpus/extract.ts): files extracted while another
 * language's grammar loaded in the same process could lose their units, and caches may hold them.
 * v9: a lone CR is no line break (src/corpus/decode.ts): unit lines are git's.
 * v10: an entry holds its key (blob id, language, grammar) and is refused under another.
 * v11: the functions inside JavaScript AMD factories (`define([...], function () {...})`) are units.
 * v12: entries in bytes, each term once per entry (src/index/blob-entry.ts), in `.bin` files.
 * (Changes of one language's units bump its spec's `version` instead: src/corpus/extract-specs.ts.)
 */
export const BLOB_FORMAT_VERSION = 'v12';
/**
 * Version of the index files (document choice, fields, the tokens of paths and names); bump to
 * invalidate saved indexes. v7: snake_case parts kept whole; checked files (src/util/checked-file.ts).
 * v8: test-file rules for Rust `tests.rs`, Kotlin Multiplatform / Gradle test source sets, tsd
 * `*.test-d.ts`, C/C++ `*_tests.cpp` (src/corpus/languages.ts). v9: units carry `namespaceParts`
 * (a sixth entry in the unit table when not 0). v10: build outputs left out (`buildOutputs`,
 * src/corpus/select.ts). v11: the stored index is used as it lies (sorted term dictionary, varint
 * postings decoded per term, binary unit table: src/index/store.ts). v12: the unit table as
 * columns with the qualified names as UTF-8 bytes, read without an object per unit (src/index/unit-table.ts).
 * v13: Rust test-only items give no units (the Rust spec's `version` 2; other languages' blob
 * cache entries stay). v14: files of checked blocks, the term records read per block when a
 * query needs them (src/index/store.ts). v15: Rust `#[rstest]`, `#[test_case(…)]` and the like are
 * test-only too (the Rust spec's `version` 3).
 */
export const INDEX_FORMAT_VERSION = 'v15';

const digest = (parts: unknown[]) => sha1Hex(JSON.stringify(parts)).slice(0, 10);

/** Digest of the settings that change blob-level results. */
export function blobSettingsKey(s: IndexSettings): string {
  return digest([BLOB_FORMAT_VERSION, s.maxBodyWords, s.includeTests, s.maxFileBytes, s.stem, s.maxFileWords]);
}

/**
 * Digest of every setting that changes an index (not the commit). `files` counts only when it is
 * not `source`, so the keys of source-only indexes are those they had before it existed.
 */
export function settingsKey(s: IndexSettings): string {
  const parts: unknown[] = [INDEX_FORMAT_VERSION, blobSettingsKey(s), [...s.languages].sort()];
  if ((s.files ?? 'source') !== 'source') parts.push(s.files);
  return digest(parts);
}

/**
 * Path of the index file of `commit` under a cache folder (`level` file: the file-level index;
 * `nonSource`: the documents of the files that are not source code; `generated`: which of its
 * source files say they were generated, src/retrieve/peripheral.ts; `names`: the documents of each
 * name, src/retrieve/unit-lookup.ts).
 */
export function indexFilePath(cacheDir: string, commit: string, s: IndexSettings, level: 'function' | 'file' | 'nonSource' | 'generated' | 'names' = 'function'): string {
  const suffix = level === 'file' ? '.files' : level === 'nonSource' ? '.nonsource' : level === 'generated' ? '.generated' : level === 'names' ? '.names' : '';
  return join(cacheDir, 'index', `${commit}.${settingsKey(s)}${suffix}.bin`);
}

/**
 * Version of the bytes of blob cache entries (src/index/blob-entry.ts) when they change and the
 * units and terms they hold do not: part of the blob cache folder's name alone, so the saved
 * indexes and the caches keyed by {@link BLOB_FORMAT_VERSION} (the history's commit miner) stay
 * valid. 2: entries hold each function's name terms (`UnitTerms.nameTerms`).
 */
export const BLOB_ENTRY_VERSION = 2;

/** Folder of the blob-level cache under a cache folder. */
export function blobCacheDir(cacheDir: string, s: IndexSettings): string {
  return join(cacheDir, `blobs-${blobSettingsKey(s)}.e${BLOB_ENTRY_VERSION}`);
}

const counts = (tokens: string[]): Map<string, number> => {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
};

/** The body field of a unit: its text cut to `maxWords` words (0 = all), tokenized and counted. */
export function bodyTerms(text: string, maxWords: number, stem: boolean): { body: [string, number][]; bodyLength: number } {
  const cut = maxWords > 0 ? firstWords(text, maxWords) : text;
  const tokens = tokenize(cut, { stem });
  return { body: [...counts(tokens)], bodyLength: tokens.length };
}

/**
 * Freezes the units of the source files of one commit into the function-level and file-level
 * indexes.
 * @param files source files in path order, each with its units (file unit and classes/functions).
 *
 * Function-level documents: every function of a file whose language has a grammar
 * (src/corpus/extract-specs.ts), as in the SweRank / LocAgent protocol; a file in a language
 * without one is a single document, cut like a function body, so it can still be found. Classes
 * without functions and files of top-level code only are not function-level documents: on
 * SWE-bench Lite they took the top places of many issues' rankings (django's migration classes)
 * and no protocol gold function is among them (+2.0 points, docs/results.md); they remain
 * in the file-level index, which feeds the file prior and ranks function-less files at the file
 * level (`Localizer`, src/retrieve/whole-files.ts). File-level documents: every file, its
 * whole text as body.
 */
export function buildCodeIndex(
  commit: string,
  settings: IndexSettings,
  files: readonly { path: string; units: readonly UnitTerms[] }[],
  stats: Omit<CorpusStats, 'units'>,
  nonSourceFiles?: readonly { path: string; text: UnitTerms }[],
): CodeIndex {
  const builder = new IndexBuilder(FIELDS);
  const fileBuilder = new IndexBuilder(FIELDS);
  const units: IndexedUnit[] = [];
  const fileOf: number[] = [];
  const filePaths: string[] = [];
  for (const { path, units: fileUnits } of files) {
    const pathTerms = counts(tokenize(path, { stem: settings.stem }));
    const fileName = path.slice(path.lastIndexOf('/') + 1);
    const fileNameTerms = counts(tokenize(fileName, { stem: settings.stem }));
    const fileUnit = fileUnits.find((u) => u.kind === 'file');
    const fileDoc = filePaths.length;
    filePaths.push(path);
    fileBuilder.addSummed([[pathTerms], [fileNameTerms], [fileUnit?.body ?? []]], [
      sumOf(pathTerms), sumOf(fileNameTerms), fileUnit?.bodyLength ?? 0,
    ]);
    const docs = extractorOf(path) === 'file'
      ? (fileUnit ? [cutBody(fileUnit, settings.maxBodyWords)] : [])
      : fileUnits.filter((u) => u.kind === 'function');
    docs.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
    const pathLength = sumOf(pathTerms);
    for (const u of docs) {
      const nameTerms = u.kind === 'file' ? fileNameTerms : u.nameTerms ?? counts(tokenize(u.qualifiedName, { stem: settings.stem }));
      // the body field: the path's terms, then the unit's (a term in both counted in one)
      builder.addSummed([[pathTerms], [nameTerms], [pathTerms, u.body]], [pathLength, sumOf(nameTerms), pathLength + u.bodyLength]);
      units.push({ path, kind: u.kind, qualifiedName: u.qualifiedName, ...(u.namespaceParts ? { namespaceParts: u.namespaceParts } : {}), startLine: u.startLine, endLine: u.endLine });
      fileOf.push(fileDoc);
    }
  }
  const fileOfUnit = Uint32Array.from(fileOf);
  return {
    commit, settings, index: builder.build(), table: UnitTable.of(units, filePaths, fileOfUnit), units,
    fileIndex: fileBuilder.build(), filePaths, fileOfUnit,
    ...(nonSourceFiles ? { nonSource: buildNonSourceIndex(nonSourceFiles, settings.stem) } : {}),
    stats: { ...stats, units: units.length },
  };
}

/**
 * The index of the files that are not source code ({@link CodeIndex.nonSource}): per file, its
 * path's tokens, its file name's tokens and its whole text (`text`: its file unit's terms).
 */
function buildNonSourceIndex(files: readonly { path: string; text: UnitTerms }[], stem: boolean): { index: InvertedIndex; paths: string[] } {
  const builder = new IndexBuilder(FIELDS);
  const paths: string[] = [];
  for (const { path, text } of files) {
    const pathTerms = counts(tokenize(path, { stem }));
    const nameTerms = counts(tokenize(path.slice(path.lastIndexOf('/') + 1), { stem }));
    builder.addSummed([[pathTerms], [nameTerms], [text.body]], [sumOf(pathTerms), sumOf(nameTerms), text.bodyLength]);
    paths.push(path);
  }
  return { index: builder.build(), paths };
}

/** A unit whose body counts are scaled down proportionally to a length of `maxWords` tokens. */
function cutBody(u: UnitTerms, maxWords: number): UnitTerms {
  if (maxWords <= 0 || u.bodyLength <= maxWords) return u;
  const scale = maxWords / u.bodyLength;
  const body: [string, number][] = [];
  for (const [t, c] of u.body) {
    const n = Math.round(c * scale);
    if (n > 0) body.push([t, n]);
  }
  return { ...u, body, bodyLength: maxWords };
}

/** The sum of the counts of `terms` (the tokens they were counted from). */
function sumOf(terms: TermCounts): number {
  let s = 0;
  if (terms instanceof IdCounts) {
    const { entries } = terms;
    for (let k = 1; k < entries.length; k += 2) s += entries[k];
  } else if (Array.isArray(terms)) {
    for (const [, v] of terms as readonly (readonly [string, number])[]) s += v;
  } else {
    for (const v of (terms as ReadonlyMap<string, number>).values()) s += v;
  }
  return s;
}

/** Writes a code index to its file under `cacheDir` (atomically). */
export function saveCodeIndex(cacheDir: string, ci: CodeIndex): string {
  const { fileOfUnit, info, startLine, endLine, nameStart, names } = ci.table.columns;
  const D = ci.table.length;
  const words = new Uint32Array(5 * D + 1);
  [fileOfUnit, info, startLine, endLine, nameStart].forEach((column, k) => words.set(column, k * D));
  const meta: CodeIndexMeta = { format: 3, commit: ci.commit, settings: ci.settings, stats: ci.stats };
  // The file-level (and non-source) index first: a reader finding the function-level file finds them all.
  writeIndexFile(indexFilePath(cacheDir, ci.commit, ci.settings, 'file'), ci.fileIndex, { filePaths: ci.filePaths });
  if (ci.nonSource) writeIndexFile(indexFilePath(cacheDir, ci.commit, ci.settings, 'nonSource'), ci.nonSource.index, { paths: ci.nonSource.paths });
  const file = indexFilePath(cacheDir, ci.commit, ci.settings);
  writeIndexFile(file, ci.index, meta, words, names);
  return file;
}

/**
 * Loads the code index of `commit` from `cacheDir`, verified (the heads' checksums, structure,
 * and that the files belong to `commit` and `settings`); opening marks the files used
 * (src/index/cache-usage.ts). The term records are read when first needed, each block verified
 * then: a corrupt one throws CorruptCacheFileError (src/util/checked-file.ts) from the lookup or
 * query reading it, after its one warning line; the caller drops the index and rebuilds it
 * (`withCodeIndex`, src/index/index-commit.ts).
 * @returns undefined when there is none, or when a file is corrupt (one warning line names it;
 *   the caller rebuilds it).
 */
export function loadCodeIndex(cacheDir: string, commit: string, settings: IndexSettings): CodeIndex | undefined {
  const file = indexFilePath(cacheDir, commit, settings);
  const fileLevel = indexFilePath(cacheDir, commit, settings, 'file');
  const fn = readIndexFile(file, isCodeIndexMeta);
  if (!fn) return undefined;
  const opened: { close(): void }[] = [fn];
  const fail = (corrupt?: string) => {
    for (const f of opened) f.close();
    if (corrupt) warnCorruptCacheFile(corrupt);
    return undefined;
  };
  const files = readIndexFile(fileLevel, isFileLevelMeta);
  if (!files) return fail();
  opened.push(files);
  const nonSourceFile = indexFilePath(cacheDir, commit, settings, 'nonSource');
  const nonSource = settings.files === 'all' ? readIndexFile(nonSourceFile, isNonSourceMeta) : undefined;
  if (nonSource) opened.push(nonSource);
  if (settings.files === 'all' && (!nonSource || nonSource.meta.paths.length !== nonSource.index.docCount)) {
    return fail(nonSource ? nonSourceFile : undefined);
  }
  const { index, meta, aux: words, extra: names } = fn;
  const { filePaths } = files.meta;
  const D = index.docCount;
  if (meta.commit !== commit || settingsKey(meta.settings) !== settingsKey(settings) || words.length !== 5 * D + 1 ||
      filePaths.length !== files.index.docCount) {
    return fail(file);
  }
  const column = (k: number, n = D) => words.subarray(k * D, k * D + n);
  const table = new UnitTable(filePaths, {
    fileOfUnit: column(0), info: column(1), startLine: column(2), endLine: column(3), nameStart: column(4, D + 1), names,
  });
  if (!table.valid()) return fail(file);
  return {
    commit: meta.commit, settings: meta.settings, index, table,
    get units() { return table.toArray(); },
    fileIndex: files.index, filePaths, fileOfUnit: table.fileOfUnit,
    ...(nonSource ? { nonSource: { index: nonSource.index, paths: nonSource.meta.paths } } : {}),
    stats: meta.stats,
  };
}

function isCodeIndexMeta(m: unknown): m is CodeIndexMeta {
  return isRecord(m) && m.format === 3 && typeof m.commit === 'string' && isRecord(m.settings) && isStringArray(m.settings.languages) &&
    isRecord(m.stats);
}

function isNonSourceMeta(m: unknown): m is { paths: string[] } {
  return isRecord(m) && isStringArray(m.paths);
}

function isFileLevelMeta(m: unknown): m is { filePaths: string[] } {
  return isRecord(m) && isStringArray(m.filePaths);
}
