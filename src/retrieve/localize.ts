import type { CodeIndex } from '../index/code-index.js';
import { Bm25fScorer, cursorOf, hitsByRank, type Bm25fParams, type HitCursor, type QueryTerms } from './bm25f.js';
import { fileRanges, rankByFiles } from './file-ranking.js';
import { languageOf } from '../corpus/languages.js';
import { languageKeywords } from '../text/stop-words.js';
import { functionlessFiles, mergeByScore, type Localization, type RankedItem, type ScoredFile, type ShownItems } from './rollup.js';
import { DEFAULT_SIGNAL_WEIGHTS, SignalResolver, type SignalName, type SignalWeights } from './signals.js';
import type { IssueSignals } from '../text/issue-signals.js';
import { DEFAULT_TITLE_WEIGHT } from './query.js';
import type { ParsedIssue } from '../text/parsed-issue.js';
import { termsInDocs } from './matched-terms.js';
import { resolveQuery } from './resolved-query.js';
import { WholeFileScorer } from './whole-files.js';
import { annotateItems, type ItemSource } from './annotate.js';
import { bestOfFiles, scoredDocsOf } from './item-lines.js';
import { DenseSlots } from '../util/dense-slots.js';
import { unitIdsOf } from './unit-ids.js';
import { firstAtLeast } from '../util/sorted-search.js';
import type { NonSourcePlacement } from './non-source.js';
import type { PeripheralPlacement } from './peripheral.js';
import type { CoChangePlacement } from './co-changed.js';


/** Options of {@link Localizer.localize}. */
export interface LocalizeOptions {
  /** Items to return per level (default 10). */
  top?: number;
  /**
   * Functions kept before roll-up (default: max(2000, 50 × top)); files and modules are ranked
   * by first occurrence in this list (function-less files by their own score, see {@link Localizer}).
   */
  depth?: number;
  /** Matched terms listed per item (default 8, most informative first). */
  matchedTermsPerItem?: number;
  /** What the issue names in code (src/text/issue-signals.ts); used when signals are on. */
  signals?: IssueSignals;
  /** Also give each file's best function by these scores (`Localization.bestOfFile`, for the files' lines). */
  fileLines?: boolean;
  /**
   * Leave the matched terms, signals and evidence of the items for `Localization.annotate` to set
   * on the items finally shown (after the placements' moves and cut: fewer documents to search).
   */
  matchedTermsLater?: boolean;
}

/** How evidence is weighed; every field optional (defaults set by bench/swebench-lite). */
export interface RankingOptions {
  /** BM25F+ parameters of the function-level index. */
  bm25?: Partial<Bm25fParams>;
  /** BM25F+ parameters of the file-level index (default: those of `bm25`). */
  fileBm25?: Partial<Bm25fParams>;
  /**
   * Weight α of the file prior: a function's score is s_fn / max s_fn + α · s_file / max s_file,
   * where s_file is the BM25F+ score of its whole file (0 = functions alone).
   */
  filePrior?: number;
  /** Weights of the issue-text signals (stack frames, mentioned paths and names); false = none. */
  signals?: Partial<SignalWeights> | false;
  /**
   * Extra query weight of each token of the issue's title, for queries built by
   * {@link Localizer.queryOf} (default `DEFAULT_TITLE_WEIGHT` of src/retrieve/query.ts).
   */
  titleWeight?: number;
  /**
   * Where the files that are not source code join the file ranking, when the index holds them
   * (`IndexSettings.files` = `all`; default `DEFAULT_NON_SOURCE_PLACEMENT`, src/retrieve/non-source.ts).
   */
  nonSource?: Partial<NonSourcePlacement>;
  /**
   * Where peripheral code (examples, benchmarks, scripts, docs folders; a minority language)
   * may rank (default `DEFAULT_PERIPHERAL_PLACEMENT`, src/retrieve/peripheral.ts).
   */
  peripheral?: Partial<PeripheralPlacement>;
  /**
   * Where the first file's habitual partner in the history joins the file ranking (default
   * `DEFAULT_CO_CHANGE_PLACEMENT`, src/retrieve/co-changed.ts).
   */
  coChange?: Partial<CoChangePlacement>;
}

