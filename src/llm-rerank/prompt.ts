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

/**
 * How a window's prompt is worded and laid out; the windows, budgets, fitting, parsing and
 * fallbacks are the same for every layout.
 * - `issueloc` (the generic preset): a system message, the issue, each candidate as `[id] path —
 *   qualified name` with its code fenced, then the instruction for the mode (see {@link windowPrompt}).
 * - `swerank`: SweRank's own inference prompt for SweRankLLM (Reddy et al. 2025), see
 *   {@link swerankParts}: numeric identifiers, the issue before and after the candidates, a
 *   request for the whole permutation.
 */
export type PromptLayout = 'issueloc' | 'swerank';

export const PROMPT_LAYOUTS: readonly PromptLayout[] = ['issueloc', 'swerank'];

/**
 * Tokens SweRank leaves each candidate before it cuts the issue: the issue (written twice) is
 * cut only when the documents would get fewer (src/llm-rerank/presets.ts).
 */
const SWERANK_MIN_DOCUMENT_TOKENS = 300;

/**
 * The issue's share of a window's prompt of `n` candidates: `maxIssueTokens`, and at most
 * - `issueloc`: a third of `maxPromptTokens` (a small context keeps room for the code);
 * - `swerank`: what leaves {@link SWERANK_MIN_DOCUMENT_TOKENS} a candidate after the issue's two
 *   copies (14 852 tokens at the swerankllm preset's budget, whose `maxIssueTokens` is 14 000), but at least a sixth
 *   of `maxPromptTokens` (a third for both copies).
 */
function issueTokens(budget: PromptBudget, layout: PromptLayout, n: number): number {
  const share = layout === 'swerank'
    ? Math.max(Math.floor(budget.maxPromptTokens / 6), Math.floor((budget.maxPromptTokens - n * SWERANK_MIN_DOCUMENT_TOKENS) / 2))
    : Math.floor(budget.maxPromptTokens / 3);
  return Math.min(budget.maxIssueTokens, share);
}

/**
 * Texts of a window already cut to fit (see {@link fitWindowPrompt}): the issue, and each
 * candidate's text as its layout cuts it (`issueloc`: the code; `swerank`: the corpus document).
 */
export interface WindowCut {
  issue: string;
  codes: readonly string[];
}

/** The pieces of one window's prompt: the user message is `head`, the candidates joined by `joiner`, `beforeTail`, then `tail`. */
interface LayoutParts {
  system: string;
  head: string;
  joiner: string;
  beforeTail: string;
  tail: string;
  /** The text of a candidate that is cut to the per-candidate budget. */
  document(c: RerankCandidate): string;
  /** A candidate's entry, given its cut document. */
  entry(i: number, c: RerankCandidate, document: string): string;
}

const SYSTEM = 'You are an expert software engineer. You rank code functions by how likely each must be changed to resolve a reported issue.';

/** issueloc's own layout (RankGPT's listwise prompt worded for code; FIRST's single-identifier question in first-token mode). */
function issuelocParts(issueText: string, n: number, mode: RerankMode, style: IdentifierStyle): LayoutParts {
  const example = style === 'numeric' ? (n > 1 ? '[2] > [1]' : '[1]') : (n > 1 ? '[B] > [A]' : '[A]');
  const instruction = mode === 'permutation'
    ? `Rank the ${n} functions above by how likely each must be changed to resolve the issue, most likely first. List all identifiers in that order, in the form ${example}. Only respond with the ranking, no other words.`
    : `Which of the ${n} functions above most likely must be changed to resolve the issue? Respond with only its identifier${style === 'alpha' ? ' (one letter)' : ''}, without brackets or other words.`;
  return {
    system: SYSTEM,
    head: `I will give you ${n} functions of a repository, each marked with an identifier in brackets, and an issue reported against the repository.\n\nIssue:\n${issueText}\n\nFunctions:\n`,
    joiner: '\n\n',
    beforeTail: '\n\n',
    tail: instruction,
    document: (c) => c.code,
    entry: (i, c, code) => `[${identifierOf(i, style)}] ${c.path}${c.qualifiedName ? ` — ${c.qualifiedName}` : ''}\n\`\`\`\n${code}\n\`\`\``,
  };
}

