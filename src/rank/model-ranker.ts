/**
 * `localize` with a learned model: the lexical pipeline's top candidates are reordered by the
 * model's scores, then rolled up to modules and files by first occurrence.
 */
import type { CodeIndex } from '../index/code-index.js';
import type { Localization } from '../retrieve/localize.js';
import { rollUp, type RankedItem } from '../retrieve/rollup.js';
import { FeatureExtractor, type HistoryEvidence, type IssueQuery } from './features.js';
import { orderByScore, type LevelScorer, type RankingModel } from './model.js';

/** Options of {@link ModelRanker.localize}. */
export interface ModelLocalizeOptions {
  /** Items per level (default 10). */
  top?: number;
  /** Matched terms listed per item (default 8). */
  matchedTermsPerItem?: number;
}

/**
 * Ranks with a learned model over one loaded index. Construct once per index and model.
 *
 * Only the model's `candidates.depth` best functions of the pipeline are ranked, so a level
 * lists fewer than `top` items when the candidates hold fewer distinct files or modules. Files
 * and modules are ranked by the first occurrence of their candidates under the model's scorer
 * for that level (the function level's unless the model has own file/module weights or trees).
 *
 * Files without any function-level document (see `Localizer` in src/retrieve/localize.ts) are not
 * ranked here: their lexical scores come from the candidate pipeline's `scoreAll`, which the
 * feature extractor does not pass on, and scoring again would double the lexical cost of a query
 * (docs/learning-to-rank.md: ≈ 5 ms against a 5 ms model budget). A simple rule once the candidate
 * set carries them: insert each before the first model-ranked file whose best pipeline score is
 * lower.
 */
export class ModelRanker {
  readonly extractor: FeatureExtractor;

  constructor(readonly codeIndex: CodeIndex, readonly model: RankingModel) {
    this.extractor = new FeatureExtractor(codeIndex, model.candidates);
  }

  /**
   * Rankings at the three levels for an issue.
   * @param issue the issue's text and signals (`extractIssueSignals`); the query is built from the
   *   text with the model's candidate ranking (its title weight).
   * @param history history evidence at the base commit (absent evidence gives 0 features).
   */
  localize(issue: IssueQuery, history: HistoryEvidence = {}, opts: ModelLocalizeOptions = {}): Localization {
    const top = opts.top ?? 10;
    const perItem = opts.matchedTermsPerItem ?? 8;
    const set = this.extractor.extract(issue, history);
    const { query } = set;
    const { units } = this.codeIndex;
    // one ordering per distinct scorer (functions; files and modules when the model has their own)
    const orderings = new Map<LevelScorer, { id: string; path: string; qualifiedName: string; score: number; i: number }[]>();
    const rankedBy = (scorer: LevelScorer) => {
      let ranked = orderings.get(scorer);
      if (!ranked) {
        const scores = scorer.score(set.features, set.docs.length);
        ranked = Array.from(orderByScore(scores), (i) => {
          const u = units[set.docs[i]];
          return { id: set.ids[i], path: u.path, qualifiedName: u.qualifiedName, score: scores[i], i };
        });
        orderings.set(scorer, ranked);
      }
      return ranked;
    };
    const byFunction = rankedBy(this.model.scorers.function);
    const functions: RankedItem[] = byFunction.slice(0, top).map((r) => ({ id: r.id, score: r.score }));
    const { files } = rollUp(rankedBy(this.model.scorers.file), top);
    const { modules } = rollUp(rankedBy(this.model.scorers.module), top);
    if (perItem > 0) {
      const levels: [RankedItem[], LevelScorer, (r: { id: string; path: string; i: number }) => string][] = [
        [functions, this.model.scorers.function, (r) => r.id],
        [files, this.model.scorers.file, (r) => r.path],
        [modules, this.model.scorers.module, (r) => set.modules[r.i]],
      ];
      for (const [items, scorer, key] of levels) {
        const best = new Map<string, number>();
        for (const r of rankedBy(scorer)) if (!best.has(key(r))) best.set(key(r), r.i);
        for (const it of items) {
          const i = best.get(it.id)!;
          it.matchedTerms = this.extractor.localizer.matchedTerms(set.docs[i], query, perItem);
          const why = set.signals.get(i);
          if (why) it.signals = why;
        }
      }
    }
    let present = 0;
    for (const t of query.keys()) if (this.codeIndex.index.termIds.has(t)) present++;
    return { files, modules, functions, matchedQueryTerms: present };
  }
}