/** The default ranking options (chosen by measurement on SWE-bench Lite: docs/results.md). */
export const DEFAULT_RANKING: Required<Omit<RankingOptions, 'fileBm25' | 'nonSource' | 'peripheral' | 'coChange'>> = {
  bm25: { k1: 1.2, b: 0.75, delta: 0, weights: [3, 3, 1] },
  filePrior: 1.0,
  signals: {},
  titleWeight: DEFAULT_TITLE_WEIGHT,
};


/**
 * Ranks the code units of one index for an issue: BM25F+ over function-level documents,
 * optionally fused with a whole-file prior, then roll-up to modules and files by first
 * occurrence (SweRank protocol).
 *
 * Function-less files (a constants module, `settings.py`, an `__init__.py` of imports, a Java
 * class of fields only, a file too large to parse: file-level documents without any
 * function-level document, which roll-up can never reach) join the FILE ranking, scored as a
 * function of theirs would be with the whole file as that function: a function part, the score
 * of the fields each function of a file shares (path and file name, {@link WholeFileScorer}) over
 * the same maximum s_fn as the functions', plus the file part α · s_file / max s_file (α =
 * `filePrior`), divided by the same maximum as the function scores when signals are on, plus the
 * file-level signal boosts (`frameFile`, `mentionedFile`). So a file the issue names by path is
 * raised by its path as much as a file with functions is; its text counts once, through the file
 * prior. They are merged by score into the rolled-up files (at equal scores those come first),
 * and stay out when nothing of theirs matches. Module and function rankings hold modules and
 * functions only: such a file has neither (the SWE-bench protocol's units). Not done for hybrid
 * (dense-fused) scores, whose scale differs.
 *
 * Construct once per loaded index and reuse: the scorers precompute per-document length norms,
 * and the function-less files are listed once.
 */
export class Localizer {
  private readonly scorer: Bm25fScorer;
  private readonly fileScorer: Bm25fScorer;
  private readonly filePrior: number;
  private readonly combined: Float32Array;
  private readonly signalWeights: SignalWeights | undefined;
  private readonly resolver: SignalResolver | undefined;
  private readonly titleWeight: number;
  /** Function-less file-level documents, and each file's place in that list (−1: has functions). */
  private readonly functionless: Uint32Array;
  private readonly functionlessAt: Int32Array;
  private readonly functionlessScores: Float32Array;
  private readonly wholeFiles: WholeFileScorer;
  /** Where each file's function-level documents start (undefined: they are not file by file). */
  private readonly fileStart: Uint32Array | undefined;
  /** A query's function ids, files and modules read so far ({@link localize}), by number. */
  private readonly marks: { units: DenseSlots; files: DenseSlots; modules: DenseSlots };
  readonly index: CodeIndex['index'];
  readonly table: CodeIndex['table'];
  constructor(readonly codeIndex: CodeIndex, opts: RankingOptions = {}) {
    this.index = codeIndex.index;
    this.table = codeIndex.table;
    const bm25 = { ...DEFAULT_RANKING.bm25, ...opts.bm25 };
    this.scorer = new Bm25fScorer(codeIndex.index, bm25);
    this.fileScorer = new Bm25fScorer(codeIndex.fileIndex, { ...bm25, ...opts.fileBm25 });
    this.filePrior = opts.filePrior ?? DEFAULT_RANKING.filePrior;
    this.titleWeight = opts.titleWeight ?? DEFAULT_RANKING.titleWeight;
    this.combined = new Float32Array(codeIndex.index.docCount);
    const sig = opts.signals ?? DEFAULT_RANKING.signals;
    this.signalWeights = sig === false ? undefined : { ...DEFAULT_SIGNAL_WEIGHTS, ...sig };
    // Per-index structures (name → documents, file name → files) are built once, here.
    this.resolver = this.signalWeights ? new SignalResolver(codeIndex) : undefined;
    this.functionless = functionlessFiles(codeIndex.fileOfUnit, codeIndex.filePaths.length);
    this.functionlessAt = new Int32Array(codeIndex.filePaths.length).fill(-1);
    this.functionless.forEach((f, i) => { this.functionlessAt[f] = i; });
    this.functionlessScores = new Float32Array(this.functionless.length);
    this.wholeFiles = new WholeFileScorer(codeIndex, this.functionless, this.scorer.params);
    this.fileStart = fileRanges(codeIndex.fileOfUnit, codeIndex.filePaths.length);
    const D = codeIndex.index.docCount;
    this.marks = { units: new DenseSlots(D), files: new DenseSlots(codeIndex.filePaths.length), modules: new DenseSlots(D) };
  }

