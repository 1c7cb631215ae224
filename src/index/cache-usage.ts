/**
 * What a cache folder holds, and its size cap with least-recently-used eviction.
 *
 * Entries, by kind (paths under the cache folder):
 * - `index`: the saved index of one commit and settings, `index/<commit>.<key>.bin` with its
 *   file-level `index/<commit>.<key>.files.bin`, with `--files all` the documents of its files
 *   that are not source code `index/<commit>.<key>.nonsource.bin`, and the list of its generated source files
 *   `index/<commit>.<key>.generated.bin` (src/retrieve/peripheral.ts) and its name table
 *   `index/<commit>.<key>.names.bin` (src/retrieve/unit-lookup.ts; one entry, evicted together), and its code graph
 *   `index/<commit>.<key>-graph.bin` (src/graph/graph-store.ts: an entry of its own);
 * - `blobs`: one parsed blob, `blobs-<key>/<aa>/<rest>.bin` (the code graph's facts of a blob:
 *   `blobs-graph1/<aa>/<rest>.json`);
 * - `vectors`: one file's function vectors, `vectors/<model>/<aa>/<rest>.f32`;
 * - `llm`: one LLM answer, `llm/<aa>/<rest>.json`;
 * - `history`: a repository's commit log, `history/<repo>.json`, and the history signals of one
 *   base commit, `history/<repo>-<commit>.m<maxFiles>.bin` (src/history/commit-history.ts), and
 *   its recent co-changes, `history/<repo>-<commit>.cochange-….json` (src/history/co-change.ts);
 * - `partial`: a temporary file left by a process killed while writing (older than an hour).
 * Each entry's last use is its mtime: every verified read marks it (src/util/checked-file.ts).
 * Files of no known kind are never counted nor removed, so a cache folder that is not one
 * (`--cache-dir ~`) loses nothing: an entry is a regular file whose name is one issueloc gives
 * (a hexadecimal key and the kind's extension) and that ends with a checked-file trailer; a
 * symbolic link (a kind's folder or anything under it) is never followed, and a file is removed
 * only when its folder is still inside the real cache folder. `usage.json` holds a running size estimate ({@link trimAfterBuild}).
 */
import { readdirSync, realpathSync, rmdirSync, rmSync, statSync, type Dirent } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { IssuelocError } from '../errors.js';
import { hasCheckedTrailer, isInt, isRecord, readCheckedJson, writeCheckedJson } from '../util/checked-file.js';

/** Default size cap of one cache folder: 2 GiB. */
export const DEFAULT_CACHE_MAX_BYTES = 2 * 1024 ** 3;
/** A temporary file this old is left over from a killed process, not one being written. */
const PARTIAL_AGE_MS = 3_600_000;
/** A size estimate ({@link trimAfterBuild}) is trusted this long after the walk it started from. */
const ESTIMATE_AGE_MS = 600_000;
const USAGE_TAG = 'usage.v1';
/** Name of a temporary file of src/util/atomic-write.ts: `<target>.tmp-<pid>-<random>`. */
const PARTIAL_NAME = /\.tmp-\d+-[0-9a-z]+$/;
/** The end of the name of each file of an index entry: the function-level index, its file-level, non-source, generated-file and name-table parts. */
const INDEX_PART = /(\.files|\.nonsource|\.generated|\.names)?\.bin$/;
/** Names of entry files per kind: a hexadecimal key (history: `mined-<hex>` too, and per base commit) and the kind's extension. */
const ENTRY_NAME: Record<Exclude<CacheKind, 'partial'>, RegExp> = {
  index: new RegExp(`^[0-9a-f]{7,64}\\.[\\w-]+${INDEX_PART.source}`),
  blobs: /^[0-9a-f]{6,}[\w.:+#-]*\.(bin|json)$/,
  vectors: /^[0-9a-f]{6,}\.f32$/,
  llm: /^[0-9a-f]{6,}\.json$/,
  // a repository's log `<repo>.json`; a base commit's signals `<repo>-<commit>.m<N>.bin` and co-changes `<repo>-<commit>.cochange-….json`
  history: /^(mined-)?[0-9a-f]{6,}(-[0-9a-f]{40,64}\.(m\d+\.bin|cochange-[\d-]+\.json))?$|^(mined-)?[0-9a-f]{6,}\.json$/,
};

export const CACHE_KINDS = ['index', 'blobs', 'vectors', 'llm', 'history', 'partial'] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];

/** One evictable entry: its files, their total size, and when it was last used (ms since the epoch). */
export interface CacheEntry {
  kind: CacheKind;
  files: string[];
  bytes: number;
  lastUsed: number;
}

