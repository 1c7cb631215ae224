import type { CodeIndex } from '../index/code-index.js';
import type { GitRepo } from '../repo/git.js';
import type { Embedder } from '../embed/embedder.js';
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
  ) {}

  /**
   * Builds what the options ask for: the vector index of every function (cached by blob and
   * model) when an embedder is given.
   * @throws IssuelocError from the embedder (backend down, dimension change, …).
   */
  static async open(repo: GitRepo, codeIndex: CodeIndex, opts: RetrieveRerankOptions): Promise<RetrieveRerank> {
    let vectors: VectorIndex | undefined;
    let localizer: Localizer;
    if (opts.embedder) {
      vectors = await buildVectorIndex(repo, codeIndex, opts.embedder, { cacheDir: opts.cacheDir, onProgress: opts.onProgress });
      localizer = new HybridLocalizer(codeIndex, opts.ranking ?? {}, vectors, opts.embedder, opts.fusion);
    } else {
      localizer = new Localizer(codeIndex, opts.ranking ?? {});
    }
    return new RetrieveRerank(localizer, vectors, new UnitSourceReader(repo, codeIndex.commit), opts.reranker, codeIndex);
  }

  /**
   * Rankings for one issue, `top` items per level.
   * @param opts.matchedTermsPerItem as in Localizer.localize (0 = skip, faster for benchmarks).
   */
  async localize(issueText: string, opts: { top: number; signals?: IssueSignals; matchedTermsPerItem?: number }): Promise<RetrieveRerankResult> {
    const t0 = performance.now();
    const query = this.localizer.queryOf(issueText);
    const depth = Math.max(opts.top, this.reranker?.options.top ?? 0);
    const lo = { top: depth, signals: opts.signals, matchedTermsPerItem: opts.matchedTermsPerItem };
    const loc = this.localizer instanceof HybridLocalizer
      ? await this.localizer.localizeIssue(issueText, query, lo)
      : this.localizer.localize(query, lo);
    const retrieveMillis = performance.now() - t0;
    if (!this.reranker || loc.functions.length === 0) {
      return { localization: cut(loc, opts.top), retrieveMillis };
    }
    const { localization, stats } = await rerankLocalization(loc, this.codeIndex, this.reader, this.reranker, issueText, opts.top);
    this.reader.forget();
    return { localization, rerank: stats, retrieveMillis };
  }
}

function cut(loc: Localization, top: number): Localization {
  return { ...loc, files: loc.files.slice(0, top), modules: loc.modules.slice(0, top), functions: loc.functions.slice(0, top) };
}
