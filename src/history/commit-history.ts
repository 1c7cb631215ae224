/**
 * The history signals of one base commit, stored: its file histories ({@link fileHistoryAt}) and
 * the commit-message index of its ancestors (SimiScore, as {@link RepoHistory.messageScores}),
 * computed once per (repository, base commit) and kept as a checked cache file
 * (src/util/checked-file.ts) under `<cacheDir>/history/`, so a later process reads a few
 * typed arrays instead of the whole history log and rebuilding the message index.
 *
 * A commit fixes its ancestry, so the stored signals are those {@link RepoHistory} computes at
 * that commit, exactly: the message index holds the ancestors' messages in the log's canonical
 * order (the same tie order), weighed by the ancestors alone (the same N, df and norms).
 */
import { join } from 'node:path';
import type { ParsedIssue } from '../text/parsed-issue.js';
import { isInt, isRecord, isStringArray, readCheckedFile, writeCheckedFile } from '../util/checked-file.js';
import { fileHistoryAt, type FileHistory } from './file-history.js';
import { repoDigest, type HistoryLog } from './history-log.js';
import { DEFAULT_MAX_FILES, DEFAULT_SIMILAR_COMMITS, RepoHistory, type RepoHistoryOptions } from './repo-history.js';
import { CosineIndex, simiScore, type Collection } from './similarity.js';
import { encodeMessages, StoredMessages } from './stored-messages.js';
import { warnCacheNotSaved } from '../util/file-errors.js';

/**
 * Tag of a stored commit history (src/util/checked-file.ts). v2: the message index's postings
 * are stored too (read as they lie, not rebuilt per process); v3: its terms sorted and its
 * postings varint-coded, a query decoding only its own terms' (src/history/stored-messages.ts).
 */
export const COMMIT_HISTORY_TAG = 'chist.v3';

/** Options of {@link CommitHistory}: those of {@link RepoHistory} that shape the signals. */
export interface CommitHistoryOptions {
  /** Commits changing more files than this count for nothing (default 100). */
  maxFiles?: number;
  /** Similar commit messages summed by {@link CommitHistory.messageScores} (default 50). */
  similarCommits?: number;
}

/** The arrays of a {@link CommitHistory} besides its message index, as stored. */
interface Parts {
  time: number;
  /** Paths named by `docFiles` and `fileOf`. */
  paths: string[];
  /** 1 for the ancestors that changed 1 … maxFiles files: those whose messages can match. */
  canMatch: Uint8Array;
  /** Per ancestor: the paths it changed, docFiles[fileStart[d] … fileStart[d+1]). */
  fileStart: Int32Array;
  docFiles: Int32Array;
  /** Per file with a history: its path and its 5 figures (changes, fixes, fixRecency, fixWeighted, changeRecency). */
  fileOf: Int32Array;
  figures: Float64Array;
}

/** History signals at one base commit. Make one with {@link openCommitHistory} or {@link CommitHistory.of}. */
export class CommitHistory {
  /** Path → history at the commit; files never changed are absent. */
  readonly files: Map<string, FileHistory>;
  private readonly whole: Collection;
  private readonly similarCommits: number;

  /**
   * @param messages the message index of the ancestors, in canonical order (document d =
   *   the d-th ancestor), built or stored.
   */
  private constructor(private readonly parts: Parts, private readonly messages: CosineIndex, opts: CommitHistoryOptions) {
    this.similarCommits = opts.similarCommits ?? DEFAULT_SIMILAR_COMMITS;
    const { paths, fileOf, figures } = parts;
    this.files = new Map();
    for (let k = 0, f = 0; k < fileOf.length; k++, f += 5) {
      const path = paths[fileOf[k]];
      if (path === undefined) throw new Error(`file ${k} of the history has no path`);
      this.files.set(path, { changes: figures[f], fixes: figures[f + 1], fixRecency: figures[f + 2], fixWeighted: figures[f + 3], changeRecency: figures[f + 4] });
    }
    this.whole = this.messages.collection();
  }

  /** The base commit's committer time (seconds since the epoch). */
  get time(): number { return this.parts.time; }