  /**
   * The query of an issue for this index: its terms tokenized and stemmed like the index, title
   * tokens weighted by the ranking's `titleWeight` (`ParsedIssue.queryTerms`).
   */
  queryOf(issue: ParsedIssue): QueryTerms {
    return issue.queryTerms({ stem: this.codeIndex.settings.stem, titleWeight: this.titleWeight });
  }

  /**
   * Scores of every function-level document: BM25F+, fused with the file prior, normalised so
   * the best scores 1 when a prior or signals are used, plus the signal boosts. Reused array.
   * `functionless`: the function-less files with a positive score on the same scale (their
   * function part, file part and file-level boosts, see {@link Localizer}; a named one may score
   * above 1), best first. `reasons` and `evidence`: the signals that raised a document and what
   * in the issue fired each (`SignalBoosts`).
   */
  scoreAll(query: QueryTerms, signals?: IssueSignals): { scores: Float32Array; reasons?: Map<number, SignalName[]>; evidence?: Map<number, string[]>; functionless?: ScoredFile[] } {
    const fn = this.scorer.scoreAll(query);
    const useSignals = signals !== undefined && this.signalWeights !== undefined;
    const bare = this.functionless;
    const bareScores = this.functionlessScores;
    bareScores.set(this.wholeFiles.scoreAll(query)); // their function part, raw like fn
    if (this.filePrior <= 0 && !useSignals) return { scores: fn, functionless: this.scoredFunctionless() };
    const out = this.combined;
    const fileOf = this.codeIndex.fileOfUnit;
    // the largest combined score, as stored (float32), for the normalisation below
    let best = 0;
    if (this.filePrior > 0) {
      const file = this.fileScorer.scoreAll(query);
      const a = 1 / maxOf(fn, 1);
      const c = this.filePrior / maxOf(file, 1);
      for (let d = 0; d < fn.length; d++) {
        const v = Math.fround(fn[d] * a + file[fileOf[d]] * c);
        out[d] = v;
        if (v > best) best = v;
      }
      for (let i = 0; i < bare.length; i++) bareScores[i] = bareScores[i] * a + file[bare[i]] * c;
    } else {
      out.set(fn);
      best = maxOf(out, 0);
    }
    if (!useSignals) return { scores: out, functionless: this.scoredFunctionless() };
    const top = best > 0 ? best : 1;
    for (let i = 0; i < bare.length; i++) bareScores[i] /= top;
    const { boost, reasons, evidence, files } = this.resolver!.boosts(signals, this.signalWeights);
    // out[d] / top rounded to float32 as stored, then the boost added: as two passes would
    for (let d = 0; d < out.length; d++) out[d] = Math.fround(out[d] / top) + boost[d];
    const why = new Map<number, { reasons: SignalName[]; evidence: string[] }>();
    for (const [f, b] of files) {
      const i = this.functionlessAt[f];
      if (i < 0) continue;
      bareScores[i] += b.boost;
      why.set(f, b);
    }
    return { scores: out, reasons, evidence, functionless: this.scoredFunctionless(why) };
  }

  /** The function-less files with a positive score, best first (ties: path order). */
  private scoredFunctionless(why?: ReadonlyMap<number, { reasons: SignalName[]; evidence: string[] }>): ScoredFile[] {
    const out: ScoredFile[] = [];
    const bare = this.functionless;
    for (let i = 0; i < bare.length; i++) {
      const score = this.functionlessScores[i];
      if (!(score > 0)) continue;
      const w = why?.get(bare[i]);
      out.push(w ? { file: bare[i], score, signals: w.reasons, evidence: w.evidence } : { file: bare[i], score });
    }
    return out.sort((x, y) => y.score - x.score || x.file - y.file);
  }

  /** Whether {@link scoreAll} gives the lexical scores (a subclass fusing other scores says no while it does). */
  protected scoresAreLexical(): boolean {
    return true;
  }

