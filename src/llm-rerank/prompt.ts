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

/** `text` cut to about `tokens` tokens at a line end, with a marker when cut. */
export function trimToTokens(text: string, tokens: number): string {
  const maxChars = Math.max(0, tokens * 4);
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const nl = cut.lastIndexOf('\n');
  return `${nl > maxChars / 2 ? cut.slice(0, nl) : cut}\n… (cut)`;
}

/**
 * How a window's prompt is worded and laid out; the windows, budgets, parsing and fallbacks are
 * the same for every layout.
 * - `issueloc` (the generic preset): a system message, the issue, each candidate as `[id] path —
 *   qualified name` with its code fenced, then the instruction for the mode (see {@link windowPrompt}).
 * - `swerank`: SweRank's own inference prompt for SweRankLLM (Reddy et al. 2025), see
 *   {@link swerankParts}: numeric identifiers, the issue before and after the candidates, a
 *   request for the whole permutation.
 */
export type PromptLayout = 'issueloc' | 'swerank';

export const PROMPT_LAYOUTS: readonly PromptLayout[] = ['issueloc', 'swerank'];

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

/**
 * The chat messages for one window, in `layout` (default `issueloc`): the issue cut to
 * `maxIssueTokens`, each candidate's text cut so the whole prompt fits `maxPromptTokens` (at most
 * `maxCandidateTokens` each, at least 32). In the `issueloc` layout the instruction asks for a
 * permutation `[2] > [1] > …` of all candidates (RankGPT's listwise prompt, Sun et al. 2023,
 * worded for code as in SweRank), or only the identifier of the most relevant candidate
 * (first-token mode: FIRST, Reddy et al. 2024). The `swerank` layout always asks for the whole
 * permutation with numeric identifiers (`mode` and `style` are not used).
 */
export function windowPrompt(issue: string, candidates: readonly RerankCandidate[], mode: RerankMode, style: IdentifierStyle, budget: PromptBudget = DEFAULT_PROMPT_BUDGET, layout: PromptLayout = 'issueloc'): ChatMessage[] {
  const n = candidates.length;
  const issueText = trimToTokens(issue.trim(), budget.maxIssueTokens);
  const parts = layout === 'swerank' ? swerankParts(issueText, n) : issuelocParts(issueText, n, mode, style);
  const overhead = estimateTokens(parts.system + parts.head + parts.tail) + n * 24;
  const perCandidate = Math.max(32, Math.min(budget.maxCandidateTokens, Math.floor((budget.maxPromptTokens - overhead) / Math.max(1, n))));
  const body = candidates.map((c, i) => parts.entry(i, c, trimToTokens(parts.document(c), perCandidate))).join(parts.joiner);
  return [
    { role: 'system', content: parts.system },
    { role: 'user', content: `${parts.head}${body}${parts.beforeTail}${parts.tail}` },
  ];
}
