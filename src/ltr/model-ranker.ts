/**
 * `localize` with a learned model: the lexical pipeline's top candidates are reordered by the
 * model's scores, then rolled up to modules and files by first occurrence.
 */
import type { CodeIndex } from '../index/code-index.js';
import type { Localization } from '../retrieve/rollup.js';
import type { RankedItem } from '../retrieve/rollup.js';
import { annotateItems, type AnnotatedLevel } from '../retrieve/annotate.js';
import { scoredDocsOf } from '../retrieve/item-lines.js';
import type { CodeGraph } from '../graph/code-graph.js';
import { FeatureExtractor } from './features/extract.js';
import { FEATURE_REGISTRY } from './features/registry.js';
import type { ParsedIssue } from '../text/parsed-issue.js';
import type { HistoryEvidence } from './features/evidence.js';
import { orderByScore, withOtherFiles, type LevelScorer, type RankingModel } from './model.js';

/** Options of {@link ModelRanker.localize}. */
export interface ModelLocalizeOptions {
  /** Items per level (default 10). */
  top?: number;
  /** Matched terms listed per item (default 8). */
  matchedTermsPerItem?: number;
  /**
   * Also give each file's best function (`Localization.bestOfFile`, for the files' lines): its best
   * candidate by the model's function scores, else (no candidate in it) its best function by the
   * pipeline's scores.
   */
  fileLines?: boolean;
}

/**
 * Ranks with a learned model over one loaded index. Construct once per index and model.
 *
 * Only the model's `candidates.depth` best functions of the pipeline are ranked, so the function
 * and module levels list fewer than `top` items when the candidates hold fewer. Files
 * and modules are ranked by the first occurrence of their candidates under the model's scorer
 * for that level (the function level's unless the model has own file/module weights or trees).
 *
 * Files that hold no candidate (files whose functions rank below the candidates, and files without
 * any function-level document, see `Localizer` in src/retrieve/localize.ts) cannot be scored by
 * the model; each keeps its lexical rank: it goes after as many model-ranked files as have a best
 * candidate scoring at least as high in the pipeline (the model's order of those files is never
 * changed), and shows the model score of the file above it. So the file ranking holds `top`
 * files even when the candidates sit in a few (up to `OTHER_FILES` of features/extract.ts more files).
 */
export class ModelRanker {
  readonly extractor: FeatureExtractor;

  /**
   * @param graph.graph the code graph of the index's commit: needed by a model reading graph
   *   features (see {@link readsGraph}) and by candidate expansion; without it they are 0 / off.
   * @param graph.expand candidate expansion over the graph's imports (`FeatureOptions.expand`).
   */
  constructor(readonly codeIndex: CodeIndex, readonly model: RankingModel, graph: { graph?: CodeGraph; expand?: number } = {}) {
    this.extractor = new FeatureExtractor(codeIndex, { ...model.candidates, reads: model.reads, ...graph });
  }

