import type { CodeIndex } from '../index/code-index.js';
import type { GitRepo } from '../repo/git.js';
import { IssuelocError } from '../errors.js';
import { checkVectors, embedChecked, normalize, type Embedder } from './embedder.js';
import { UnitSourceReader } from './unit-source.js';
import { VectorCache } from './vector-cache.js';

/** Unit-length vectors of every function-level document of one code index. */
export interface VectorIndex {
  modelId: string;
  dim: number;
  /** Documents (= codeIndex.units.length). */
  count: number;
  /** count × dim floats, row d = document d, each row of unit length. */
  vectors: Float32Array;
  /** Documents embedded now, and documents whose vectors came from the cache. */
  embedded: number;
  cached: number;
}

/** Options of {@link buildVectorIndex}. */
export interface VectorIndexOptions {
  /** Cache folder (the index's, normally). */
  cacheDir: string;
  /** Characters of a document's code kept (default 8 000, about the 1–2k tokens an encoder reads). */
  maxDocumentChars?: number;
  /** Called as documents are done: (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** Abandons the embedding when it aborts (a per-issue deadline): buildVectorIndex rejects with its reason. */
  signal?: AbortSignal;
  /** Told once when cached vectors are unusable (not finite, all zero, another dimension): they are embedded again. */
  onWarning?: (message: string) => void;
}

/**
 * The text a function is embedded as: its path, a newline, its code (SweRank's corpus: every
 * function of the non-test files at the base commit, document = path + code), cut to `maxChars`.
 */
export function documentText(path: string, code: string, maxChars = 8000): string {
  const text = `${path}\n${code}`;
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}

/**
 * Embeds every function-level document of `codeIndex` (its units, read again from git by line
 * span), reusing vectors cached by (blob, path) for this embedder, and batching the rest by the
 * embedder's batch size, files in tree order. Every batch is checked ({@link embedChecked}) before
 * any of it is used or cached; cached vectors are checked the same way and embedded again when
 * unusable.
 *
 * @throws EmbedderFailure or HttpRequestError when the embedder fails or answers unusable vectors
 *   (nothing of that batch is cached); the signal's reason when it aborts; IssuelocError when the
 *   model's dimension differs from vectors cached under the same model id.
 */
export async function buildVectorIndex(repo: GitRepo, codeIndex: CodeIndex, embedder: Embedder, opts: VectorIndexOptions): Promise<VectorIndex> {
  const units = codeIndex.units;
  const cache = new VectorCache(opts.cacheDir, embedder.id);
  const reader = new UnitSourceReader(repo, codeIndex.commit);
  const blobOf = await reader.blobOf();
  const docsOfPath = new Map<string, number[]>();
  units.forEach((u, d) => {
    const list = docsOfPath.get(u.path) ?? [];
    list.push(d);
    docsOfPath.set(u.path, list);
  });
  const rows: (Float32Array | undefined)[] = new Array(units.length);
  let dim: number | undefined;
  const take = (d: number, v: Float32Array) => {
    if (dim === undefined) dim = v.length;
    else if (v.length !== dim) throw new IssuelocError(`embedder ${embedder.id} gave vectors of ${v.length} and ${dim} dimensions`);
    rows[d] = normalize(v);
  };
  // Cached files first.
  const todo: { path: string; key: string | undefined; docs: number[] }[] = [];
  let cached = 0;
  let unusable = 0;
  for (const [path, docs] of docsOfPath) {
    const blob = blobOf.get(path);
    const key = blob ? VectorCache.key(blob, path) : undefined;
    const hit = key ? cache.get(key) : undefined;
    const spans = docs.map((d) => `${units[d].startLine}-${units[d].endLine}`);
    const hitRows = hit && hit.spans.length === docs.length && hit.spans.every(([s, e], i) => `${s}-${e}` === spans[i])
      ? docs.map((_, i) => hit.vectors.slice(i * hit.dim, (i + 1) * hit.dim))
      : undefined;
    if (hitRows && usable(hitRows, dim)) {
      docs.forEach((d, i) => take(d, hitRows[i]));
      cached += docs.length;
    } else {
      if (hitRows) unusable++;
      todo.push({ path, key, docs });
    }
  }
  if (unusable > 0) opts.onWarning?.(`${unusable} cached vector files in ${cache.dir} held unusable vectors; embedding those files again`);
  const total = units.length;
  let done = cached;
  opts.onProgress?.(done, total);
  // Then the rest, in batches that may span files; a file's entry is written once all its vectors are in.
  const batch = Math.max(1, embedder.batchSize);
  let pendingDocs: number[] = [];
  let pendingTexts: string[] = [];
  let embeddedDim: number | undefined;
  const flush = async () => {
    if (pendingDocs.length === 0) return;
    const { vectors, dim: got } = await embedChecked(embedder, pendingTexts, 'document', { signal: opts.signal, dim: embeddedDim });
    if (embeddedDim === undefined) {
      cache.checkDimension(got); // the clear message when the model changed under its name
      embeddedDim = got;
    }
    pendingDocs.forEach((d, i) => take(d, vectors[i]));
    done += pendingDocs.length;
    opts.onProgress?.(done, total);
    pendingDocs = [];
    pendingTexts = [];
  };
  const filesOpen: typeof todo = [];
  const writeFinished = () => {
    while (filesOpen.length > 0 && filesOpen[0].docs.every((d) => rows[d] !== undefined)) {
      const f = filesOpen.shift()!;
      if (!f.key) continue;
      const vectors = new Float32Array(f.docs.length * dim!);
      f.docs.forEach((d, i) => vectors.set(rows[d]!, i * dim!));
      cache.set(f.key, { spans: f.docs.map((d) => [units[d].startLine, units[d].endLine]), dim: dim!, vectors });
    }
  };
  for (const f of todo) {
    const texts = await reader.texts(f.docs.map((d) => units[d]));
    reader.forget();
    filesOpen.push(f);
    for (let i = 0; i < f.docs.length; i++) {
      pendingDocs.push(f.docs[i]);
      pendingTexts.push(documentText(f.path, texts[i], opts.maxDocumentChars));
      if (pendingDocs.length >= batch) {
        await flush();
        writeFinished();
      }
    }
  }
  await flush();
  writeFinished();
  const d = dim ?? 0;
  const matrix = new Float32Array(units.length * d);
  rows.forEach((v, i) => { if (v) matrix.set(v, i * d); });
  return { modelId: embedder.id, dim: d, count: units.length, vectors: matrix, embedded: units.length - cached, cached };
}

/** Whether cached rows pass {@link checkVectors} (of dimension `dim` when known). */
function usable(rows: Float32Array[], dim: number | undefined): boolean {
  try {
    checkVectors(rows, rows.length, 'the vector cache', dim);
    return true;
  } catch {
    return false;
  }
}

/**
 * Cosine similarity of the query vector with every document: rows are unit length, so this is
 * the dot product with the normalised query (exact search, a plain typed-array loop).
 * @throws IssuelocError when the query's dimension differs from the index's.
 */
export function cosineScores(index: VectorIndex, query: Float32Array, out: Float32Array = new Float32Array(index.count)): Float32Array {
  if (query.length !== index.dim) throw new IssuelocError(`query vector has ${query.length} dimensions, the vector index ${index.dim} (model ${index.modelId})`);
  const q = normalize(Float32Array.from(query));
  const { vectors, dim } = index;
  for (let d = 0; d < index.count; d++) {
    let s = 0;
    const base = d * dim;
    for (let k = 0; k < dim; k++) s += vectors[base + k] * q[k];
    out[d] = s;
  }
  return out;
}
