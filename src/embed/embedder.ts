/**
 * The bi-encoder seen by retrieval: texts in, one vector per text out. Backends: a local ONNX
 * model folder (src/embed/onnx-embedder.ts), an OpenAI-compatible `/v1/embeddings` endpoint
 * (src/embed/openai-embedder.ts); `none` means lexical retrieval only. SweRank (Reddy et al.
 * 2025) retrieves with such a bi-encoder: issue and function encoded separately, ranked by cosine.
 */

/** What an issue or a function is embedded as: queries and documents may get different prefixes. */
export type EmbedRole = 'query' | 'document';

/** A text embedding model. */
export interface Embedder {
  /**
   * Identifies the model and every setting that changes its vectors (backend, model folder or
   * URL + model name, prefixes, token limit, pooling). The vector cache is keyed by it, so two
   * embedders with different ids never share cached vectors.
   */
  readonly id: string;
  /** Texts per call to {@link embed} that the backend handles well (callers batch by it). */
  readonly batchSize: number;
  /**
   * One vector per text, in order, each of the model's dimension (not necessarily normalised).
   * The role's prefix (e.g. CodeRankEmbed's `Represent this query for searching relevant code: `)
   * is added by the embedder.
   * @throws IssuelocError when the backend fails (message names the model or URL).
   */
  embed(texts: readonly string[], role: EmbedRole): Promise<Float32Array[]>;
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
