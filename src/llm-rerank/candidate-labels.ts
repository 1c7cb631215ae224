/**
 * Candidate identifiers in a reranking prompt and how model output is read back into an order.
 * Numeric `[1]`…`[n]` (RankGPT, SweRank) or alphabetic `[A]`…`[T]` (FIRST, Reddy et al. 2024:
 * letters are single tokens in common vocabularies, so the first generated token names one
 * candidate; `10` starts with the token of `1` in tokenizers that split digits).
 */

export type IdentifierStyle = 'numeric' | 'alpha';

/** Identifier of the i-th candidate (0-based) of a window, without brackets. */
export function identifierOf(i: number, style: IdentifierStyle): string {
  if (style === 'numeric') return String(i + 1);
  if (i >= 26) throw new RangeError(`alphabetic identifiers stop at Z (window of ${i + 1})`);
  return String.fromCharCode(65 + i);
}

/** Index (0-based) of identifier `id` among `n` candidates, or -1. */
export function indexOfIdentifier(id: string, n: number, style: IdentifierStyle): number {
  if (style === 'numeric') {
    if (!/^\d+$/.test(id)) return -1;
    const i = Number(id) - 1;
    return i >= 0 && i < n ? i : -1;
  }
  if (!/^[A-Z]$/.test(id)) return -1;
  const i = id.charCodeAt(0) - 65;
  return i < n ? i : -1;
}

/**
 * The order a permutation text gives, e.g. `[3] > [1] > [2]`, as 0-based candidate indexes,
 * and how many candidates the text named.
 * Robust to what models write (RankGPT's `receive_permutation` rule): identifiers are read in
 * bracketed form first (`[3]`, `[ C ]`), else as bare tokens; unknown identifiers are dropped,
 * repeats keep their first place, and candidates never named follow in their given (retriever)
 * order. A thinking model's reasoning is skipped: only the text after the last `</think>` is
 * read, and nothing of a text still inside its `<think>` block (cut by the token limit).
 * Never throws; an empty or unreadable text leaves the order unchanged.
 */
export function parsePermutation(answer: string, n: number, style: IdentifierStyle): { order: number[]; named: number } {
  const text = afterThinking(answer);
  const pattern = style === 'numeric' ? /\[\s*(\d+)\s*\]/g : /\[\s*([A-Za-z])\s*\]/g;
  let ids = [...text.matchAll(pattern)].map((m) => m[1].toUpperCase());
  if (ids.length === 0) ids = (text.match(style === 'numeric' ? /\b\d+\b/g : /\b[A-Z]\b/g) ?? []).map((s) => s.toUpperCase());
  const seen = new Set<number>();
  const order: number[] = [];
  for (const id of ids) {
    const i = indexOfIdentifier(id, n, style);
    if (i < 0 || seen.has(i)) continue;
    seen.add(i);
    order.push(i);
  }
  const named = order.length;
  for (let i = 0; i < n; i++) if (!seen.has(i)) order.push(i);
  return { order, named };
}

/**
 * The order the first token's log-probabilities give (first-token ranking, FIRST / SweRankLLM):
 * candidates sorted by the log-probability of their identifier as the first generated token,
 * highest first; several tokens naming the same candidate (`C`, ` C`, `[C`) count at their best;
 * candidates absent from the list follow in their given order, and so do ties.
 * @returns 0-based indexes and how many candidates the tokens named.
 */
export function orderByFirstToken(tokens: readonly { token: string; logprob: number }[], n: number, style: IdentifierStyle): { order: number[]; named: number } {
  const best = new Array<number>(n).fill(-Infinity);
  for (const { token, logprob } of tokens) {
    const id = token.trim().replace(/^\[/, '').replace(/\]$/, '').trim();
    const i = indexOfIdentifier(id, n, style);
    if (i >= 0 && logprob > best[i]) best[i] = logprob;
  }
  const all = [...Array(n).keys()];
  const named = all.filter((i) => best[i] > -Infinity).sort((a, b) => best[b] - best[a] || a - b);
  const unnamed = all.filter((i) => best[i] === -Infinity);
  return { order: [...named, ...unnamed], named: named.length };
}

/** The answer after a thinking model's `<think>…</think>` block; '' while the block is open (the answer was cut in it). */
export function afterThinking(text: string): string {
  const close = text.lastIndexOf('</think>');
  if (close >= 0) return text.slice(close + '</think>'.length);
  return /^\s*<think>/.test(text) ? '' : text;
}
