import { estimateTokens, type ChatMessage } from './chat-model.js';
import { identifierOf, type IdentifierStyle } from './candidate-labels.js';

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

/** Token budgets of one window's prompt (counted with {@link estimateTokens}). */
export interface PromptBudget {
  /** Whole prompt (default 8192; leave room for the answer within the model's context). */
  maxPromptTokens: number;
  /** The issue text (default 1024; SweRank's reranker cuts the query the same way). */
  maxIssueTokens: number;
  /** Each candidate's code (default 1024, SweRank's code document limit); lowered to fit the prompt. */
  maxCandidateTokens: number;
}

export const DEFAULT_PROMPT_BUDGET: PromptBudget = { maxPromptTokens: 8192, maxIssueTokens: 1024, maxCandidateTokens: 1024 };

const SYSTEM = 'You are an expert software engineer. You rank code functions by how likely each must be changed to resolve a reported issue.';

/** `text` cut to about `tokens` tokens at a line end, with a marker when cut. */
export function trimToTokens(text: string, tokens: number): string {
  const maxChars = Math.max(0, tokens * 4);
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const nl = cut.lastIndexOf('\n');
  return `${nl > maxChars / 2 ? cut.slice(0, nl) : cut}\n… (cut)`;
}

/**
 * The chat messages for one window: the issue, then each candidate as `[id] path`, its qualified
 * name and its code (trimmed so the whole prompt fits `maxPromptTokens`), then the instruction:
 * a permutation `[2] > [1] > …` of all candidates (RankGPT's listwise prompt, Sun et al. 2023,
 * worded for code as in SweRank), or only the identifier of the most relevant candidate
 * (first-token mode: FIRST, Reddy et al. 2024; SweRankLLM is trained to emit only the positive's
 * identifier).
 */
export function windowPrompt(issue: string, candidates: readonly RerankCandidate[], mode: RerankMode, style: IdentifierStyle, budget: PromptBudget = DEFAULT_PROMPT_BUDGET): ChatMessage[] {
  const n = candidates.length;
  const issueText = trimToTokens(issue.trim(), budget.maxIssueTokens);
  const example = style === 'numeric' ? (n > 1 ? '[2] > [1]' : '[1]') : (n > 1 ? '[B] > [A]' : '[A]');
  const instruction = mode === 'permutation'
    ? `Rank the ${n} functions above by how likely each must be changed to resolve the issue, most likely first. List all identifiers in that order, in the form ${example}. Only respond with the ranking, no other words.`
    : `Which of the ${n} functions above most likely must be changed to resolve the issue? Respond with only its identifier${style === 'alpha' ? ' (one letter)' : ''}, without brackets or other words.`;
  const head = `I will give you ${n} functions of a repository, each marked with an identifier in brackets, and an issue reported against the repository.\n\nIssue:\n${issueText}\n\nFunctions:\n`;
  const overhead = estimateTokens(SYSTEM + head + instruction) + n * 24;
  const perCandidate = Math.max(32, Math.min(budget.maxCandidateTokens, Math.floor((budget.maxPromptTokens - overhead) / Math.max(1, n))));
  const body = candidates.map((c, i) => {
    const header = `[${identifierOf(i, style)}] ${c.path}${c.qualifiedName ? ` — ${c.qualifiedName}` : ''}`;
    return `${header}\n\`\`\`\n${trimToTokens(c.code, perCandidate)}\n\`\`\``;
  }).join('\n\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `${head}${body}\n\n${instruction}` },
  ];
}
