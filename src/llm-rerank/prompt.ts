import { estimateTokens, type ChatMessage } from './chat-model.js';
import { identifierOf, type IdentifierStyle } from './candidate-labels.js';
import type { TokenCounter } from './token-counter.js';

/** A function offered to the reranker. */
export interface RerankCandidate {
  /** `path:Qualified.name` (what the ranking reports). */
  id: string;
  path: string;
  qualifiedName: string;
  code: string;
}

/** What the model is asked for: the full order (text) or the one best identifier (first token). */
export type RerankMode = 'permutation' | 'first-token';

/**
 * Token budgets of one window's prompt: counted with {@link estimateTokens} by
 * {@link windowPrompt}, with the model's tokenizer by {@link fitWindowPrompt}. The listwise
 * reranker lowers `maxPromptTokens` to what the model's context leaves after the answer.
 */
export interface PromptBudget {
  /** Whole prompt (default 8192; leave room for the answer within the model's context). */
  maxPromptTokens: number;
  /** The issue text (default 1024; SweRank's reranker cuts the query the same way). */
  maxIssueTokens: number;
  /** Each candidate's code (default 1024, SweRank's code document limit); lowered to fit the prompt. */
  maxCandidateTokens: number;
}

export const DEFAULT_PROMPT_BUDGET: PromptBudget = { maxPromptTokens: 8192, maxIssueTokens: 1024, maxCandidateTokens: 1024 };

/** Marks a text cut to its budget. */
const CUT_MARK = '\n… (cut)';

const SYSTEM = 'You are an expert software engineer. You rank code functions by how likely each must be changed to resolve a reported issue.';

/** `text` cut to about `tokens` tokens at a line end, with a marker when cut. */
export function trimToTokens(text: string, tokens: number): string {
  const maxChars = Math.max(0, tokens * 4);
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const nl = cut.lastIndexOf('\n');
  return `${nl > maxChars / 2 ? cut.slice(0, nl) : cut}${CUT_MARK}`;
}

/** Most token counts one {@link cutToTokens} asks for (a binary search over 10^4 characters takes 14). */
const MAX_CUT_PROBES = 16;

/**
 * `text` cut to at most `tokens` tokens by `counter` (the cut mark included), at a line end
 * when one lies in the second half of the cut, as {@link trimToTokens} does: a binary search over
 * the prefix length, started at the share of characters the token counts suggest, of at most
 * {@link MAX_CUT_PROBES} counts. Returned unchanged when it fits.
 */
export async function cutToTokens(text: string, tokens: number, counter: TokenCounter, signal?: AbortSignal): Promise<string> {
  const total = await counter.count(text, signal);
  if (total <= tokens) return text;
  const target = tokens - await counter.count(CUT_MARK, signal);
  if (target <= 0) return CUT_MARK.trimStart();
  const snap = (n: number) => {
    const nl = text.lastIndexOf('\n', n);
    return nl > n / 2 ? nl : n;
  };
  // lo: longest prefix known to fit; hi: shortest known not to.
  let lo = 0;
  let hi = text.length;
  let mid = Math.min(hi - 1, Math.max(1, Math.floor(text.length * (target / total))));
  for (let probe = 0; probe < MAX_CUT_PROBES && hi - lo > 1; probe++) {
    if ((await counter.count(text.slice(0, snap(mid)), signal)) <= target) lo = mid;
    else hi = mid;
    mid = Math.floor((lo + hi) / 2);
  }
  return `${text.slice(0, snap(lo))}${CUT_MARK}`;
}

/** The issue's share of a prompt: `maxIssueTokens`, at most a third of `maxPromptTokens` (a small context keeps room for the code). */
function issueTokens(budget: PromptBudget): number {
  return Math.min(budget.maxIssueTokens, Math.floor(budget.maxPromptTokens / 3));
}

/** Texts of a window already cut to fit (see {@link fitWindowPrompt}): the issue, and each candidate's code. */
export interface WindowCut {
  issue: string;
  codes: readonly string[];
}

/**
 * The chat messages for one window: the issue, then each candidate as `[id] path`, its qualified
 * name and its code (trimmed so the whole prompt fits `maxPromptTokens`, estimated; or the texts
 * of `cut`, already fitted by {@link fitWindowPrompt}), then the instruction:
 * a permutation `[2] > [1] > …` of all candidates (RankGPT's listwise prompt, Sun et al. 2023,
 * worded for code as in SweRank), or only the identifier of the most relevant candidate
 * (first-token mode: FIRST, Reddy et al. 2024; SweRankLLM is trained to emit only the positive's
 * identifier).
 */
