import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { IssuelocError } from '../errors.js';
import { isInt, isRecord, readCheckedFile, readCheckedJson, writeCheckedFile, writeCheckedJson } from '../util/checked-file.js';

/** Version of how a function becomes the text that is embedded; bump to invalidate cached vectors. */
export const DOCUMENT_FORMAT = 'd1';
/** Tags of the checked files (src/util/checked-file.ts); part of the folder name, so old formats are not read. */
const ENTRY_TAG = 'vec.v2';
export const MODEL_TAG = 'vecmod.2';

/** The vectors of one file's units, as cached. */
export interface CachedVectors {
  /** [startLine, endLine] of each unit, in the order of `vectors`. */
  spans: [number, number][];
  dim: number;
  /** spans.length × dim floats. */
  vectors: Float32Array;
}

interface Header {
  model: string;
  dim: number;
  spans: [number, number][];
}

/**
 * Content-addressed cache of function vectors: one file per (blob, path) under a folder of its
 * own for each embedder id, so a new commit embeds only the functions of changed files, and the
 * vectors of one model are never served for another:
 *
 *   `<cacheDir>/vectors/<digest of embedder id>/model.json`  — {model, dim}
 *   `<cacheDir>/vectors/<digest>/<aa>/<rest>.f32`            — u32 header length, JSON header
 *                                                               {model, dim, spans}, float32 data
 *
 * Both are checked files (src/util/checked-file.ts). Each entry repeats the embedder id and is
 * ignored when it does not match (a digest collision or a hand-copied folder). Writes are atomic
 * (temporary file + rename), without fsync: entries can be rebuilt. A corrupt entry (checksum, or
 * spans and data that do not agree) is a miss with one warning line, and is rewritten.
 */
export class VectorCache {
  readonly dir: string;
  hits = 0;
  misses = 0;
  private dim: number | undefined;

  constructor(cacheDir: string, readonly modelId: string) {
    this.dir = join(cacheDir, 'vectors', createHash('sha1').update(`${DOCUMENT_FORMAT}\n${ENTRY_TAG}\n${modelId}`).digest('hex').slice(0, 16));
    const m = readCheckedJson(join(this.dir, 'model.json'), MODEL_TAG, (x): x is { model: string; dim: number } => isRecord(x) && typeof x.model === 'string' && isInt(x.dim, 1));
    if (m?.model === modelId) this.dim = m.dim;
  }

  /** The key of a file's entry: its blob and its path (the path is part of the embedded text). */
  static key(blob: string, path: string): string {
    return createHash('sha1').update(`${blob}\0${path}`).digest('hex');
  }

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key.slice(2)}.f32`);
  }

  /**
   * Records the dimension of vectors the model gives now, and checks it against the cached ones.
   * @throws IssuelocError when cached vectors of the same model id have another dimension (the
   *   model behind the name changed: e.g. a server now serves another model under that name).
   */
  checkDimension(dim: number): void {
    if (this.dim === undefined) {
      this.dim = dim;
      try {
        writeCheckedJson(join(this.dir, 'model.json'), MODEL_TAG, { model: this.modelId, dim }, { fsync: false });
      } catch { /* a cache folder that cannot take it (read-only): vectors are computed, not kept, as in set() */ }
      return;
    }
    if (this.dim !== dim) {
      throw new IssuelocError(
        `embedding dimension changed: vectors cached for model ${this.modelId} have ${this.dim} dimensions, the model now gives ${dim}; ` +
        `the model behind this name changed — remove ${this.dir} or use another model name`,
      );
    }
  }

  /** The cached vectors of `key`, or undefined (a miss). */
  get(key: string): CachedVectors | undefined {
    const entry = readCheckedFile(this.file(key), ENTRY_TAG, (buf) => {
      const len = buf.readUInt32LE(0);
      const header = JSON.parse(buf.subarray(4, 4 + len).toString('utf8')) as unknown;
      const data = buf.subarray(4 + len);
      if (!isHeader(header) || data.length !== header.spans.length * header.dim * 4) throw new Error('bad entry');
      const vectors = new Float32Array(header.spans.length * header.dim);
      new Uint8Array(vectors.buffer).set(data);
      return { header, vectors };
    });
    // another model's vectors (a digest collision, a copied folder) or dimension: a plain miss
    if (!entry || entry.header.model !== this.modelId || (this.dim !== undefined && entry.header.dim !== this.dim)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return { spans: entry.header.spans, dim: entry.header.dim, vectors: entry.vectors };
  }

  /** Stores the vectors of `key`. Errors writing the cache are not fatal: they are returned. */
  set(key: string, entry: CachedVectors): Error | undefined {
    try {
      const header = Buffer.from(JSON.stringify({ model: this.modelId, dim: entry.dim, spans: entry.spans } satisfies Header), 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32LE(header.length, 0);
      writeCheckedFile(this.file(key), ENTRY_TAG, [len, header, entry.vectors], { fsync: false });
      return undefined;
    } catch (e) {
      return e as Error;
    }
  }
}

function isHeader(x: unknown): x is Header {
  return isRecord(x) && typeof x.model === 'string' && isInt(x.dim, 1) && Array.isArray(x.spans) &&
    x.spans.every((s: unknown) => Array.isArray(s) && s.length === 2 && isInt(s[0]) && isInt(s[1]));
}
