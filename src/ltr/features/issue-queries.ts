/**
 * The partial queries of an issue that the lexical features score apart from the whole issue:
 * its code identifiers, and its title.
 */
import type { QueryTerms } from '../../retrieve/bm25f.js';
import { queryTermsOf, titleOf } from '../../retrieve/query.js';
import { tokenize } from '../../text/tokenize.js';

/**
 * The code identifiers of an issue text as a query: each word written like code (with `_`
 * inside, an inner capital, or letters and digits: `index_together`, `StatReloader`, `_verts3d`)
 * as its whole-identifier token, counted.
 */
export function codeTermsOf(text: string, stem: boolean): Map<string, number> {
  const q = new Map<string, number>();
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const w = m[0];
    if (!/[a-z0-9]_[a-zA-Z0-9]|[a-z][A-Z]|[A-Za-z][0-9]/.test(w)) continue;
    const toks = tokenize(w, { stem });
    if (toks.length > 0) q.set(toks[0], (q.get(toks[0]) ?? 0) + 1);
  }
  return q;
}

/** The title (`titleOf`: its first non-empty line) as a query of plain counts. */
export function titleTermsOf(text: string, stem: boolean): QueryTerms {
  return queryTermsOf(titleOf(text), { stem, titleWeight: 0 });
}
