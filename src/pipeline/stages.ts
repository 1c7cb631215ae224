/**
 * The composition rule of the pipeline, in one place: lexical → dense fusion → learned model →
 * LLM rerank. Lexical retrieval always runs; each other stage is optional and consumes the
 * ranking of the stage before it. A combination that is not such a chain is refused here with a
 * one-line error (exit 2), never ignored:
 *
 * - a learned model ranks the lexical candidates it was trained on, with the lexical settings
 *   recorded in its file: it cannot follow dense fusion, and ranking options cannot change its
 *   candidates;
 * - settings of a stage (fusion, query prefix, rerank window …) need that stage; a deadline or an
 *   API key variable needs an endpoint stage (dense or rerank).
 */
import { IssuelocError } from '../errors.js';
import type { RankingOptions } from '../retrieve/localize.js';

/** The stages, in the order they run. */
export const STAGES = ['lexical', 'dense', 'model', 'rerank'] as const;
export type StageName = (typeof STAGES)[number];

/** What a chain asks for: which stages are on, and which stage settings were given. */
export interface ChainRequest {
  /** Ranking options given (names as the user wrote them, e.g. `--k1` or `bm25`). */
  rankingSettings?: readonly string[];
  dense: boolean;
  model: boolean;
  rerank: boolean;
  /** Settings given for the dense stage (names as the user wrote them, e.g. `--fusion`). */
  denseSettings?: readonly string[];
  /** Settings given for the rerank stage (e.g. `--rerank-top`). */
  rerankSettings?: readonly string[];
  /** Settings that need the dense or the rerank stage (a per-issue deadline, an API key variable). */
  endpointSettings?: readonly string[];
  /**
   * How the caller names the stages in messages: the CLI's flags (the default: `--embedder`,
   * `--model`, `--rerank`) or the library's options (`embedder`, `model`, `reranker`).
   */
  stageNames?: { dense: string; model: string; rerank: string };
}

/** The stage names of the CLI's messages. */
export const CLI_STAGE_NAMES = { dense: '--embedder', model: '--model', rerank: '--rerank' } as const;

/**
 * The placement rules' settings among the ranking options: they apply after any stage, so they
 * are no lexical setting a model would refuse (src/retrieve/placements.ts).
 */
export const PLACEMENT_KEYS = ['nonSource', 'peripheral', 'coChange'] as const;

/** The lexical ranking options that are set (an empty `bm25` object sets nothing; placement settings are not counted). */
export function rankingOptionsSet(r: RankingOptions | undefined): string[] {
  if (!r) return [];
  return Object.entries(r).filter(([k, v]) => {
    if (v === undefined || (PLACEMENT_KEYS as readonly string[]).includes(k)) return false;
    if (k === 'bm25' || k === 'fileBm25') return Object.values(v as object).some((x) => x !== undefined);
    return true;
  }).map(([k]) => k);
}

/**
 * The stages a request runs, in order.
 * @throws IssuelocError (exit 2) for a combination that is not a chain (see the module comment).
 */
export function checkChain(req: ChainRequest): StageName[] {
  const n = req.stageNames ?? CLI_STAGE_NAMES;
  if (req.model && req.dense) {
    throw new IssuelocError(`a learned model (${n.model}) ranks the lexical candidates it was trained on: it cannot follow dense fusion (${n.dense}); use one of them`);
  }
  const set = req.rankingSettings ?? [];
  if (req.model && set.length > 0) {
    throw new IssuelocError(`a learned model (${n.model}) brings the lexical settings its candidates were trained with: ranking options (${set.join(', ')}) cannot change them; drop them or drop ${n.model}`);
  }
  if (!req.dense && req.denseSettings?.length) {
    throw new IssuelocError(`${req.denseSettings.join(', ')} set${req.denseSettings.length === 1 ? 's' : ''} up dense retrieval: give ${n.dense} too`);
  }
  if (!req.rerank && req.rerankSettings?.length) {
    throw new IssuelocError(`${req.rerankSettings.join(', ')} set${req.rerankSettings.length === 1 ? 's' : ''} up LLM reranking: give ${n.rerank} too`);
  }
  const endpoint = req.endpointSettings ?? [];
  if (endpoint.length > 0 && !req.dense && !req.rerank) {
    throw new IssuelocError(`${endpoint.join(', ')} concern${endpoint.length === 1 ? 's' : ''} the embedding or reranking endpoint: give ${n.dense} or ${n.rerank} too`);
  }
  return STAGES.filter((s) => s === 'lexical' || req[s]);
}
