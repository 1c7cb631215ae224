/**
 * Weights of training queries so that no language or repository dominates the LambdaMART
 * objective (`FitOptions.balance`): pooled imported training sets hold 690 Python issues
 * against 41 in C, and the biggest repositories 25 issues each against 1 in the smallest.
 */
import { languageOf } from '../corpus/languages.js';
import type { TrainingQuery } from './objective.js';

/** What queries are balanced over: their gold files' language, or their repository. */
export const BALANCES = ['none', 'language', 'repo'] as const;
export type Balance = (typeof BALANCES)[number];

/** The language most of the gold files are in (ties: the first gold file's); `other` for none. */
export function goldLanguage(gold: readonly string[]): string {
  const count = new Map<string, number>();
  for (const g of gold) {
    const lang = languageOf(g);
    if (lang) count.set(lang, (count.get(lang) ?? 0) + 1);
  }
  let best = 'other';
  for (const [lang, n] of count) if (n > (count.get(best) ?? 0)) best = lang;
  return best;
}

/**
 * A weight per query: 1 / n_g^power for a query of a group of n_g queries (groups by `by`),
 * scaled so the weights sum to the number of queries. power 1: every group weighs the same;
 * 0.5: a group weighs √n_g; 0 (or `by` none): every query 1.
 */
export function queryWeights(queries: readonly Pick<TrainingQuery, 'repo' | 'gold'>[], by: Balance, power = 1): number[] {
  if (by === 'none' || power === 0 || queries.length === 0) return queries.map(() => 1);
  const key = (q: Pick<TrainingQuery, 'repo' | 'gold'>) => (by === 'repo' ? q.repo : goldLanguage(q.gold.file));
  const count = new Map<string, number>();
  for (const q of queries) count.set(key(q), (count.get(key(q)) ?? 0) + 1);
  const raw = queries.map((q) => count.get(key(q))! ** -power);
  const scale = queries.length / raw.reduce((s, w) => s + w, 0);
  return raw.map((w) => w * scale);
}
