import type { CodeIndex } from '../index/code-index.js';
import type { GitRepo } from '../repo/git.js';
import { isEmbedderFailure, type Embedder } from '../embed/embedder.js';
import { DeadlineExceeded, type Deadline } from '../util/deadline.js';
import { UnitSourceReader } from '../embed/unit-source.js';
import { buildVectorIndex, type VectorIndex } from '../embed/vector-index.js';
import type { FusionOptions } from '../retrieve/fusion.js';
import { HybridLocalizer } from '../retrieve/hybrid.js';
import { Localizer, type Localization, type RankingOptions } from '../retrieve/localize.js';
import type { IssueSignals } from '../text/issue-signals.js';
import type { ListwiseReranker, RerankStats } from './listwise.js';
import { rerankLocalization } from './pipeline.js';

/** Options of {@link RetrieveRerank.open}. */
export interface RetrieveRerankOptions {
  /** Lexical ranking options (BM25F+, file prior, signals). */
  ranking?: RankingOptions;
  /** Bi-encoder; none = lexical retrieval only. */
  embedder?: Embedder;
  fusion?: Partial<FusionOptions>;
  /** Listwise reranker of the top functions; none = the retriever's order. */
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
   * The issue's deadline: embedding the functions and, unless {@link RetrieveRerank.localize} is
   * given another, embedding the issue and reranking stop when it passes (best ranking so far,
   * with a warning through `onWarning`).
   */
  deadline?: Deadline;
}

/** One issue's rankings and what producing them cost. */
export interface RetrieveRerankResult {
  localization: Localization;
  /** Reranking cost (calls, tokens, ms), when a reranker is set. */
  rerank?: RerankStats;
  /** Milliseconds of retrieval (lexical, embedding the issue, fusion, roll-up). */
  retrieveMillis: number;
}

/**
 * The SweRank pipeline over one code index: retrieve (BM25F+, or fused with a bi-encoder), then
 * rerank the top K functions listwise with an LLM, then roll up to modules and files. With no
 * embedder and no reranker it is exactly the lexical {@link Localizer}.
 */
export class RetrieveRerank {
  private constructor(
    readonly localizer: Localizer,
    readonly vectors: VectorIndex | undefined,
    private readonly reader: UnitSourceReader,
    private readonly reranker: ListwiseReranker | undefined,
    readonly codeIndex: CodeIndex,
    private readonly deadline: Deadline | undefined,
    private readonly onWarning: ((message: string) => void) | undefined,
  ) {}

  /**
   * Builds what the options ask for: the vector index of every function (cached by blob and
   * model) when an embedder is given. With `onWarning` set, an embedder that fails (endpoint
   * down or too slow, unusable vectors, the deadline passed) leaves lexical retrieval only, with
   * a warning.
   * @throws IssuelocError when the embedder's dimension differs from vectors cached under its
   *   model id; the embedder's failure when `onWarning` is not set.
   */
  static async open(repo: GitRepo, codeIndex: CodeIndex, opts: RetrieveRerankOptions): Promise<RetrieveRerank> {
    let vectors: VectorIndex | undefined;
    let localizer: Localizer | undefined;
    if (opts.embedder) {
      try {
        vectors = await buildVectorIndex(repo, codeIndex, opts.embedder, {
          cacheDir: opts.cacheDir, onProgress: opts.onProgress, signal: opts.deadline?.signal, onWarning: opts.onWarning,
        });
        localizer = new HybridLocalizer(codeIndex, opts.ranking ?? {}, vectors, opts.embedder, opts.fusion);
      } catch (e) {
        if (!opts.onWarning || !isEmbedderFailure(e)) throw e;
        opts.onWarning(`dense retrieval skipped, lexical ranking only: ${failure(e, `embedding the functions with ${embedderName(opts.embedder)}`)}`);
      }
    }
    localizer ??= new Localizer(codeIndex, opts.ranking ?? {});
    return new RetrieveRerank(localizer, vectors, new UnitSourceReader(repo, codeIndex.commit), opts.reranker, codeIndex, opts.deadline, opts.onWarning);
  }

  /**
   * Rankings for one issue, `top` items per level. With a warning place (see
   * {@link RetrieveRerankOptions.onWarning}), an embedder failing on the issue leaves the lexical
   * ranking; past the deadline the stage in flight stops and the best ranking so far is returned.
   * @param opts.matchedTermsPerItem as in Localizer.localize (0 = skip, faster for benchmarks).
   * @param opts.deadline this issue's deadline (default: the one given to {@link open}).
   */
  async localize(issueText: string, opts: { top: number; signals?: IssueSignals; matchedTermsPerItem?: number; deadline?: Deadline }): Promise<RetrieveRerankResult> {
    const t0 = performance.now();
    const signal = (opts.deadline ?? this.deadline)?.signal;
    const query = this.localizer.queryOf(issueText);
    const depth = Math.max(opts.top, this.reranker?.options.top ?? 0);
    const lo = { top: depth, signals: opts.signals, matchedTermsPerItem: opts.matchedTermsPerItem };
    let loc: Localization | undefined;
    if (this.localizer instanceof HybridLocalizer) {
      try {
        loc = await this.localizer.localizeIssue(issueText, query, lo, signal);
      } catch (e) {
        if (!this.onWarning || !isEmbedderFailure(e)) throw e;
        this.onWarning(`dense retrieval skipped for this issue, lexical ranking only: ${failure(e, `embedding the issue with ${embedderName(this.localizer.embedder)}`)}`);
      }
    }
    loc ??= this.localizer.localize(query, lo);
    const retrieveMillis = performance.now() - t0;
    if (!this.reranker || loc.functions.length === 0) {
      return { localization: cut(loc, opts.top), retrieveMillis };
    }
    const { localization, stats } = await rerankLocalization(loc, this.codeIndex, this.reader, this.reranker, issueText, opts.top, signal);
    this.reader.forget();
    return { localization, rerank: stats, retrieveMillis };
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