  /**
   * The signals at `commit` computed from `log` (which must hold it).
   * @throws IssuelocError when `commit` is not in the log.
   */
  static of(log: HistoryLog, commit: string, opts: CommitHistoryOptions = {}): CommitHistory {
    const maxFiles = opts.maxFiles ?? DEFAULT_MAX_FILES;
    const at = fileHistoryAt(log, commit, maxFiles);
    const pathIds = new Map<number, number>();
    const paths: string[] = [];
    const local = (p: number) => {
      let id = pathIds.get(p);
      if (id === undefined) { id = paths.length; pathIds.set(p, id); paths.push(log.paths[p]); }
      return id;
    };
    const docs: string[][] = [];
    const canMatch: number[] = [];
    const fileStart = [0];
    const docFiles: number[] = [];
    for (const i of log.canonicalOrder()) {
      if (at.ancestors[i] === 0) continue;
      docs.push(log.wordsOf(i));
      const files = log.filesOf(i);
      canMatch.push(files.length > 0 && files.length <= maxFiles ? 1 : 0);
      for (const f of files) docFiles.push(local(f));
      fileStart.push(docFiles.length);
    }
    const byPath = new Map<string, number>(paths.map((p, k) => [p, k]));
    const fileOf = new Int32Array(at.files.size);
    const figures = new Float64Array(5 * at.files.size);
    let k = 0;
    for (const [path, h] of at.files) {
      fileOf[k] = byPath.get(path)!;
      figures.set([h.changes, h.fixes, h.fixRecency, h.fixWeighted, h.changeRecency], 5 * k++);
    }
    return new CommitHistory({
      time: at.time, paths, canMatch: Uint8Array.from(canMatch),
      fileStart: Int32Array.from(fileStart), docFiles: Int32Array.from(docFiles), fileOf, figures,
    }, new CosineIndex(docs), opts);
  }

  /**
   * SimiScore over the messages of the commit's ancestors, as {@link RepoHistory.messageScores}
   * computes it at this commit (the same scores, bit for bit).
   * @returns path → score (absent = 0).
   */
  messageScores(issue: ParsedIssue): Map<string, number> {
    const { canMatch, fileStart, docFiles, paths } = this.parts;
    const hits = this.messages.similar(issue.tokens(false), this.similarCommits, {
      within: this.whole, allowed: canMatch, maxDf: Math.max(100, 0.05 * this.whole.size),
    });
    return simiScore(hits, (d) => {
      const from = fileStart[d], to = fileStart[d + 1];
      if (!(from >= 0 && from <= to && to <= docFiles.length)) throw new Error(`the files of commit ${d} of the history cannot be read`);
      const out = new Array<string>(to - from);
      for (let k = from; k < to; k++) {
        const path = paths[docFiles[k]];
        if (path === undefined) throw new Error(`the files of commit ${d} of the history cannot be read`);
        out[k - from] = path;
      }
      return out;
    });
  }

  /**
   * Writes the signals to `path` atomically as a checked file.
   *
   * Payload (little-endian; n ancestors, T message terms): header length (uint32) · header JSON
   * (time, paths, section lengths) · padding to 8 · figures, norms (float64) · fileStart,
   * docFiles, fileOf and the message index's termStart, postStart, postByte (int32) · canMatch
   * and its termBytes and postingBytes (bytes; src/history/stored-messages.ts) · padding to 8.
   * @throws the fs error when the folder cannot take it; Error for signals loaded from a file.
   */
  save(path: string): void {
    const p = this.parts;
    const tables = this.messages.tables();
    const m = encodeMessages(tables);
    const header = Buffer.from(JSON.stringify({
      time: p.time, paths: p.paths,
      lengths: [tables.norms.length, p.docFiles.length, p.fileOf.length, m.termStart.length - 1, m.termBytes.length, m.postingBytes.length],
    }), 'utf8');
    const pre = Buffer.alloc(4);
    pre.writeUInt32LE(header.length, 0);
    const pad = (n: number) => Buffer.alloc((8 - (n % 8)) % 8);
    const tail = p.canMatch.length + m.termBytes.length + m.postingBytes.length;
    // 8-byte sections first, then 4-byte ones, then bytes: every view aligned after one copy
    writeCheckedFile(path, COMMIT_HISTORY_TAG, [
      pre, header, pad(4 + header.length), p.figures, tables.norms, p.fileStart, p.docFiles, p.fileOf,
      m.termStart, m.postStart, m.postByte, p.canMatch, m.termBytes, m.postingBytes, pad(tail),
    ], { fsync: false });
  }

  /**
   * The signals stored at `path` by {@link save}, verified: checksum, every section's length,
   * the files' paths; what a query reads (a commit's files, a message term's offsets, postings
   * and the norms of the documents they reach) when first read, so a load passes over no array
   * of the message index (past the checksum only a bug of the writer could break them, and that
   * throws when met). Undefined when missing or corrupt (one warning line, see readCheckedFile).
   */
  static load(path: string, opts: CommitHistoryOptions = {}): CommitHistory | undefined {
    return readCheckedFile(path, COMMIT_HISTORY_TAG, (buf) => {
      const { parts, messages } = decode(buf);
      return new CommitHistory(parts, new CosineIndex(messages), opts);
    });
  }
}