  /**
   * The documents by {@link scoreAll}'s scores, as {@link hitsByRank} reads them (score > 0,
   * best first, ties by document), with each file's best function (`bestOfFiles` of
   * src/retrieve/item-lines.ts) and the rest of `scoreAll`'s answer. For lexical scores over an
   * index whose documents lie file by file, only the BM25F+ scores are made for every document:
   * the file prior, normalisation and signals are applied to the documents of the files read,
   * in the order of each file's bound (`rankByFiles` of src/retrieve/file-ranking.ts), as far
   * as the hits are read; the same scores, bit for bit, and so the same order.
   * @param depth hits given at most; `first`: the first batch of the dense path's {@link hitsByRank}.
   */
  ranking(query: QueryTerms, signals: IssueSignals | undefined, depth: number, first: number): LexicalRanking {
    if (this.fileStart && this.scoresAreLexical()) return this.rankingByFiles(this.fileStart, query, signals, depth);
    const { scores, ...rest } = this.scoreAll(query, signals);
    // made now: `scores` is the scorer's array, which the next query reuses
    const best = bestOfFiles(scores, this.codeIndex.fileOfUnit, this.codeIndex.filePaths.length);
    const files = () => {
      const fileBest = new Float32Array(best.length);
      for (let f = 0; f < best.length; f++) fileBest[f] = best[f] >= 0 ? scores[best[f]] : 0;
      return cursorOf(hitsByRank(fileBest, Infinity));
    };
    return { ...rest, hits: cursorOf(hitsByRank(scores, depth, first)), files, scoreOf: (d) => scores[d], bestOfFile: (f) => best[f] };
  }

  /**
   * {@link ranking} by files: the BM25F+ scores of every document (as {@link scoreAll}), each
   * file's best; the steps after (the file prior, the normalisation, the signals: each a
   * non-decreasing function of the BM25F+ score for the documents of one file) on the best of
   * each file give each file's bound, and on the documents of the files read only.
   */
  private rankingByFiles(fileStart: Uint32Array, query: QueryTerms, signals: IssueSignals | undefined, depth: number): LexicalRanking {
    const fn = this.scorer.scoreAll(query);
    const fileCount = fileStart.length - 1;
    const fileOf = this.codeIndex.fileOfUnit;
    const useSignals = signals !== undefined && this.signalWeights !== undefined;
    const bare = this.functionless;
    const bareScores = this.functionlessScores;
    bareScores.set(this.wholeFiles.scoreAll(query));
    // bound[f]: the best score of file f's documents, step by step as the scores are made
    // (a file without documents: −Infinity, never read)
    const bound = new Float64Array(fileCount);
    let m = 0;
    for (let f = 0, d = fileStart[0]; f < fileCount; f++) {
      const end = fileStart[f + 1];
      if (d === end) {
        bound[f] = -Infinity;
        continue;
      }
      let best = 0;
      for (; d < end; d++) {
        const s = fn[d];
        if (s > best) best = s;
      }
      bound[f] = best;
      if (best > m) m = best;
    }
    const scale = new ScoreScale(fileOf);
    if (this.filePrior > 0) {
      const file = this.fileScorer.scoreAll(query).slice();
      const a = 1 / (m > 0 ? m : 1);
      const c = this.filePrior / maxOf(file, 1);
      scale.prior(a, file, c);
      for (let f = 0; f < fileCount; f++) bound[f] = Math.fround(bound[f] * a + file[f] * c);
      for (let i = 0; i < bare.length; i++) bareScores[i] = bareScores[i] * a + file[bare[i]] * c;
    }
    // 1: the file's bound is its best score (no document of it boosted)
    const boundIsBest = new Uint8Array(fileCount).fill(1);
    let reasons: Map<number, SignalName[]> | undefined;
    let evidence: Map<number, string[]> | undefined;
    let why: Map<number, { reasons: SignalName[]; evidence: string[] }> | undefined;
    if (useSignals) {
      let best = 0;
      for (let f = 0; f < fileCount; f++) if (bound[f] > best) best = bound[f];
      const top = best > 0 ? best : 1;
      for (let i = 0; i < bare.length; i++) bareScores[i] /= top;
      const boosts = this.resolver!.boosts(signals, this.signalWeights);
      const { boost } = boosts;
      ({ reasons, evidence } = boosts);
      scale.signals(top, boost, reasons);
      const most = new Float64Array(fileCount);
      for (const d of reasons.keys()) {
        const f = fileOf[d];
        boundIsBest[f] = 0;
        if (boost[d] > most[f]) most[f] = boost[d];
      }
      for (let f = 0; f < fileCount; f++) bound[f] = Math.fround(Math.fround(bound[f] / top) + most[f]);
      why = new Map();
      for (const [f, b] of boosts.files) {
        const i = this.functionlessAt[f];
        if (i < 0) continue;
        bareScores[i] += b.boost;
        why.set(f, b);
      }
    }
    const hit = (d: number) => scale.of(d, fn[d]);
    const late = lateScores(this.scorer, query, fileStart, scale.detached());
    return {
      hits: rankByFiles(bound, fileStart, hit, 'document', undefined, depth),
      files: () => rankByFiles(bound, fileStart, hit, 'file', boundIsBest),
      reasons, evidence, functionless: this.scoredFunctionless(why),
      ...late,
    };
  }