/** SweRank's system message for GitHub issues (`load_reranker`, src/reranker/utils/llm_util.py). */
export const SWERANK_SYSTEM = 'You are CodeRanker, an intelligent code reviewer that can analyze GitHub issues and rank code functions based on their relevance to contain the faults causing the GitHub issue.';

/**
 * SweRank's inference prompt, as its reranking code builds it (SalesforceAIResearch/SweRank,
 * src/reranker/utils/rank_listwise_os_llm.py: `create_prompt`, `_add_prefix_prompt_github_issue`,
 * `_add_post_prompt_github_issue`, `_replace_number`; run by src/rerank.py with `use_logits=0`,
 * `use_alpha=0`, `variable_passages=True`, from script/run_rerank.sh: top 100, window 10, step 5):
 * - system message {@link SWERANK_SYSTEM} (sent as a system message: Qwen2.5's chat template,
 *   SweRankLLM's base, has one, and SweRank's training data carries it too);
 * - user message: `I will provide you with {n} code functions, each indicated by a numerical
 *   identifier []. Rank the code functions based on their relevance to contain the faults causing
 *   the GitHub issue: {issue}.\n`, an empty line, each candidate as `[i] {document}\n`, then
 *   `GitHub Issue: {issue}. \nRank the {n} code functions above based on their relevance to
 *   contain the faults causing the GitHub issue. All the code functions should be included and
 *   listed using identifiers, in descending order of relevance. The output format should be [] >
 *   [], e.g., [2] > [1]. Only respond with the ranking results, do not say any word or explain.`;
 * - a candidate's document is SweRank's function corpus entry (`find_py_or_non_dict_with_path`,
 *   src/get_repo_structure/get_patch_info.py): `path/Class/method` (or `path/function`) on the
 *   first line, then the code, preceded for a method by `class Class:` (joined without a line
 *   break, as SweRank does); bracketed numbers in it (`x[1]`) become `x(1)` so they cannot be
 *   taken for identifiers.
 * SweRank cuts each document to 1 024 tokens and the issue only when the prompt would not fit
 * its 32 768-token context; the swerankllm preset's budget does the same (src/llm-rerank/presets.ts).
 * Not reproduced: ftfy's `fix_text` over the prompt (Unicode repair). SweRankLLM's training
 * prompts (src/reranker/get_rerank_train_data.py) differ slightly (no empty line after the first
 * paragraph, no space before the last line break, the example `[4] > [2]`) and their target is the
 * positive's identifier alone (`--first_identifier_only`): such an answer `[k]` puts k first and
 * keeps the others' order, as SweRank's `receive_permutation` does.
 */
function swerankParts(issueText: string, n: number): LayoutParts {
  return {
    system: SWERANK_SYSTEM,
    head: `I will provide you with ${n} code functions, each indicated by a numerical identifier []. Rank the code functions based on their relevance to contain the faults causing the GitHub issue: ${issueText}.\n\n`,
    tail: `GitHub Issue: ${issueText}. \nRank the ${n} code functions above based on their relevance to contain the faults causing the GitHub issue. All the code functions should be included and listed using identifiers, in descending order of relevance. The output format should be [] > [], e.g., [2] > [1]. Only respond with the ranking results, do not say any word or explain.`,
    joiner: '',
    beforeTail: '',
    document: (c) => {
      const parts = c.qualifiedName ? c.qualifiedName.split('.') : [];
      const name = [c.path, ...parts].join('/');
      return `${name}\n${parts.length > 1 ? `class ${parts[parts.length - 2]}:` : ''}${c.code}`;
    },
    entry: (i, _c, document) => `[${i + 1}] ${document.replace(/\[(\d+)\]/g, '($1)')}\n`,
  };
}

/** The pieces of a window's prompt in `layout`, with the issue text as it is sent. */
function layoutParts(layout: PromptLayout, issueText: string, n: number, mode: RerankMode, style: IdentifierStyle): LayoutParts {
  return layout === 'swerank' ? swerankParts(issueText, n) : issuelocParts(issueText, n, mode, style);
}

