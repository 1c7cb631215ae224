/**
 * Query expansion by pseudo-relevance feedback: the best documents of a first pass are taken as
 * relevant, the terms that weigh most in them are added to the query, and the code is scored
 * again (RM3: Lavrenko & Croft 2001, "Relevance-based language models"; Abdul-Jaleel et al.
 * 2004, the interpolation with the original query). A term's weight in a document is its BM25F+
 * weight there ({@link Bm25fScorer.termsOfDocs}), as a share of the document's total (the
 * document's term distribution), and the relevance model weighs each feedback document by its
 * share of the feedback documents' first-pass scores:
 *
 *   e(t) ∝ Σ_d s(d) / Σ s · w(t, d) / Σ_t' w(t', d),   over the `terms` best t, summing to 1
 *   q'(t) = (1 − λ) · q(t) / Σ q + λ · e(t)
 *
 * Ranking is invariant to the query's scale (src/retrieve/localize.ts normalises by the best
 * score), so q' only changes the terms' relative weights.
 */
import type { Bm25fScorer, QueryTerms } from './bm25f.js';

/** Settings of pseudo-relevance feedback (`RankingOptions.feedback`; off when absent). */
export interface FeedbackOptions {
  /** Feedback documents: the best `docs` functions of the first pass (or their files, see `level`). */
  docs: number;
  /** Expansion terms: the `terms` heaviest of the relevance model. */
  terms: number;
  /** Interpolation weight λ of the expansion terms, 0 … 1 (0: the query as it is). */
  weight: number;
  /** Where the terms are read: the feedback functions (`function`, default) or the files of the best functions (`file`). */
  level?: 'function' | 'file';
}

/**
 * Terms held by more than this share of the documents are never expansion terms (nor read: their
 * postings are the longest, their idf the lowest).
 */
export const MAX_FEEDBACK_DF_SHARE = 0.1;

/**
 * The relevance model of feedback documents: the `terms` terms of highest e(t) (see the module
 * comment), term → weight, the weights summing to 1; empty when no document has a positive score
 * or a term below the document-frequency cap.
 */
export function relevanceModel(scorer: Bm25fScorer, docs: readonly { doc: number; score: number }[], terms: number): Map<string, number> {
  const kept = docs.filter((d) => d.score > 0);
  const scoreSum = kept.reduce((s, d) => s + d.score, 0);
  const out = new Map<string, number>();
  if (kept.length === 0 || !(scoreSum > 0) || terms < 1) return out;
  const entries: { t: number; i: number; w: number }[] = [];
  const docTotal = new Float64Array(kept.length);
  const maxDf = Math.floor(MAX_FEEDBACK_DF_SHARE * scorer.index.docCount);
  scorer.termsOfDocs(kept.map((d) => d.doc), maxDf, (t, i, w) => {
    entries.push({ t, i, w });
    docTotal[i] += w;
  });
  const e = new Map<number, number>();
  for (const { t, i, w } of entries) e.set(t, (e.get(t) ?? 0) + ((kept[i].score / scoreSum) * w) / docTotal[i]);
  const best = [...e].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, Math.floor(terms));
  const sum = best.reduce((s, [, w]) => s + w, 0);
  if (!(sum > 0)) return out;
  for (const [t, w] of best) out.set(scorer.index.term(t), w / sum);
  return out;
}

/** q' = (1 − λ) · q / Σ q + λ · e (the module comment); `query` as it is when λ = 0 or e is empty. */
export function expandQuery(query: QueryTerms, expansion: ReadonlyMap<string, number>, weight: number): QueryTerms {
  let total = 0;
  for (const w of query.values()) if (w > 0) total += w;
  if (!(weight > 0) || expansion.size === 0 || !(total > 0)) return query;
  const lambda = Math.min(1, weight);
  const out = new Map<string, number>();
  for (const [t, w] of query) if (w > 0) out.set(t, ((1 - lambda) * w) / total);
  for (const [t, w] of expansion) out.set(t, (out.get(t) ?? 0) + lambda * w);
  return out;
}