  /**
   * Rankings at the three levels for an issue.
   * @param issue the issue, read once (`parseIssue`); its query is made with the model's
   *   candidate ranking (its title weight).
   * @param history history evidence at the base commit (absent evidence gives 0 features).
   */
  localize(issue: ParsedIssue, history: HistoryEvidence = {}, opts: ModelLocalizeOptions = {}): Localization {
    const top = opts.top ?? 10;
    const perItem = opts.matchedTermsPerItem ?? 8;
    const set = this.extractor.extract(issue, history);
    const { query } = set;
    // one ordering per distinct scorer (functions; files and modules when the model has their own):
    // the candidates' rows by score, best first, with the scores
    const orderings = new Map<LevelScorer, { order: Int32Array; scores: Float64Array }>();
    const rankedBy = (scorer: LevelScorer) => {
      let ranked = orderings.get(scorer);
      if (!ranked) {
        const scores = scorer.score(set.features, set.docs.length);
        orderings.set(scorer, (ranked = { order: orderByScore(scores), scores }));
      }
      return ranked;
    };
    const byFunction = rankedBy(this.model.scorers.function);
    const functions: RankedItem[] = Array.from(byFunction.order.subarray(0, top), (i) => ({ id: set.ids[i], score: byFunction.scores[i] }));
    // files and modules by the first occurrence of their candidates (`rollUp`), each with the row
    // of that candidate (its source for the matched terms): per candidate, the slot of its key
    // (path or module), which is the key's first occurrence in pipeline order
    const firstOf = (keys: readonly string[], slotOf: Int32Array, { order, scores }: { order: Int32Array; scores: Float64Array }, limit: number) => {
      const items: RankedItem[] = [];
      const rows: number[] = [];
      const met = new Uint8Array(order.length);
      for (let k = 0; k < order.length && items.length < limit; k++) {
        const i = order[k];
        if (met[slotOf[i]] === 1) continue;
        met[slotOf[i]] = 1;
        rows.push(i);
        items.push({ id: keys[i], score: scores[i], matchedTerms: undefined });
      }
      // the row of an item among the first `top` (the only ones shown)
      let shown: Map<string, number> | undefined;
      const source = (id: string) => (shown ??= new Map(rows.slice(0, top).map((i) => [keys[i], i]))).get(id);
      return { items, source };
    };
    const rolled = firstOf(set.paths, set.fileSlot, rankedBy(this.model.scorers.file), Infinity);
    const others = set.otherFiles.slice(0, top).map((s) => ({ id: this.codeIndex.filePaths[s.file], ...s }));
    const files = withOtherFiles(rolled.items, set.paths, (i) => set.pipelineScores[i], others.map((b) => ({ id: b.id, score: b.score })), top);
    // a file placed by its lexical rank shows the model score of the file above it (below it when
    // first), so the score column stays on one scale and never rises down the list
    const placed = new Set(others.map((b) => b.id));
    let above = files.find((x) => !placed.has(x.id))?.score ?? 0;
    for (const it of files) {
      if (placed.has(it.id)) it.score = above;
      else above = it.score;
    }
    const byModule = firstOf(set.modules, set.moduleSlot, rankedBy(this.model.scorers.module), top);
    const modules = byModule.items;
    if (perItem > 0) {
      // an item's source: its best candidate under its level's scorer (function-less and other
      // files placed at their lexical rank: their file-level document)
      const level = (items: RankedItem[], source: (id: string) => number | undefined, wholeFile: boolean): AnnotatedLevel => ({
        items, wholeFile,
        sourceOf: (id) => {
          const i = source(id);
          return i === undefined ? undefined : { doc: set.docs[i], signals: set.signals.get(i), evidence: set.evidence.get(i) };
        },
      });
      const functionRows = new Map<string, number>();
      for (let k = 0; k < functions.length; k++) functionRows.set(set.ids[byFunction.order[k]], byFunction.order[k]);
      annotateItems(this.extractor.localizer, query, perItem, [
        level(functions, (id) => functionRows.get(id), false),
        level(files, rolled.source, true),
        level(modules, byModule.source, false),
      ], new Map(others.map((b) => [b.id, b])));
    }
    const loc: Localization = { files, modules, functions, matchedQueryTerms: this.extractor.localizer.matchedQueryTerms(query) };
    if (opts.fileLines) {
      const pipeline = set.bestOfFile;
      const { fileOfUnit } = this.codeIndex;
      const byModel = new Map<number, number>();
      for (const i of byFunction.order) {
        const f = fileOfUnit[set.docs[i]];
        if (!byModel.has(f)) byModel.set(f, set.docs[i]);
      }
      loc.bestOfFile = bestOfFileBy(byModel, pipeline);
      const docOfId = new Map(Array.from(byFunction.order.subarray(0, functions.length), (i) => [set.ids[i], set.docs[i]]));
      loc.docOfFunction = scoredDocsOf(functions, (id) => docOfId.get(id), this.extractor.localizer, this.codeIndex.settings.stem);
    }
    return loc;
  }
}

/**
 * A file's best function: by the model's scores when it holds a candidate, else by the
 * pipeline's (made apart from `localize`, so it holds none of the query's arrays).
 */
function bestOfFileBy(byModel: ReadonlyMap<number, number>, pipeline: (file: number) => number): (file: number) => number {
  return (f) => byModel.get(f) ?? pipeline(f);
}

/** Whether `model`'s scores depend on a feature of the graph group (the caller then opens the graph). */
export function readsGraph(model: RankingModel): boolean {
  return FEATURE_REGISTRY.some((f) => f.group === 'graph' && model.reads.has(f.name));
}
