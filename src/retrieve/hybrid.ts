import type { CodeIndex } from '../index/code-index.js';
import type { IssueSignals } from '../text/issue-signals.js';
import type { ParsedIssue } from '../text/parsed-issue.js';
import { embedChecked, type Embedder } from '../embed/embedder.js';
import { cosineScores, type VectorIndex } from '../embed/vector-index.js';
import { IssuelocError } from '../errors.js';
import type { QueryTerms } from './bm25f.js';
import { fuseScores, DEFAULT_FUSION, type FusionOptions } from './fusion.js';
import { Localizer, type LocalizeOptions, type RankingOptions } from './localize.js';
import type { Localization } from './rollup.js';

/**
 * A {@link Localizer} whose function scores fuse its lexical scores (BM25F+ with file prior and
 * signals, as configured) with the bi-encoder's cosine between the issue and each function
 * (SweRank's retriever; Reddy et al. 2025). Roll-up to modules and files is unchanged;
 * function-less files (see {@link Localizer}) are ranked only when the fusion is `lexical`, as
 * their lexical scores are not on the scale of fused ones.
 *
 * @example
 * const hybrid = new HybridLocalizer(codeIndex, {}, vectors, embedder, { method: 'rrf' });
 * const issue = parseIssue(issueText);
 * const loc = await hybrid.localizeIssue(issue, hybrid.queryOf(issue), { top: 10, signals: issue.signals });
 */
export class HybridLocalizer extends Localizer {
  private queryVector: Float32Array | undefined;
  private readonly cosine: Float32Array;
  readonly fusion: FusionOptions;

  constructor(codeIndex: CodeIndex, ranking: RankingOptions, readonly vectors: VectorIndex, readonly embedder: Embedder, fusion: Partial<FusionOptions> = {}) {
    super(codeIndex, ranking);
    if (vectors.count !== codeIndex.table.length) {
      throw new IssuelocError(`vector index has ${vectors.count} documents, the code index ${codeIndex.table.length}`);
    }
    this.fusion = { ...DEFAULT_FUSION, ...fusion };
    this.cosine = new Float32Array(vectors.count);
  }

  /**
   * Embeds the issue's text (as a query; its vector checked) and ranks with fused scores.
   * @param signal abandons the embedding when it aborts (rejecting with its reason).
   * @throws EmbedderFailure or HttpRequestError when the embedder fails or answers an unusable vector.
   */
  async localizeIssue(issue: ParsedIssue, query: QueryTerms, opts: LocalizeOptions = {}, signal?: AbortSignal): Promise<Localization> {
    const { vectors: [v] } = await embedChecked(this.embedder, [issue.text], 'query', { signal, dim: this.vectors.dim });
    this.queryVector = v;
    try {
      return this.localize(query, opts);
    } finally {
      this.queryVector = undefined;
    }
  }

  /** Lexical scores unless an issue vector is set (inside {@link localizeIssue}) and fused. */
  protected override scoresAreLexical(): boolean {
    return !this.queryVector || this.fusion.method === 'lexical';
  }

  /** Fused scores when an issue vector is set (inside {@link localizeIssue}), else the lexical ones (with function-less files). */
  override scoreAll(query: QueryTerms, signals?: IssueSignals): ReturnType<Localizer['scoreAll']> {
    const lexical = super.scoreAll(query, signals);
    if (!this.queryVector || this.fusion.method === 'lexical') return lexical;
    cosineScores(this.vectors, this.queryVector, this.cosine);
    return { scores: fuseScores(lexical.scores, this.cosine, this.fusion), reasons: lexical.reasons, evidence: lexical.evidence };
  }
}