  /**
   * @param query issue terms with weights ({@link queryOf}).
   * @returns rankings; empty lists when no query term occurs in the index.
   */
  localize(query: QueryTerms, opts: LocalizeOptions = {}): Localization {
    const top = opts.top ?? 10;
    const depth = Math.max(top, opts.depth ?? Math.max(2000, 50 * top));
    const perItem = opts.matchedTermsPerItem ?? 8;
    const { hits, reasons, evidence, functionless = [], bestOfFile } = this.ranking(query, opts.signals, depth, Math.max(64, 4 * top));
    // A name defined twice in one file (e.g. in both branches of an `if`) ranks once, at its best.
    // Only the head of the ranking is read (and found: `ranking`, file by file): the `top` functions, and the
    // functions up to where the roll-up has `top` files and `top` modules (their first
    // occurrences, and so their best documents). Function ids, files and modules are told apart
    // by number (`UnitIds`), each marked with its first place in `ranked`.
    const { units, files: fileMarks, modules: moduleMarks } = this.marks;
    units.clear();
    fileMarks.clear();
    moduleMarks.clear();
    // the ranked functions' documents and scores; the places where a file and a module come first (roll-up)
    const ranked: { doc: number; score: number }[] = [];
    const fileFirsts: number[] = [];
    const moduleFirsts: number[] = [];
    const unitIds = unitIdsOf(this.codeIndex);
    const fileOf = this.codeIndex.fileOfUnit;
    while (!(ranked.length >= top && fileFirsts.length >= top && moduleFirsts.length >= top) && hits.next()) {
      const { doc } = hits;
      const at = ranked.length;
      if (!units.mark(unitIds.unitNumber(doc), at)) continue;
      if (fileMarks.mark(fileOf[doc], at)) fileFirsts.push(at);
      if (moduleMarks.mark(unitIds.moduleNumber(doc), at)) moduleFirsts.push(at);
      ranked.push({ doc, score: hits.score });
    }
    // the first place in `ranked` of a function of id, path or module id `id` (−1: none): the
    // files' and modules' first places by their ids, a function id's place by its number
    const placeOf = (marks: DenseSlots, k: number | undefined) => (k === undefined ? -1 : marks.get(k));
    const firstPlaces = new Map<string, number>();
    for (const at of fileFirsts) firstPlaces.set(this.table.path(ranked[at].doc), at);
    for (const at of moduleFirsts) {
      const id = unitIds.module(ranked[at].doc);
      const seen = firstPlaces.get(id);
      if (seen === undefined || at < seen) firstPlaces.set(id, at);
    }
    const firstPlace = (id: string) => {
      const at = placeOf(units, unitIds.numberOfUnitId(id));
      const first = firstPlaces.get(id) ?? -1;
      return first >= 0 && (at < 0 || first < at) ? first : at;
    };
    // roll-up: files and modules by first occurrence (`rollUp` of src/retrieve/rollup.ts)
    const firstOf = (firsts: number[], idOf: (doc: number) => string): RankedItem[] => firsts.slice(0, top).map((at) => {
      const { doc, score } = ranked[at];
      return { id: idOf(doc), score, matchedTerms: undefined };
    });
    const modules = firstOf(moduleFirsts, (d) => unitIds.module(d));
    const bareOf = new Map<string, ScoredFile>();
    const bareItems: RankedItem[] = functionless.slice(0, top).map((s) => {
      const id = this.codeIndex.filePaths[s.file];
      bareOf.set(id, s);
      return s.signals ? { id, score: s.score, signals: s.signals, evidence: s.evidence } : { id, score: s.score };
    });
    const files = mergeByScore(firstOf(fileFirsts, (d) => this.table.path(d)), bareItems, top);
    const functions: RankedItem[] = ranked.slice(0, top).map((r) => ({ id: unitIds.id(r.doc), score: r.score }));
    const loc: Localization = { files, modules, functions, matchedQueryTerms: this.matchedQueryTerms(query) };
    // Matched terms only for what is shown, from the item's best document.
    if (perItem > 0) {
      // an item's best document: that of the first ranked function it is the path, module or id of
      // found now for every item (the marks serve the localizer's next query): those shown are among them
      const sources = new Map<string, ItemSource | undefined>();
      for (const level of [functions, files, modules]) {
        for (const { id } of level) {
          if (sources.has(id)) continue;
          const at = firstPlace(id);
          const doc = at < 0 ? -1 : ranked[at].doc;
          sources.set(id, at < 0 ? undefined : { doc, signals: reasons?.get(doc), evidence: evidence?.get(doc) });
        }
      }
      const sourceOf = (id: string) => sources.get(id);
      const annotate = (shown: ShownItems) => annotateItems(this, query, perItem, [
        { items: shown.functions, wholeFile: false, sourceOf },
        { items: shown.files, wholeFile: true, sourceOf },
        { items: shown.modules, wholeFile: false, sourceOf },
      ], bareOf);
      if (opts.matchedTermsLater) loc.annotate = annotate;
      else annotate(loc);
    }
    if (opts.fileLines) {
      // a file's first ranked function is its best (the hits come best first, ties by document)
      const firstOfFile = new Map<number, number>();
      for (const at of fileFirsts) if (ranked[at].score > 0) firstOfFile.set(fileOf[ranked[at].doc], ranked[at].doc);
      loc.bestOfFile = (f) => firstOfFile.get(f) ?? bestOfFile(f);
      loc.docOfFunction = scoredDocsOf(functions, (id) => {
        const at = placeOf(units, unitIds.numberOfUnitId(id));
        return at < 0 ? undefined : ranked[at].doc;
      }, this, this.codeIndex.settings.stem);
    }
    return loc;
  }

