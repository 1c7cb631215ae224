import { tokenize } from '../text/tokenize.js';
import type { QueryTerms } from './bm25f.js';

/**
 * The bag-of-words query of an issue: each token of the issue text (title and body) with its
 * count as weight, tokenized exactly like the documents (identifier splitting, stop words, and
 * stemming when the index was built with it).
 *
 * @param text the issue text; any size (a 1 MB body tokenizes in well under a second).
 * @returns term → count; empty when the text has no indexable word.
 */
export function queryTermsOf(text: string, opts: { stem: boolean }): QueryTerms {
  const q = new Map<string, number>();
  for (const t of tokenize(text, { stem: opts.stem })) q.set(t, (q.get(t) ?? 0) + 1);
  return q;
}
