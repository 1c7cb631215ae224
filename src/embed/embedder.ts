/**
 * The bi-encoder seen by retrieval: texts in, one vector per text out. Backends: a local ONNX
 * model folder (src/embed/onnx-embedder.ts), an OpenAI-compatible `/v1/embeddings` endpoint
 * (src/embed/openai-embedder.ts); `none` means lexical retrieval only. SweRank (Reddy et al.
 * 2025) retrieves with such a bi-encoder: issue and function encoded separately, ranked by cosine.
 */

import { IssuelocError } from '../errors.js';
import { abortable, DeadlineExceeded } from '../util/deadline.js';
import { HttpRequestError } from '../util/http-json.js';

/** What an issue or a function is embedded as: queries and documents may get different prefixes. */
export type EmbedRole = 'query' | 'document';

/** Options of one {@link Embedder.embed} call. */
export interface EmbedCallOptions {
  /** Abandons the call when it aborts (a per-issue deadline); it then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A text embedding model. */
export interface Embedder {
  /**
   * Identifies the model and every setting that changes its vectors (backend, model folder or
   * URL + model name, prefixes, token limit, pooling). The vector cache is keyed by it, so two
   * embedders with different ids never share cached vectors.
   */
  readonly id: string;
  /** For messages: the backend and its URL + model or its folder (default: {@link id}). */
  readonly name?: string;
  /**
   * The embedder preset applied (src/embed/presets.ts), named in the spec or picked from the
   * model's name, and whether it was picked; absent for the generic case.
   */
  readonly preset?: { name: string; picked: boolean };
  /** Texts per call to {@link embed} that the backend handles well (callers batch by it). */
  readonly batchSize: number;
  /**
   * One vector per text, in order, each of the model's dimension (not necessarily normalised).
   * The role's prefix (e.g. CodeRankEmbed's `Represent this query for searching relevant code: `)
   * is added by the embedder.
   * Callers check the vectors with {@link embedChecked}.
   * @throws EmbedderFailure or HttpRequestError when the backend fails (message names the model or URL).
   */
  embed(texts: readonly string[], role: EmbedRole, opts?: EmbedCallOptions): Promise<Float32Array[]>;
  /** Frees the model (sessions, sockets). Optional. */
  close?(): Promise<void>;
}

/** Prefixes put before each text of a role (empty = none). */
export interface EmbedPrefixes {
  query: string;
  document: string;
}

/** `texts` with the role's prefix in front. */
export function withPrefix(texts: readonly string[], role: EmbedRole, prefixes: EmbedPrefixes): string[] {
  const p = prefixes[role];
  return p ? texts.map((t) => p + t) : [...texts];
}

/** Scales `v` to unit L2 length in place (a zero vector stays zero); returns it. */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}

/**
 * The embedder failed or answered vectors that cannot be used (missing, malformed, of the wrong
 * dimension, not finite, all zero). Retrieval then falls back to the lexical ranking with a
 * warning; such vectors are never cached.
 */
export class EmbedderFailure extends IssuelocError {
  constructor(message: string) {
    super(message);
    this.name = 'EmbedderFailure';
  }
}

/**
 * Whether `e` means "the embedder could not give usable vectors now" (an endpoint failure, bad
 * vectors, or the deadline), as opposed to bad input or a bug.
 */
export function isEmbedderFailure(e: unknown): e is IssuelocError {
  return e instanceof EmbedderFailure || e instanceof HttpRequestError || e instanceof DeadlineExceeded;
}

/**
 * Checks the vectors an embedder answered for `count` texts: one per text, each a Float32Array
 * of the same length > 0 (= `dim` when given), every component finite, not all zero.
 * @param source names the embedder in the message.
 * @returns their dimension.
 * @throws EmbedderFailure naming `source`, the first bad text (1-based) and what is wrong with it.
 */
export function checkVectors(vectors: unknown, count: number, source: string, dim?: number): number {
  const bad = (what: string) => new EmbedderFailure(`${source} answered unusable vectors: ${what}`);
  if (!Array.isArray(vectors)) throw bad('no list of vectors');
  if (vectors.length !== count) throw bad(`${vectors.length} vectors for ${count} texts`);
  let want = dim;
  vectors.forEach((v: unknown, i) => {
    const at = `vector ${i + 1} of ${count}`;
    if (!(v instanceof Float32Array)) throw bad(`${at} is ${describeValue(v)}, not a vector`);
    if (v.length === 0) throw bad(`${at} is empty`);
    if (want !== undefined && v.length !== want) throw bad(`${at} has ${v.length} dimensions, expected ${want}`);
    want = v.length;
    let nonzero = false;
    for (let k = 0; k < v.length; k++) {
      if (!Number.isFinite(v[k])) throw bad(`${at} holds ${v[k]} at dimension ${k + 1}`);
      if (v[k] !== 0) nonzero = true;
    }
    if (!nonzero) throw bad(`${at} is all zeros`);
  });
  return want ?? 0;
}

/** `null`, `missing`, `a string`, `an object`, … for messages about a value that should be a vector. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'missing';
  const t = Array.isArray(v) ? 'array' : typeof v;
  return `${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`;
}

/**
 * `embedder.embed(texts, role)`, abandoned when `opts.signal` aborts, with every vector checked
 * by {@link checkVectors}: the one place vectors from any backend are validated.
 * @returns the vectors and their dimension.
 * @throws EmbedderFailure (bad vectors), HttpRequestError (endpoint), the signal's reason (deadline).
 */
export async function embedChecked(
  embedder: Embedder, texts: readonly string[], role: EmbedRole, opts: EmbedCallOptions & { dim?: number } = {},
): Promise<{ vectors: Float32Array[]; dim: number }> {
  opts.signal?.throwIfAborted();
  const vectors = await abortable(embedder.embed(texts, role, { signal: opts.signal }), opts.signal);
  const dim = checkVectors(vectors, texts.length, `embedder ${embedder.name ?? embedder.id}`, opts.dim);
  return { vectors, dim };
}
