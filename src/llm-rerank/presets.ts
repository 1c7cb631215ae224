import { IssuelocError } from '../errors.js';
import type { IdentifierStyle } from './candidate-labels.js';
import { DEFAULT_PROMPT_BUDGET, type PromptBudget, type PromptLayout, type RerankMode } from './prompt.js';

/** Names of the reranker presets (`--rerank <preset>:<backend spec>`). */
export const RERANK_PRESET_NAMES = ['generic', 'swerankllm'] as const;
export type RerankPresetName = typeof RERANK_PRESET_NAMES[number];

/** The conventions a reranking model was trained with: prompt, identifiers, ranking mode, windows and budgets. */
export interface RerankPreset {
  name: RerankPresetName;
  layout: PromptLayout;
  /** Mode used unless the user names another of `modes`. */
  mode: RerankMode;
  /** The modes the preset allows. */
  modes: readonly RerankMode[];
  /** Identifiers; undefined: by mode (letters in first-token mode, numbers in permutation mode). */
  identifiers?: IdentifierStyle;
  top: number;
  window: number;
  stride: number;
  budget: PromptBudget;
  /**
   * The model's context (tokens): what a local GGUF model is opened with and what prompts are
   * fitted to when neither `--rerank-context` nor the server gives one; undefined: the backend's
   * default (GGUF: 8 192), and prompts fitted to the budget alone.
   */
  contextTokens?: number;
}

/** SweRank's context size (src/rerank.py: `context_size=32768`), the length SweRankLLM's Qwen2.5-Coder base accepts. */
const SWERANK_CONTEXT = 32_768;
/** Tokens kept for the answer of a window of 10 (our `maxTokens`: 5 per candidate + 8). */
const ANSWER_ROOM = 64;

/**
 * The presets. `generic` (the default, for any chat model): issueloc's prompt, first-token mode
 * with the automatic switch to permutation mode when the server gives no log-probabilities,
 * SweRank's windows (100 / 10 / 5). `swerankllm`: SweRankLLM-Small/-Large as SweRank's own
 * inference code runs them (SalesforceAIResearch/SweRank: src/rerank.py, script/run_rerank.sh,
 * src/reranker/utils/rank_listwise_os_llm.py): SweRank's prompt layout (src/llm-rerank/prompt.ts,
 * `swerankParts`), numeric identifiers, the whole permutation generated, top 100, window 10,
 * stride 5; each candidate cut to 1 024 tokens and the issue (written twice) only as far as the
 * 32 768-token context needs: (32 768 − 10 × 300 tokens of code − the answer) / 2 ≈ 14 000
 * tokens, since SweRank cuts the issue only when the candidates would get under 300 tokens each.
 */
export const RERANK_PRESETS: Readonly<Record<RerankPresetName, RerankPreset>> = {
  generic: {
    name: 'generic', layout: 'issueloc', mode: 'first-token', modes: ['first-token', 'permutation'],
    top: 100, window: 10, stride: 5, budget: DEFAULT_PROMPT_BUDGET,
  },
  swerankllm: {
    name: 'swerankllm', layout: 'swerank', mode: 'permutation', modes: ['permutation'], identifiers: 'numeric',
    top: 100, window: 10, stride: 5,
    budget: { maxPromptTokens: SWERANK_CONTEXT - ANSWER_ROOM, maxIssueTokens: 14_000, maxCandidateTokens: 1024 },
    contextTokens: SWERANK_CONTEXT,
  },
};

/** The backend kinds a `--rerank` spec names after its preset. */
const BACKENDS = ['openai', 'gguf'];

/**
 * A `--rerank` value split into its preset and backend spec: `swerankllm:openai:<url>#<model>` →
 * (`swerankllm`, `openai:<url>#<model>`); a value without a preset (`openai:…`, `gguf:…`, `none`,
 * or one that is no spec at all, left to the backend parser to refuse) → (undefined, value).
 * @throws IssuelocError (exit 2) for an unknown preset before a backend spec, listing the presets.
 */
export function splitRerankSpec(value: string): { preset: RerankPresetName | undefined; backend: string } {
  const v = value.trim();
  const colon = v.indexOf(':');
  const word = colon < 0 ? '' : v.slice(0, colon);
  const rest = v.slice(colon + 1);
  if (colon < 0 || BACKENDS.includes(word) || !BACKENDS.some((k) => rest.startsWith(`${k}:`))) return { preset: undefined, backend: value };
  if (!(RERANK_PRESET_NAMES as readonly string[]).includes(word)) {
    throw new IssuelocError(`--rerank: unknown preset '${word}' (presets: ${RERANK_PRESET_NAMES.join(', ')}; form: <preset>:openai:<url>#<model> or <preset>:gguf:<file>)`);
  }
  return { preset: word as RerankPresetName, backend: rest };
}

/** Listwise settings a user may give over a preset's (undefined: the preset's). */
export interface RerankOverrides {
  top?: number;
  window?: number;
  stride?: number;
  mode?: RerankMode;
}

/**
 * The listwise settings of `preset` with the user's `overrides`.
 * @param modeName how the mode setting is named in messages (`--rerank-mode`, `rerank.mode`).
 * @throws IssuelocError (exit 2) for a mode the preset does not allow, or a stride over the window.
 */
export function presetListwise(preset: RerankPreset, overrides: RerankOverrides, modeName: string) {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as RerankOverrides;
  const o = { top: preset.top, window: preset.window, stride: preset.stride, mode: preset.mode, ...defined };
  if (!preset.modes.includes(o.mode)) {
    throw new IssuelocError(`${modeName} ${o.mode}: the ${preset.name} preset ranks by ${preset.modes.join(' or ')} only (its model writes the whole permutation, as SweRank's inference does); leave ${modeName} out, or use the generic preset`);
  }
  if (o.stride > o.window) throw new IssuelocError(`rerank stride (${o.stride}) must not exceed the window (${o.window})`);
  return { ...o, layout: preset.layout, identifiers: preset.identifiers, budget: preset.budget, defaultContextTokens: preset.contextTokens };
}