/** The {@link Parts} and message index of a stored commit history; throws when any length or index is out of place. */
function decode(buf: Buffer): { parts: Parts; messages: StoredMessages } {
  const h = buf.readUInt32LE(0);
  const header = JSON.parse(buf.toString('utf8', 4, 4 + h)) as unknown;
  if (!isRecord(header) || !Number.isFinite(header.time) || !isStringArray(header.paths) ||
    !Array.isArray(header.lengths) || header.lengths.length !== 6 || !header.lengths.every((n) => isInt(n))) throw new Error('bad header');
  const [n, nFiles, nFileOf, T, termBytes, postingBytes] = header.lengths as number[];
  let offset = 4 + h;
  offset += (8 - (offset % 8)) % 8;
  const tail = n + termBytes + postingBytes;
  const bytes = 8 * (5 * nFileOf + n) + 4 * (n + 1 + nFiles + nFileOf + 3 * (T + 1)) + tail + ((8 - (tail % 8)) % 8);
  if (buf.length - offset !== bytes) throw new Error('bad size');
  // views need 8-byte alignment: a file read whole normally starts its own ArrayBuffer; else copy once
  let body: Uint8Array;
  if ((buf.byteOffset + offset) % 8 === 0) body = new Uint8Array(buf.buffer, buf.byteOffset + offset, bytes);
  else {
    body = new Uint8Array(bytes);
    body.set(buf.subarray(offset));
  }
  let o = body.byteOffset;
  const take = <T>(make: (b: ArrayBufferLike, o: number, n: number) => T, size: number, count: number): T => { const a = make(body.buffer, o, count); o += size * count; return a; };
  const f64 = (c: number) => take((b, at, m) => new Float64Array(b, at, m), 8, c);
  const i32 = (c: number) => take((b, at, m) => new Int32Array(b, at, m), 4, c);
  const u8 = (c: number) => take((b, at, m) => new Uint8Array(b, at, m), 1, c);
  const figures = f64(5 * nFileOf);
  const norms = f64(n);
  const fileStart = i32(n + 1);
  const docFiles = i32(nFiles);
  const fileOf = i32(nFileOf);
  const termStart = i32(T + 1);
  const postStart = i32(T + 1);
  const postByte = i32(T + 1);
  const canMatch = u8(n);
  const messages = new StoredMessages({ termStart, postStart, postByte, termBytes: u8(termBytes), postingBytes: u8(postingBytes) }, norms);
  if (fileStart[0] !== 0 || fileStart[n] !== nFiles) throw new Error('bad starts');
  return { parts: { time: header.time as number, paths: header.paths, canMatch, fileStart, docFiles, fileOf, figures }, messages };
}

/**
 * The cache file of the signals of `commit` in `repoPath` with `maxFiles`:
 * `<cacheDir>/history/<digest of the repository path>-<commit>.m<maxFiles>.bin`. A file of an
 * older format (another {@link COMMIT_HISTORY_TAG}) is refused as corrupt: one warning, then
 * computed again and stored once.
 */
export function commitHistoryFile(cacheDir: string, repoPath: string, commit: string, maxFiles = DEFAULT_MAX_FILES): string {
  return join(cacheDir, 'history', `${repoDigest(repoPath)}-${commit}.m${maxFiles}.bin`);
}

/**
 * The history signals of `commit` (a full SHA) in `repoPath`: from the cache file when there,
 * else computed from the history log ({@link RepoHistory.open}: cached too, read from git when
 * needed) and stored, when the log is complete and the folder takes it (else one warning line;
 * the signals still serve). Without `cacheDir` nothing is read or stored.
 * @throws IssuelocError when git cannot read the history.
 */
export async function openCommitHistory(repoPath: string, commit: string, opts: CommitHistoryOptions & Pick<RepoHistoryOptions, 'cacheDir' | 'onProgress'> = {}): Promise<CommitHistory> {
  const file = opts.cacheDir ? commitHistoryFile(opts.cacheDir, repoPath, commit, opts.maxFiles) : undefined;
  const stored = file && CommitHistory.load(file, opts);
  if (stored) return stored;
  const history = await RepoHistory.open(repoPath, [commit], opts);
  const made = CommitHistory.of(history.log, commit, opts);
  if (file && history.log.cached) {
    try {
      made.save(file);
    } catch (e) {
      warnCacheNotSaved(`cannot save the history cache ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); it is computed again next time`, e);
    }
  }
  return made;
}
