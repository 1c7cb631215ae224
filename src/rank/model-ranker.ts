/**
 * `localize` with a learned model: the lexical pipeline's top candidates are reordered by the
 * model's scores, then rolled up to modules and files by first occurrence.
 */
import type { CodeIndex } from '../index/code-index.js';
import type { Localization } from '../retrieve/localize.js';
import { rollUp, type RankedItem } from '../retrieve/rollup.js';
import { FeatureExtractor, type HistoryEvidence, type IssueQuery } from './features.js';
import { orderByScore, type LinearModel } from './model.js';

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
 * lists fewer than `top` items when the candidates hold fewer distinct files or modules.
 */
export class ModelRanker {
  readonly extractor: FeatureExtractor;

  constructor(readonly codeIndex: CodeIndex, readonly model: LinearModel) {
    this.extractor = new FeatureExtractor(codeIndex, model.candidates);
  }

  /**
   * Rankings at the three levels for an issue.
   * @param issue the issue's terms (`queryTermsOf`), signals (`extractIssueSignals`) and text.
   * @param history history evidence at the base commit (absent evidence gives 0 features).
   */
  localize(issue: IssueQuery, history: HistoryEvidence = {}, opts: ModelLocalizeOptions = {}): Localization {
    const top = opts.top ?? 10;
    const perItem = opts.matchedTermsPerItem ?? 8;
    const { query } = issue;
    const set = this.extractor.extract(issue, history);
    const scores = this.model.score(set);
    const order = orderByScore(scores);
    const { units } = this.codeIndex;
    const ranked = Array.from(order, (i) => {
      const u = units[set.docs[i]];
      return { id: set.ids[i], path: u.path, qualifiedName: u.qualifiedName, score: scores[i], i };
    });
    const { files, modules } = rollUp(ranked, top);
    const functions: RankedItem[] = ranked.slice(0, top).map((r) => ({ id: r.id, score: r.score }));
    if (perItem > 0) {
      const best = new Map<string, number>();
      for (const r of ranked) {
        for (const key of [r.id, r.path, set.modules[r.i]]) if (!best.has(key)) best.set(key, r.i);
      }
      for (const it of [...functions, ...files, ...modules]) {
        const i = best.get(it.id)!;
        it.matchedTerms = this.extractor.localizer.matchedTerms(set.docs[i], query, perItem);
        const why = set.signals.get(i);
        if (why) it.signals = why;
      }
    }
    let present = 0;
    for (const t of query.keys()) if (this.codeIndex.index.termIds.has(t)) present++;
    return { files, modules, functions, matchedQueryTerms: present };
  }
}