export function windowPrompt(issue: string, candidates: readonly RerankCandidate[], mode: RerankMode, style: IdentifierStyle, budget: PromptBudget = DEFAULT_PROMPT_BUDGET, cut?: WindowCut): ChatMessage[] {
  const n = candidates.length;
  const issueText = cut ? cut.issue : trimToTokens(issue.trim(), issueTokens(budget));
  const example = style === 'numeric' ? (n > 1 ? '[2] > [1]' : '[1]') : (n > 1 ? '[B] > [A]' : '[A]');
  const instruction = mode === 'permutation'
    ? `Rank the ${n} functions above by how likely each must be changed to resolve the issue, most likely first. List all identifiers in that order, in the form ${example}. Only respond with the ranking, no other words.`
    : `Which of the ${n} functions above most likely must be changed to resolve the issue? Respond with only its identifier${style === 'alpha' ? ' (one letter)' : ''}, without brackets or other words.`;
  const head = `I will give you ${n} functions of a repository, each marked with an identifier in brackets, and an issue reported against the repository.\n\nIssue:\n${issueText}\n\nFunctions:\n`;
  const overhead = estimateTokens(SYSTEM + head + instruction) + n * 24;
  const perCandidate = Math.max(32, Math.min(budget.maxCandidateTokens, Math.floor((budget.maxPromptTokens - overhead) / Math.max(1, n))));
  const body = candidates.map((c, i) => {
    const header = `[${identifierOf(i, style)}] ${c.path}${c.qualifiedName ? ` — ${c.qualifiedName}` : ''}`;
    return `${header}\n\`\`\`\n${cut ? cut.codes[i] : trimToTokens(c.code, perCandidate)}\n\`\`\``;
  }).join('\n\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `${head}${body}\n\n${instruction}` },
  ];
}

/** Fewest tokens a candidate's code is cut to, however small the budget (its first lines still say what it is). */
const MIN_CANDIDATE_TOKENS = 16;

/**
 * The largest cap T (from `min` to `max`) such that the texts of `counts` tokens, each cut to T,
 * fit `room` tokens together: short texts leave their unused share to longer ones. `min` when
 * even that does not fit.
 */
export function waterLevel(counts: readonly number[], room: number, min: number, max: number): number {
  const need = (t: number) => counts.reduce((s, c) => s + Math.min(c, t), 0);
  if (need(max) <= room) return max;
  let lo = min;
  let hi = max;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (need(mid) <= room) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * {@link windowPrompt} fitted with the model's token counts: the issue cut to `maxIssueTokens`
 * (at most a third of the prompt), the layout without code counted as it is sent (chat template
 * included when the counter can), and the rest shared among the candidates' code: each at most
 * `maxCandidateTokens`, short ones leaving room to longer ones ({@link waterLevel}), each at least
 * 16 tokens. The whole prompt is counted again and, when the joins tokenize longer than their
 * parts, the code is cut by the excess (at most 3 rounds).
 * @returns the messages and their tokens as counted (over `maxPromptTokens` only when even 16
 *   tokens a candidate do not fit).
 */
export async function fitWindowPrompt(
  issue: string, candidates: readonly RerankCandidate[], mode: RerankMode, style: IdentifierStyle,
  budget: PromptBudget, counter: TokenCounter, signal?: AbortSignal,
): Promise<{ messages: ChatMessage[]; promptTokens: number }> {
  const issueText = await cutToTokens(issue.trim(), issueTokens(budget), counter, signal);
  const skeleton = windowPrompt(issue, candidates, mode, style, budget, { issue: issueText, codes: candidates.map(() => '') });
  let room = budget.maxPromptTokens - await counter.prompt(skeleton, signal);
  const counts: number[] = [];
  for (const c of candidates) counts.push(await counter.count(c.code, signal));
  const max = Math.max(MIN_CANDIDATE_TOKENS, budget.maxCandidateTokens);
  let fitted: { messages: ChatMessage[]; promptTokens: number } | undefined;
  for (let round = 0; round < 3; round++) {
    const cap = waterLevel(counts, room, MIN_CANDIDATE_TOKENS, max);
    const codes: string[] = [];
    for (let i = 0; i < candidates.length; i++) codes.push(counts[i] <= cap ? candidates[i].code : await cutToTokens(candidates[i].code, cap, counter, signal));
    const messages = windowPrompt(issue, candidates, mode, style, budget, { issue: issueText, codes });
    fitted = { messages, promptTokens: await counter.prompt(messages, signal) };
    const excess = fitted.promptTokens - budget.maxPromptTokens;
    if (excess <= 0 || cap <= MIN_CANDIDATE_TOKENS) break;
    room -= excess + candidates.length;
  }
  return fitted!;
}
