import type { CodeIndex } from '../index/code-index.js';
import { Bm25fScorer, hitsByRank, type Bm25fParams, type QueryTerms } from './bm25f.js';
import { languageOf } from '../corpus/languages.js';
import { languageKeywords } from '../text/stop-words.js';
import { functionlessFiles, mergeByScore, rollUp, type Localization, type RankedItem, type ScoredFile } from './rollup.js';
import { DEFAULT_SIGNAL_WEIGHTS, SignalResolver, type SignalName, type SignalWeights } from './signals.js';
import type { IssueSignals } from '../text/issue-signals.js';
import { DEFAULT_TITLE_WEIGHT } from './query.js';
import type { ParsedIssue } from '../text/parsed-issue.js';
import { termsInDocs } from './matched-terms.js';
import { WholeFileScorer } from './whole-files.js';
import { annotateItems, type ItemSource } from './annotate.js';
import { bestOfFiles } from './item-lines.js';
import { unitIdsOf } from './unit-ids.js';
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

  /**
   * @param query issue terms with weights ({@link queryOf}).
   * @returns rankings; empty lists when no query term occurs in the index.
   */
  localize(query: QueryTerms, opts: LocalizeOptions = {}): Localization {
    const top = opts.top ?? 10;
    const depth = Math.max(top, opts.depth ?? Math.max(2000, 50 * top));
    const perItem = opts.matchedTermsPerItem ?? 8;
    const { scores, reasons, evidence, functionless = [] } = this.scoreAll(query, opts.signals);
    // A name defined twice in one file (e.g. in both branches of an `if`) ranks once, at its best.
    // Only the head of the ranking is read (and found: hitsByRank): the `top` functions, and the
    // functions up to where the roll-up has `top` files and `top` modules (their first
    // occurrences, and so their best documents).
    const seen = new Set<string>();
    const paths = new Set<string>();
    const moduleIds = new Set<string>();
    const ranked = [];
    const unitIds = unitIdsOf(this.codeIndex);
    for (const h of hitsByRank(scores, depth, Math.max(64, 4 * top))) {
      if (ranked.length >= top && paths.size >= top && moduleIds.size >= top) break;
      const id = unitIds.id(h.doc);
      if (seen.has(id)) continue;
      const u = this.table.unit(h.doc);
      seen.add(id);
      paths.add(u.path);
      moduleIds.add(unitIds.module(h.doc));
      ranked.push({ id, path: u.path, qualifiedName: u.qualifiedName, namespaceParts: u.namespaceParts, score: h.score, doc: h.doc });
    }
    const rolled = rollUp(ranked, top);
    const { modules } = rolled;
    const bareOf = new Map<string, ScoredFile>();
    const bareItems: RankedItem[] = functionless.slice(0, top).map((s) => {
      const id = this.codeIndex.filePaths[s.file];
      bareOf.set(id, s);
      return s.signals ? { id, score: s.score, signals: s.signals, evidence: s.evidence } : { id, score: s.score };
    });
    const files = mergeByScore(rolled.files, bareItems, top);
    const functions: RankedItem[] = ranked.slice(0, top).map((r) => ({ id: r.id, score: r.score }));
    // Matched terms only for what is shown, from the item's best document.
    if (perItem > 0) {
      const bestDoc = new Map<string, number>();
      for (const r of ranked) {
        if (!bestDoc.has(r.path)) bestDoc.set(r.path, r.doc);
        const m = unitIds.module(r.doc);
        if (!bestDoc.has(m)) bestDoc.set(m, r.doc);
        if (!bestDoc.has(r.id)) bestDoc.set(r.id, r.doc);
      }
      const sourceOf = (id: string): ItemSource | undefined => {
        const doc = bestDoc.get(id);
        return doc === undefined ? undefined : { doc, signals: reasons?.get(doc), evidence: evidence?.get(doc) };
      };
      annotateItems(this, query, perItem, [
        { items: functions, wholeFile: false, sourceOf },
        { items: files, wholeFile: true, sourceOf },
        { items: modules, wholeFile: false, sourceOf },
      ], bareOf);
    }
    const loc: Localization = { files, modules, functions, matchedQueryTerms: this.matchedQueryTerms(query) };
    if (opts.fileLines) loc.bestOfFile = bestOfFiles(scores, this.codeIndex.fileOfUnit, this.codeIndex.filePaths.length);
    return loc;
  }

  /** How many distinct terms of `query` occur in the function- or file-level index (0: nothing can match). */
  matchedQueryTerms(query: QueryTerms): number {
    let present = 0;
    for (const t of query.keys()) if (this.index.termIds.has(t) || this.codeIndex.fileIndex.termIds.has(t)) present++;
    return present;
  }

  /**
   * Per function-level document of `docs`, the query terms it holds, highest idf first, at most
   * `limit` each, as they are shown: not the reserved words of the document's language (`true`,
   * `def`, `import` in Python), nor the issue's fragments of split words (`fragmentTermsOf`).
   */
  matchedTerms(docs: readonly number[], query: QueryTerms, limit: number): string[][] {
    return termsInDocs(this.scorer, docs, query, limit, (i) => languageKeywords(languageOf(this.table.path(docs[i]))));
  }

  /** The same for file-level documents `files`, highest file-level idf first ({@link matchedTerms}). */
  matchedFileTerms(files: readonly number[], query: QueryTerms, limit: number): string[][] {
    return termsInDocs(this.fileScorer, files, query, limit, (i) => languageKeywords(languageOf(this.codeIndex.filePaths[files[i]])));
  }
}

/** Largest value of `xs`, or `fallback` when none is positive. */
function maxOf(xs: Float32Array, fallback: number): number {
  let m = 0;
  for (let i = 0; i < xs.length; i++) if (xs[i] > m) m = xs[i];
  return m > 0 ? m : fallback;
}