  /** How many distinct terms of `query` occur in the function- or file-level index (0: nothing can match). */
  matchedQueryTerms(query: QueryTerms): number {
    const fn = resolveQuery(this.index, query).ids;
    const file = resolveQuery(this.codeIndex.fileIndex, query).ids;
    let present = 0;
    for (let i = 0; i < fn.length; i++) if (fn[i] >= 0 || file[i] >= 0) present++;
    return present;
  }

  /**
   * Per function-level document of `docs`, the query terms it holds, highest idf first, at most
   * `limit` each, as they are shown: not the reserved words of the document's language (`true`,
   * `def`, `import` in Python), nor the issue's fragments of split words (`fragmentTermsOf`).
   */
  matchedTerms(docs: readonly number[], query: QueryTerms, limit: number): string[][] {
    const fileOf = this.codeIndex.fileOfUnit;
    return termsInDocs(this.scorer, docs, query, limit, (i) => this.keywordsOf(fileOf[docs[i]]));
  }

  /** The same for file-level documents `files`, highest file-level idf first ({@link matchedTerms}). */
  matchedFileTerms(files: readonly number[], query: QueryTerms, limit: number): string[][] {
    return termsInDocs(this.fileScorer, files, query, limit, (i) => this.keywordsOf(files[i]));
  }

  /**
   * Whether each function-level document of `docs` holds `term` as {@link matchedTerms} shows it
   * (not a reserved word of its language): a binary search per document in the term's postings.
   */
  holdsTerm(docs: readonly number[], term: string): boolean[] {
    const t = this.index.termIds.get(term);
    if (t === undefined) return docs.map(() => false);
    const postingDoc = this.index.postings(t).doc;
    const fileOf = this.codeIndex.fileOfUnit;
    return docs.map((d) => {
      const p = firstAtLeast(postingDoc, 0, postingDoc.length, d);
      return p < postingDoc.length && postingDoc[p] === d && !this.keywordsOf(fileOf[d]).has(term);
    });
  }

  /** Per file-level document, the reserved words of its language, made on first use. */
  private readonly fileKeywords: (ReadonlySet<string> | undefined)[] = [];