/** Per kind: entries, bytes and the latest use (0 when none). */
export interface CacheSummary {
  kind: CacheKind;
  entries: number;
  bytes: number;
  lastUsed: number;
}

/**
 * `2G`, `500M`, `1.5GiB`, `64k`, `123456` → bytes (units are powers of 1024).
 * @param what the option or variable, for the error.
 * @throws IssuelocError (exit 2) naming `what` for anything else.
 */
export function parseSize(text: string, what: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) throw new IssuelocError(`${what} takes a size such as 500M or 2G, got '${text}'`);
  return Math.floor(Number(m[1]) * 1024 ** ' kmgt'.indexOf(m[2].toLowerCase() || ' '));
}

/**
 * The size cap: `option` (from `--cache-max-size`), else ISSUELOC_CACHE_MAX_SIZE, else 2G.
 * @throws IssuelocError naming the option or variable when it is not a size.
 */
export function cacheMaxBytes(option?: string): number {
  if (option !== undefined) return parseSize(option, '--cache-max-size');
  const env = process.env.ISSUELOC_CACHE_MAX_SIZE;
  return env ? parseSize(env, 'ISSUELOC_CACHE_MAX_SIZE') : DEFAULT_CACHE_MAX_BYTES;
}

/** Every entry of the cache folder `cacheDir` (none when it does not exist). */
export function listCacheEntries(cacheDir: string, now = Date.now()): CacheEntry[] {
  const out: CacheEntry[] = [];
  const indexes = new Map<string, CacheEntry>();
  for (const d of readDirEntries(cacheDir)) {
    const kind = kindOfFolder(d.name);
    if (!kind || !d.isDirectory()) continue; // a link named as a kind's folder is not followed
    walk(join(cacheDir, d.name), (file, name, st) => {
      if (name.includes('.tmp-')) {
        if (PARTIAL_NAME.test(name) && now - st.mtimeMs > PARTIAL_AGE_MS) out.push({ kind: 'partial', files: [file], bytes: st.size, lastUsed: st.mtimeMs });
        return;
      }
      if (!ENTRY_NAME[kind].test(name) || !hasCheckedTrailer(file, st.size)) return; // not a file issueloc wrote
      if (kind !== 'index') {
        out.push({ kind, files: [file], bytes: st.size, lastUsed: st.mtimeMs });
        return;
      }
      if (!name.endsWith('.bin')) return;
      const key = name.replace(INDEX_PART, '');
      const e = indexes.get(key);
      if (e) {
        e.files.push(file);
        e.bytes += st.size;
        e.lastUsed = Math.max(e.lastUsed, st.mtimeMs);
      } else {
        const entry: CacheEntry = { kind, files: [file], bytes: st.size, lastUsed: st.mtimeMs };
        indexes.set(key, entry);
        out.push(entry);
      }
    });
  }
  return out;
}

/** Entries, bytes and latest use per kind (every kind, in {@link CACHE_KINDS} order). */
export function summariseCache(entries: readonly CacheEntry[]): CacheSummary[] {
  return CACHE_KINDS.map((kind) => {
    const of = entries.filter((e) => e.kind === kind);
    return { kind, entries: of.length, bytes: of.reduce((s, e) => s + e.bytes, 0), lastUsed: Math.max(0, ...of.map((e) => e.lastUsed)) };
  });
}

/**
 * Removes least-recently-used entries of `cacheDir` until it holds at most `maxBytes`
 * (leftover temporary files go first). Never removes the files in `keep` (the index this
 * process uses), files being written, the lock, or files of no known kind. Entries another
 * process removes meanwhile are skipped.
 * @returns what was removed and the bytes left.
 */
export function evictToSize(cacheDir: string, maxBytes: number, keep: ReadonlySet<string> = new Set()): { removed: CacheEntry[]; bytesLeft: number } {
  const entries = listCacheEntries(cacheDir);
  let total = entries.reduce((s, e) => s + e.bytes, 0);
  const removed: CacheEntry[] = [];
  const inside = insideFolder(cacheDir);
  const order = entries
    .filter((e) => !e.files.some((f) => keep.has(f)))
    .sort((a, b) => Number(b.kind === 'partial') - Number(a.kind === 'partial') || a.lastUsed - b.lastUsed);
  for (const e of order) {
    if (total <= maxBytes && e.kind !== 'partial') break;
    if (!e.files.every(inside)) continue; // a folder on its path was made a link meanwhile
    for (const f of e.files) rmSync(f, { force: true });
    total -= e.bytes;
    removed.push(e);
  }
  return { removed, bytesLeft: total };
}

