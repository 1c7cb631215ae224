/**
 * One base commit's chain of stages: lexical retrieval (BM25F+ with file prior and issue-text
 * signals), optional dense fusion with a bi-encoder, optional learned model, optional listwise LLM
 * rerank, each consuming the ranking of the stage before it (the composition rule: stages.ts).
 */
import { addToUsageEstimate } from '../index/cache-usage.js';
import { indexFilePath, type CodeIndex } from '../index/code-index.js';
import type { GitRepo } from '../repo/git.js';
import { isEmbedderFailure, type Embedder } from '../embed/embedder.js';
import { DeadlineExceeded, type Deadline } from '../util/deadline.js';
import type { UnitSourceReader } from '../embed/unit-source.js';
import type { VectorIndex } from '../embed/vector-index.js';
import type { FusionOptions } from '../retrieve/fusion.js';
import type { HybridLocalizer } from '../retrieve/hybrid.js';
import { Localizer, DEFAULT_RANKING, type RankingOptions } from '../retrieve/localize.js';
import type { Localization } from '../retrieve/rollup.js';
import { withLines } from '../retrieve/item-lines.js';
import { openPlacements, type PlacementOptions, type Placements } from '../retrieve/placements.js';
import { storeDocsByNameAt } from '../retrieve/unit-lookup.js';
import type { ParsedIssue } from '../text/parsed-issue.js';
import type { ListwiseReranker, RerankStats } from '../llm-rerank/listwise.js';
import { ModelRanker, readsGraph } from '../ltr/model-ranker.js';
import type { RankingModel } from '../ltr/model.js';
import type { HistoryEvidence } from '../ltr/features/evidence.js';
import type { StageName } from './stages.js';

/** Options of {@link CommitChain.open}: the stages, already checked by `checkChain` (stages.ts). */
export interface CommitChainOptions {
  /** Lexical ranking options (BM25F+, file prior, signals); with a model, its candidates' options. */
  ranking?: RankingOptions;
  /**
   * The placement rules (peripheral code, non-source files, the first file's partner in the
   * history); each default: `ranking`'s, else the rule's `DEFAULT_*_PLACEMENT`.
   */
  placement?: PlacementOptions;
  /** Bi-encoder: the dense stage; none = lexical retrieval only. */
  embedder?: Embedder;
  fusion?: Partial<FusionOptions>;
  /** Learned model: ranks the lexical stage's candidates (its own candidate settings). */
  model?: RankingModel;
  /** History evidence of an issue at this commit, for the model's history features (none: 0 features). */
  history?: (issue: ParsedIssue) => HistoryEvidence;
  /** Listwise reranker of the top functions: the last stage; none = the previous stage's order. */
  reranker?: ListwiseReranker;
  /** Cache folder for function vectors (the index's). */
  cacheDir: string;
  /** Progress of embedding the functions: (done, total). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Where a failing embedder is reported (one line each). When set, an embedder that fails or
   * answers unusable vectors gives a warning and the lexical ranking; when not, its error is thrown.
   */
  onWarning?: (message: string) => void;
  /**
   * The deadline of embedding the functions and, unless {@link CommitChain.localize} is given
   * another, of embedding the issue and reranking (best ranking so far, with a warning).
   */
  deadline?: Deadline;
}

/** Options of {@link CommitChain.localize}. */
export interface ChainLocalizeOptions {
  /** Items per level. */
  top: number;
  /** Matched terms listed per item (default 8; 0 = skip, faster for benchmarks). */
  matchedTermsPerItem?: number;
  /** This issue's deadline (default: the one given to {@link CommitChain.open}). */
  deadline?: Deadline;
  /**
   * false: the lexical stage ranks without the issue-text signal boosts (`export-training`'s
   * retriever); default true. A model reads the signals as features either way.
   */
  signals?: boolean;
}

/** One issue's rankings, the stages that made them and what they cost. */
export interface ChainResult {
  localization: Localization;
  /** The stages that ran, in order (a dense stage skipped after a failure is absent). */
  stages: StageName[];
  /** Reranking cost (calls, tokens, ms), when the rerank stage ran. */
  rerank?: RerankStats;
  /** Milliseconds of the stages before reranking (lexical, embedding the issue, fusion, model, roll-up). */
  retrieveMillis: number;
  /** Distinct terms of the issue's lexical query (0: only stop words and punctuation); not counted with a model. */
  queryTerms?: number;
}

