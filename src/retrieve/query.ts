import { tokenize } from '../text/tokenize.js';
import type { QueryTerms } from './bm25f.js';

/**
 * Extra weight of each token of the title (its first line) in the query: the summary is
 * the reporter's own short statement of the problem, weighed apart from the description as in
 * Saha et al. (2013, BLUiR: summary and description as separate queries) and Ye et al. (2014).
 * Chosen by measurement (docs/results.md): 2 raised the mean of the seven Acc@k figures on
 * SWE-bench Lite by 1.5 points and every Loc-Bench figure by 0.7–2.3.
 */
export const DEFAULT_TITLE_WEIGHT = 2;

/**
 * The bag-of-words query of an issue: each token of the issue text (title and body) with its
 * count as weight, plus `titleWeight` for each token of the title (the first non-empty line),
 * tokenized exactly like the documents (identifier splitting, stop words, and stemming when the
 * index was built with it).
 *
 * @param text the issue text; any size (a 1 MB body tokenizes in well under a second).
 * @param opts.titleWeight extra weight per title token (default {@link DEFAULT_TITLE_WEIGHT}; 0: plain counts).
 * @returns term → weight; empty when the text has no indexable word.
 */
export function queryTermsOf(text: string, opts: { stem: boolean; titleWeight?: number }): QueryTerms {
  const q = new Map<string, number>();
  for (const t of tokenize(text, { stem: opts.stem })) q.set(t, (q.get(t) ?? 0) + 1);
  const tw = opts.titleWeight ?? DEFAULT_TITLE_WEIGHT;
  if (tw > 0) for (const t of tokenize(titleOf(text), { stem: opts.stem })) q.set(t, q.get(t)! + tw);
  return q;
}

/** The title: its first non-empty line, at most 300 characters. */
export function titleOf(text: string): string {
  const m = /\S[^\n]*/.exec(text);
  return m ? m[0].slice(0, 300) : '';
}