/** Removes the empty folders left under the known kinds' folders of `cacheDir` (not those folders themselves). */
export function removeEmptyFolders(cacheDir: string): void {
  const prune = (dir: string): boolean => {
    let empty = true;
    for (const d of readDirEntries(dir)) {
      if (!d.isDirectory() || !prune(join(dir, d.name))) empty = false;
    }
    if (empty) {
      try { rmdirSync(dir); } catch { return false; }
    }
    return empty;
  };
  for (const top of readDirEntries(cacheDir)) {
    if (kindOfFolder(top.name) === undefined || !top.isDirectory()) continue;
    for (const d of readDirEntries(join(cacheDir, top.name))) if (d.isDirectory()) prune(join(cacheDir, top.name, d.name));
  }
}

/**
 * A test of whether a file's folder, links resolved, is still inside `cacheDir` (links resolved):
 * what was listed as a folder of the cache may have been replaced by a link since.
 */
function insideFolder(cacheDir: string): (file: string) => boolean {
  let root: string;
  try {
    root = realpathSync(cacheDir) + sep;
  } catch {
    return () => false;
  }
  return (file) => {
    try {
      return realpathSync(dirname(file)).startsWith(root);
    } catch {
      return false;
    }
  };
}

function kindOfFolder(name: string): Exclude<CacheKind, 'partial'> | undefined {
  return name === 'index' ? 'index' : name.startsWith('blobs-') ? 'blobs'
    : name === 'vectors' ? 'vectors' : name === 'llm' ? 'llm' : name === 'history' ? 'history' : undefined;
}

function readDirEntries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

interface UsageNote { bytes: number; walkedAt: number }

/** The size estimate kept in `file` (usage.json), or undefined when absent or not whole. */
const readUsageNote = (file: string) => readCheckedJson(file, USAGE_TAG, (x): x is UsageNote => isRecord(x) && isInt(x.bytes) && isInt(x.walkedAt));

/**
 * Applies the size cap after a build that added about `addedBytes`. Walking a large cache costs
 * about 10 µs per file, so the walk and eviction ({@link evictToSize}) run only when the running
 * estimate kept in `<cacheDir>/usage.json` (size at the last walk plus what builds added since)
 * passes 90 % of `maxBytes`, or when that walk is more than 10 minutes old (writes outside builds:
 * vectors, LLM answers, history, other processes' lost updates).
 */
export function trimAfterBuild(cacheDir: string, maxBytes: number, addedBytes: number, keep: ReadonlySet<string>): void {
  const file = join(cacheDir, 'usage.json');
  const note = readUsageNote(file);
  if (note && Date.now() - note.walkedAt < ESTIMATE_AGE_MS && note.bytes + addedBytes <= 0.9 * maxBytes) {
    writeCheckedJson(file, USAGE_TAG, { bytes: note.bytes + addedBytes, walkedAt: note.walkedAt } satisfies UsageNote, { fsync: false });
    return;
  }
  noteCacheSize(cacheDir, evictToSize(cacheDir, maxBytes, keep).bytesLeft);
}

/**
 * Adds `bytes` (a file written beside an entry after its build, e.g. an index's name table) to the
 * estimate {@link trimAfterBuild} starts from, so the next build's trim counts it; without an
 * estimate nothing is written (the next trim walks the folder). Outside the build lock: a lost
 * update leaves the estimate low until the next walk (at most {@link ESTIMATE_AGE_MS} away).
 */
export function addToUsageEstimate(cacheDir: string, bytes: number): void {
  const file = join(cacheDir, 'usage.json');
  const note = readUsageNote(file);
  if (!note) return;
  try {
    writeCheckedJson(file, USAGE_TAG, { bytes: note.bytes + bytes, walkedAt: note.walkedAt } satisfies UsageNote, { fsync: false });
  } catch { /* a cache that cannot take it: the next trim walks the folder once the estimate is old */ }
}

/** Records `bytes` as the size of `cacheDir` found by a walk now (the start of {@link trimAfterBuild}'s estimate). */
export function noteCacheSize(cacheDir: string, bytes: number): void {
  writeCheckedJson(join(cacheDir, 'usage.json'), USAGE_TAG, { bytes, walkedAt: Date.now() } satisfies UsageNote, { fsync: false });
}

/** Calls `visit` for each regular file under `dir` (symbolic links are not followed). */
function walk(dir: string, visit: (file: string, name: string, st: { size: number; mtimeMs: number }) => void): void {
  for (const d of readDirEntries(dir)) {
    const p = join(dir, d.name);
    if (d.isDirectory()) walk(p, visit);
    else if (d.isFile()) {
      const st = statSync(p, { throwIfNoEntry: false });
      if (st) visit(p, d.name, st);
    }
  }
}