/**
 * The chain of one code index (SweRank's retrieve-and-rerank, with a learned model between):
 * with no embedder, model or reranker it is exactly the lexical {@link Localizer}.
 */
export class CommitChain {
  private constructor(
    readonly localizer: Localizer,
    /** The localizer again when it is the dense stage's (fused with the lexical one). */
    private readonly hybrid: HybridLocalizer | undefined,
    readonly vectors: VectorIndex | undefined,
    private readonly modelRanker: ModelRanker | undefined,
    private readonly opts: CommitChainOptions,
    /** Reads the functions' text for the rerank stage (none without a reranker). */
    private readonly reader: UnitSourceReader | undefined,
    readonly codeIndex: CodeIndex,
    private readonly placements: Placements,
  ) {}

  /**
   * Builds what the stages need: the vector index of every function (cached by blob and model)
   * when an embedder is given, the feature extractor of a model. With `onWarning` set, an
   * embedder that fails (endpoint down or too slow, unusable vectors, the deadline passed) leaves
   * lexical retrieval only, with a warning.
   * @throws IssuelocError when the embedder's dimension differs from vectors cached under its
   *   model id; the embedder's failure when `onWarning` is not set.
   */
  static async open(repo: GitRepo, codeIndex: CodeIndex, opts: CommitChainOptions): Promise<CommitChain> {
    // the signals' name table kept beside the index: read, not made, by the next process
    if (opts.cacheDir) {
      const { commit, settings } = codeIndex;
      const cacheDir = opts.cacheDir;
      storeDocsByNameAt(codeIndex.table, indexFilePath(cacheDir, commit, settings, 'names'), indexFilePath(cacheDir, commit, settings), (bytes) => addToUsageEstimate(cacheDir, bytes));
    }
    let vectors: VectorIndex | undefined;
    let localizer: Localizer | undefined;
    let hybrid: HybridLocalizer | undefined;
    // each optional stage's modules loaded only when the stage runs (a process pays for what it uses)
    if (opts.embedder) {
      try {
        const { buildVectorIndex } = await import('../embed/vector-index.js');
        vectors = await buildVectorIndex(repo, codeIndex, opts.embedder, {
          cacheDir: opts.cacheDir, onProgress: opts.onProgress, signal: opts.deadline?.signal, onWarning: opts.onWarning,
        });
        localizer = hybrid = new (await import('../retrieve/hybrid.js')).HybridLocalizer(codeIndex, opts.ranking ?? {}, vectors, opts.embedder, opts.fusion);
      } catch (e) {
        if (!opts.onWarning || !isEmbedderFailure(e)) throw e;
        opts.onWarning(`dense retrieval skipped, lexical ranking only: ${failure(e, `embedding the functions with ${embedderName(opts.embedder)}`)}`);
      }
    }
    // the code graph only for a model that reads its features (the built-in model reads none)
    const graph = opts.model && readsGraph(opts.model) ? (await (await import('../graph/open-graph.js')).openCodeGraph(repo, codeIndex, opts.cacheDir)).graph : undefined;
    const modelRanker = opts.model ? new ModelRanker(codeIndex, opts.model, { graph }) : undefined;
    localizer ??= modelRanker?.extractor.localizer ?? new Localizer(codeIndex, opts.ranking ?? {});
    const r = opts.ranking;
    const placements = await openPlacements(repo, codeIndex, {
      bm25: { ...DEFAULT_RANKING.bm25, ...r?.bm25, ...r?.fileBm25 },
      nonSource: { ...r?.nonSource, ...opts.placement?.nonSource },
      peripheral: { ...r?.peripheral, ...opts.placement?.peripheral },
      coChange: { ...r?.coChange, ...opts.placement?.coChange },
      onWarning: opts.onWarning, cacheDir: opts.cacheDir,
    });
    const reader = opts.reranker ? new (await import('../embed/unit-source.js')).UnitSourceReader(repo, codeIndex.commit) : undefined;
    return new CommitChain(localizer, hybrid, vectors, modelRanker, opts, reader, codeIndex, placements);
  }