  private keywordsOf(file: number): ReadonlySet<string> {
    return (this.fileKeywords[file] ??= languageKeywords(languageOf(this.codeIndex.filePaths[file])));
  }
}

/**
 * {@link Localizer.scoreAll}'s steps from a document's BM25F+ score to its score, for one
 * document at a time: with the file prior, s · a + file · c rounded to float32; with the
 * signals, that over the best such score, rounded to float32, plus the document's boost,
 * rounded to float32 (as scoreAll stores each step).
 */
class ScoreScale {
  private a = 1;
  private c = 0;
  private file: Float32Array | undefined;
  private top = 1;
  private boost: Float32Array | undefined;

  constructor(private readonly fileOf: Uint32Array) {}

  prior(a: number, file: Float32Array, c: number): void {
    this.a = a;
    this.file = file;
    this.c = c;
  }

  /** With the signals: `top`, the best score before them; `boosted`, the documents with a boost. */
  signals(top: number, boost: Float32Array, boosted: ReadonlyMap<number, unknown>): void {
    this.top = top;
    this.boost = boost;
    this.boosted = boosted;
  }

  private boosted: ReadonlyMap<number, unknown> = new Map();
  private sparse: Map<number, number> | undefined;

  /** The score of document `d` of BM25F+ score `s`. */
  of(d: number, s: number): number {
    const v = this.file ? Math.fround(s * this.a + this.file[this.fileOf[d]] * this.c) : s;
    if (this.boost) return Math.fround(Math.fround(v / this.top) + this.boost[d]);
    if (this.sparse) return Math.fround(Math.fround(v / this.top) + (this.sparse.get(d) ?? 0));
    return v;
  }

  /** The same steps, holding the boosts of the boosted documents only (not an array over every document). */
  detached(): ScoreScale {
    const out = new ScoreScale(this.fileOf);
    if (this.file) out.prior(this.a, this.file, this.c);
    if (this.boost) {
      const boost = this.boost;
      out.top = this.top;
      const sparse = (out.sparse = new Map<number, number>());
      for (const d of this.boosted.keys()) sparse.set(d, boost[d]);
    }
    return out;
  }
}

/**
 * A ranking's `scoreOf` and `bestOfFile`, asked after the ranking was read (the files' lines):
 * from the scorer's array while it holds this query's BM25F+ scores, else from the postings
 * (`Bm25fScorer.scoreOne`). Made apart from the ranking, so they hold none of its arrays.
 */
function lateScores(scorer: Bm25fScorer, query: QueryTerms, fileStart: Uint32Array, scale: ScoreScale): Pick<LexicalRanking, 'scoreOf' | 'bestOfFile'> {
  const call = scorer.calls;
  const fn = scorer.scoreAllArray();
  const scoreOf = (d: number) => scale.of(d, scorer.calls === call ? fn[d] : scorer.scoreOne(query, d));
  const bestOfFile = (f: number) => {
    let best = -1, bestScore = 0;
    for (let d = fileStart[f]; d < fileStart[f + 1]; d++) {
      const s = scoreOf(d);
      if (s > bestScore) { best = d; bestScore = s; }
    }
    return best;
  };
  return { scoreOf, bestOfFile };
}

/**
 * {@link Localizer.ranking}'s answer: `scoreAll`'s without the scores, which are read as hits.
 * `bestOfFile` may be asked at any time; `hits`, `files` and `scoreOf` are read before the
 * localizer's next query (they read its scores).
 */
export interface LexicalRanking {
  /** The documents of score > 0, best first (ties: lower document first), as far as they are read. */
  hits: HitCursor;
  /** Per file-level document, its best function-level document by these scores (−1: none above 0). */
  bestOfFile: (file: number) => number;
  /**
   * The files holding a function of score > 0, by the score of their best (`doc`: the file-level
   * document, `score`: that best score), ties: lower file first; read while the hits are not.
   */
  files: () => HitCursor;
  /** The score of function-level document `doc`. */
  scoreOf: (doc: number) => number;
  reasons?: Map<number, SignalName[]>;
  evidence?: Map<number, string[]>;
  functionless?: ScoredFile[];
}

/** Largest value of `xs`, or `fallback` when none is positive. */
function maxOf(xs: Float32Array, fallback: number): number {
  let m = 0;
  for (let i = 0; i < xs.length; i++) if (xs[i] > m) m = xs[i];
  return m > 0 ? m : fallback;
}
