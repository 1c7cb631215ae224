/**
 * Hybrid retrieval: fusing a lexical (BM25F) and a dense (bi-encoder cosine) score per document
 * into one score. Both methods return a new Float32Array over the same documents, higher =
 * better, 0 = not retrieved by either (so `topK` of bm25f.ts, which keeps scores > 0, applies).
 */
import { topK } from './bm25f.js';

/** How the two rankings are fused. */
export type FusionMethod = 'rrf' | 'weighted' | 'dense' | 'lexical';

export const FUSION_METHODS: readonly FusionMethod[] = ['rrf', 'weighted', 'dense', 'lexical'];

/** Options of {@link fuseScores}. */
export interface FusionOptions {
  /**
   * `rrf`: reciprocal rank fusion; `weighted`: convex combination of normalised scores;
   * `dense`: the dense ranking alone; `lexical`: the lexical ranking alone.
   */
  method: FusionMethod;
  /** RRF's constant k (default 60, Cormack et al. 2009). */
  rrfK: number;
  /** Documents of each ranking that take part in RRF (default 1000). */
  depth: number;
  /** Weight α of the dense score in `weighted` fusion (default 0.5; 0 = lexical only, 1 = dense only). */
  denseWeight: number;
}

/**
 * Default fusion. RRF is the default because it needs no score calibration between the two
 * retrievers and no tuned weight; docs/rerank.md gives the bench command that compares it with
 * `weighted` on SWE-bench Lite once an embedding model is available (none was on the machine
 * where this was written, so the choice is not yet backed by our own measurement).
 */
export const DEFAULT_FUSION: FusionOptions = { method: 'rrf', rrfK: 60, depth: 1000, denseWeight: 0.5 };

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009, eq. 1):
 * RRF(d) = Σ_r 1 / (k + rank_r(d)), summed over the rankings r where d is among the first
 * `depth` (rank 1 = best). Each ranking orders documents with score > 0, ties by document order.
 */
export function reciprocalRankFusion(rankings: readonly Float32Array[], k = 60, depth = 1000): Float32Array {
  const out = new Float32Array(rankings[0]?.length ?? 0);
  for (const scores of rankings) {
    topK(scores, depth).forEach((h, i) => { out[h.doc] += 1 / (k + i + 1); });
  }
  return out;
}

/**
 * Convex combination of theoretically-min–max normalised scores (Bruch, Gai & Ingber, "An
 * Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023, eq. 4 with TMM
 * normalisation): s(d) = (1 − α)·lex(d)/max lex + α·(cos(d) + 1)/(max cos + 1), the lower bounds
 * being 0 for BM25F and −1 for cosine. A document the lexical side never matched still gets its
 * dense share.
 */
export function weightedScoreFusion(lexical: Float32Array, cosine: Float32Array, alpha = 0.5): Float32Array {
  const out = new Float32Array(lexical.length);
  let maxLex = 0, maxCos = -1;
  for (let d = 0; d < lexical.length; d++) {
    if (lexical[d] > maxLex) maxLex = lexical[d];
    if (cosine[d] > maxCos) maxCos = cosine[d];
  }
  const a = maxLex > 0 ? (1 - alpha) / maxLex : 0;
  const c = maxCos > -1 ? alpha / (maxCos + 1) : 0;
  for (let d = 0; d < lexical.length; d++) out[d] = lexical[d] * a + (cosine[d] + 1) * c;
  return out;
}

/** Cosines shifted to (0, 2] so that every document ranks (topK keeps scores > 0). */
export function denseRankingScores(cosine: Float32Array): Float32Array {
  const out = new Float32Array(cosine.length);
  for (let d = 0; d < cosine.length; d++) out[d] = cosine[d] + 1 + 1e-6;
  return out;
}

/**
 * One score per document from the lexical scores (≥ 0) and the dense cosines (−1..1).
 * @param opts fusion method and parameters (defaults: {@link DEFAULT_FUSION}).
 */
export function fuseScores(lexical: Float32Array, cosine: Float32Array, opts: Partial<FusionOptions> = {}): Float32Array {
  const o = { ...DEFAULT_FUSION, ...opts };
  switch (o.method) {
    case 'lexical': return Float32Array.from(lexical);
    case 'dense': return denseRankingScores(cosine);
    case 'weighted': return weightedScoreFusion(lexical, cosine, o.denseWeight);
    case 'rrf': return reciprocalRankFusion([lexical, denseRankingScores(cosine)], o.rrfK, o.depth);
  }
}