/**
 * The chat messages for one window, in `layout` (default `issueloc`): the issue cut to its share
 * of `maxPromptTokens` (see {@link issueTokens}), each candidate's text cut so the whole prompt
 * fits `maxPromptTokens` (at most `maxCandidateTokens` each, at least 32), estimated; or the texts
 * of `cut`, already fitted by {@link fitWindowPrompt}. In the `issueloc` layout the instruction
 * asks for a permutation `[2] > [1] > …` of all candidates (RankGPT's listwise prompt, Sun et al.
 * 2023, worded for code as in SweRank), or only the identifier of the most relevant candidate
 * (first-token mode: FIRST, Reddy et al. 2024). The `swerank` layout always asks for the whole
 * permutation with numeric identifiers (`mode` and `style` are not used).
 */
export function windowPrompt(
  issue: string, candidates: readonly RerankCandidate[], mode: RerankMode, style: IdentifierStyle,
  budget: PromptBudget = DEFAULT_PROMPT_BUDGET, layout: PromptLayout = 'issueloc', cut?: WindowCut,
): ChatMessage[] {
  const n = candidates.length;
  const issueText = cut ? cut.issue : trimToTokens(issue.trim(), issueTokens(budget, layout, n));
  const parts = layoutParts(layout, issueText, n, mode, style);
  const overhead = estimateTokens(parts.system + parts.head + parts.tail) + n * 24;
  const perCandidate = Math.max(32, Math.min(budget.maxCandidateTokens, Math.floor((budget.maxPromptTokens - overhead) / Math.max(1, n))));
  const body = candidates.map((c, i) => parts.entry(i, c, cut ? cut.codes[i] : trimToTokens(parts.document(c), perCandidate))).join(parts.joiner);
  return [
    { role: 'system', content: parts.system },
    { role: 'user', content: `${parts.head}${body}${parts.beforeTail}${parts.tail}` },
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
 * {@link windowPrompt} in `layout` fitted with the model's token counts: the issue cut to its
 * share ({@link issueTokens}: `maxIssueTokens`, at most a third of the prompt in the `issueloc`
 * layout), the layout without candidate texts counted as it is sent (chat template included when
 * the counter can; the `swerank` layout's two copies of the issue too), and the rest shared among
 * the candidates' texts (the code; the corpus document in the `swerank` layout): each at most
 * `maxCandidateTokens`, short ones leaving room to longer ones ({@link waterLevel}), each at least
 * 16 tokens. The whole prompt is counted again and, when the joins tokenize longer than their
 * parts, the texts are cut by the excess (at most 3 rounds).
 * @returns the messages and their tokens as counted (over `maxPromptTokens` only when even 16
 *   tokens a candidate do not fit).
 */
export async function fitWindowPrompt(
  issue: string, candidates: readonly RerankCandidate[], mode: RerankMode, style: IdentifierStyle,
  budget: PromptBudget, layout: PromptLayout, counter: TokenCounter, signal?: AbortSignal,
): Promise<{ messages: ChatMessage[]; promptTokens: number }> {
  const issueText = await cutToTokens(issue.trim(), issueTokens(budget, layout, candidates.length), counter, signal);
  const parts = layoutParts(layout, issueText, candidates.length, mode, style);
  const documents = candidates.map((c) => parts.document(c));
  const skeleton = windowPrompt(issue, candidates, mode, style, budget, layout, { issue: issueText, codes: candidates.map(() => '') });
  let room = budget.maxPromptTokens - await counter.prompt(skeleton, signal);
  const counts: number[] = [];
  for (const d of documents) counts.push(await counter.count(d, signal));
  const max = Math.max(MIN_CANDIDATE_TOKENS, budget.maxCandidateTokens);
  let fitted: { messages: ChatMessage[]; promptTokens: number } | undefined;
  for (let round = 0; round < 3; round++) {
    const cap = waterLevel(counts, room, MIN_CANDIDATE_TOKENS, max);
    const codes: string[] = [];
    for (let i = 0; i < documents.length; i++) codes.push(counts[i] <= cap ? documents[i] : await cutToTokens(documents[i], cap, counter, signal));
    const messages = windowPrompt(issue, candidates, mode, style, budget, layout, { issue: issueText, codes });
    fitted = { messages, promptTokens: await counter.prompt(messages, signal) };
    const excess = fitted.promptTokens - budget.maxPromptTokens;
    if (excess <= 0 || cap <= MIN_CANDIDATE_TOKENS) break;
    room -= excess + candidates.length;
  }
  return fitted!;
}