  /**
   * Rankings for one issue (read once: `parseIssue`), `top` items per level. With a warning place (see
   * {@link CommitChainOptions.onWarning}), an embedder failing on the issue leaves the lexical
   * ranking; past the deadline the stage in flight stops and the best ranking so far is returned.
   */
  async localize(issue: ParsedIssue, opts: ChainLocalizeOptions): Promise<ChainResult> {
    const result = await this.localizeSources(issue, opts);
    const files = this.placements.placeFiles(result.localization.files, this.localizer.queryOf(issue), opts.top);
    return { ...result, localization: withLines({ ...result.localization, files }, this.codeIndex) };
  }

  /** {@link localize} before the file placements: the stages, peripheral items moved down before the rerank stage. */
  private async localizeSources(issue: ParsedIssue, opts: ChainLocalizeOptions): Promise<ChainResult> {
    const t0 = performance.now();
    const signal = (opts.deadline ?? this.opts.deadline)?.signal;
    const { reranker } = this.opts;
    const depth = Math.max(this.placements.depth(opts.top), reranker?.options.top ?? 0);
    const stages: StageName[] = ['lexical'];
    let queryTerms: number | undefined;
    let loc: Localization | undefined;
    if (this.modelRanker) {
      loc = this.modelRanker.localize(
        issue,
        this.opts.history?.(issue) ?? {},
        { top: depth, matchedTermsPerItem: opts.matchedTermsPerItem, fileLines: true },
      );
      stages.push('model');
    } else {
      const query = this.localizer.queryOf(issue);
      queryTerms = query.size;
      // the matched terms found for the items shown only (no rerank stage reads them before)
      const lo = {
        top: depth, signals: opts.signals === false ? undefined : issue.signals, matchedTermsPerItem: opts.matchedTermsPerItem, fileLines: true,
        matchedTermsLater: !reranker,
      };
      if (this.hybrid) {
        try {
          loc = await this.hybrid.localizeIssue(issue, query, lo, signal);
          stages.push('dense');
        } catch (e) {
          if (!this.opts.onWarning || !isEmbedderFailure(e)) throw e;
          this.opts.onWarning(`dense retrieval skipped for this issue, lexical ranking only: ${failure(e, `embedding the issue with ${embedderName(this.hybrid.embedder)}`)}`);
        }
      }
      loc ??= this.localizer.localize(query, lo);
    }
    loc = await this.placements.demote(loc, issue);
    const retrieveMillis = performance.now() - t0;
    if (!reranker || !this.reader || loc.functions.length === 0) {
      return { localization: shown(loc, opts.top), stages, retrieveMillis, queryTerms };
    }
    const { rerankLocalization } = await import('../llm-rerank/rerank-localization.js');
    const { localization, stats } = await rerankLocalization(loc, this.codeIndex, this.reader, reranker, issue, opts.top, signal);
    // the files' lines stay those of the stage before (its scores reach every file shown)
    localization.bestOfFile = loc.bestOfFile;
    localization.docOfFunction = loc.docOfFunction;
    this.reader.forget();
    // every window kept the order before it (endpoint down, nothing usable answered): the
    // previous stage's ranking stands, scores and all, and the rerank stage did not run
    if (stats.fallbackWindows >= stats.windows) return { localization: cut(loc, opts.top), stages, rerank: stats, retrieveMillis, queryTerms };
    stages.push('rerank');
    return { localization, stages, rerank: stats, retrieveMillis, queryTerms };
  }
}

/** An embedder failure for a warning: a passed deadline says which stage it stopped. */
function failure(e: Error, stage: string): string {
  return e instanceof DeadlineExceeded ? `${e.message} while ${stage}` : e.message;
}

function embedderName(e: Embedder): string {
  return e.name ?? e.id;
}

function cut(loc: Localization, top: number): Localization {
  return { ...loc, files: loc.files.slice(0, top), modules: loc.modules.slice(0, top), functions: loc.functions.slice(0, top) };
}

/** {@link cut}, its items given their matched terms when the ranker left them for later (`Localization.annotate`). */
function shown(loc: Localization, top: number): Localization {
  const out = cut(loc, top);
  out.annotate?.(out);
  delete out.annotate;
  return out;
}
