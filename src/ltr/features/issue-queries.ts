/**
 * The code identifiers of an issue as a query, which the lexical features score apart from the
 * whole issue (the title alone is the parsed issue's `titleTerms`).
 */
import type { ParsedIssue } from '../../text/parsed-issue.js';
import { tokenize } from '../../text/tokenize.js';

/**
 * The code identifiers of an issue as a query: each word written like code (with `_` inside, an
 * inner capital, or letters and digits: `index_together`, `StatReloader`, `_verts3d`) as its
 * whole-identifier token, counted.
 */
export function codeTermsOf(issue: ParsedIssue, stem: boolean): Map<string, number> {
  const q = new Map<string, number>();
  for (const w of issue.words) {
    if (!/[a-z0-9]_[a-zA-Z0-9]|[a-z][A-Z]|[A-Za-z][0-9]/.test(w)) continue;
    const toks = tokenize(w, { stem });
    if (toks.length > 0) q.set(toks[0], (q.get(toks[0]) ?? 0) + 1);
  }
  return q;
}
