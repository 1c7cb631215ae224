/**
 * The code identifiers of an issue as a query, which the lexical features score apart from the
 * whole issue (the title alone is the parsed issue's `titleTerms`).
 */
import type { ParsedIssue } from '../../text/parsed-issue.js';
import { createTokenizer } from '../../text/tokenize.js';

/**
 * The code identifiers of an issue as a query: each word written like code (with `_` inside, an
 * inner capital, or letters and digits: `index_together`, `StatReloader`, `_verts3d`) as its
 * whole-identifier token, counted.
 */
export function codeTermsOf(issue: ParsedIssue, stem: boolean): Map<string, number> {
  const q = new Map<string, number>();
  // a word of the issue is one word of the tokenizer's (`[A-Za-z_][A-Za-z0-9_]*`): its tokens, memoised
  const tokenizer = stem ? STEMMING : PLAIN;
  for (const w of issue.words) {
    if (!CODE_WORD.test(w)) continue;
    const toks = tokenizer.wordTokens(w);
    if (toks.length > 0) q.set(toks[0], (q.get(toks[0]) ?? 0) + 1);
  }
  return q;
}

/** A word written like code: `_` inside, an inner capital, or letters and digits. */
const CODE_WORD = /[a-z0-9]_[a-zA-Z0-9]|[a-z][A-Z]|[A-Za-z][0-9]/;
const PLAIN = createTokenizer({ stem: false });
const STEMMING = createTokenizer({ stem: true });
