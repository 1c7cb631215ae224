/**
 * Features of the candidates of a learned ranker: the top functions of the lexical pipeline, each
 * described by its lexical scores, the issue-text signals that fire on it, the history of its
 * file and its shape (Ye et al. 2014's learning-to-rank setting, at function level). Which
 * features there are, and how each is computed, is the registry's (src/ltr/features/registry.ts;
 * the table in docs/learning-to-rank.md); this module picks the candidates and fills the matrix.
 */
import type { CodeIndex } from '../../index/code-index.js';
import { CodeGraph } from '../../graph/code-graph.js';
import type { HitCursor, QueryTerms } from '../../retrieve/bm25f.js';
import { Localizer, type LexicalRanking, type RankingOptions } from '../../retrieve/localize.js';
import { unitIdsOf, type UnitIds } from '../../retrieve/unit-ids.js';
import type { ScoredFile } from '../../retrieve/rollup.js';
import { SignalResolver, type SignalName } from '../../retrieve/signals.js';
import { DocFieldScorer } from '../doc-scores.js';
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';
import type { ParsedIssue } from '../../text/parsed-issue.js';
import type { HistoryEvidence } from './evidence.js';
import { codeTermsOf } from './issue-queries.js';
import { FEATURE_GROUPS, FEATURE_REGISTRY, FEATURES, type FeatureName } from './registry.js';
import { CandidateShapes } from './shapes.js';
import { ALL_SIGNALS } from './signals.js';
import { DenseSlots } from '../../util/dense-slots.js';

const F = FEATURES.length;
/** Per group, the value functions of its features in column order. */
const GROUP_VALUES = FEATURE_GROUPS.map((g: FeatureGroup<unknown>) => Object.values<FeatureSpec<unknown>>(g.features).map((f) => f.value));
/** Columns divided by their largest value. */
const MAX_NORMALISED = FEATURE_REGISTRY.flatMap((f, j) => (f.normalise === 'max' ? [j] : []));


/** The candidates of one query with their features. */
export interface CandidateSet {
  /** Function-level document of each candidate, in pipeline order (best first). */
  docs: Int32Array;
  /** `path:Qualified.name` (or path) of each candidate. */
  ids: string[];
  paths: string[];
  /** `path:TopLevelName` of each candidate. */
  modules: string[];
  /** Per candidate, the slot of its path and of its module: the order of their first candidate (`CandidateContext.fileSlot`, `moduleSlot`). */
  fileSlot: Int32Array;
  moduleSlot: Int32Array;
  /** The issue's query, as the candidate pipeline builds it (`Localizer.queryOf`). */
  query: QueryTerms;
  /** The pipeline's score of each candidate. */
  pipelineScores: Float32Array;
  /** Per file-level document, its best function by the pipeline's scores (−1: none above 0; `LexicalRanking.bestOfFile`). */
  bestOfFile: (file: number) => number;
  /** Feature matrix, row-major: features[i · FEATURES.length + j]. */
  features: Float32Array;
  /** Signals that fired per candidate (index into `docs`), for `--explain`. */
  signals: Map<number, SignalName[]>;
  /** What in the issue fired each of a candidate's `signals` (same order). */
  evidence: Map<number, string[]>;
  /**
   * The best files of the pipeline that hold no candidate (at most {@link OTHER_FILES}), best
   * first, each with its pipeline score (same scale as `pipelineScores`): files whose functions
   * rank below the candidates, and files without any function-level document (their score and
   * file-level signals as `Localizer.scoreAll` gives them). The model cannot score them; they
   * fill the file ranking where the candidates hold few files.
   */
  otherFiles: ScoredFile[];
}

/** Files kept in {@link CandidateSet.otherFiles}. */
export const OTHER_FILES = 100;

/** Options of {@link FeatureExtractor}. */
export interface FeatureOptions {
  /** Ranking options of the candidate-generating pipeline (and of the BM25F features). */
  ranking?: RankingOptions;
  /** Candidates kept per query (default 200). */
  depth?: number;
  /**
   * The features to compute (default: all): the others' columns stay 0, and a group none of whose
   * features is read is not prepared. A model's `reads` (its scores depend on no other feature).
   */
  reads?: ReadonlySet<FeatureName>;
  /** The code graph of the index's commit, for the graph features (src/ltr/features/graph.ts; without it they are 0). */
  graph?: CodeGraph;
  /**
   * Candidate expansion over the graph's imports: the files imported by or importing the files of
   * the best `expand` candidates add their best function each to the candidates, after the
   * `depth` best (default {@link DEFAULT_EXPANSION}; 0 or no graph: none).
   */
  expand?: number;
}

/** Default of {@link FeatureOptions.expand}: off (see docs/learning-to-rank.md for what it measured). */
export const DEFAULT_EXPANSION = 0;
/** Neighbour files of one top file that expansion visits at most. */
const MAX_NEIGHBOURS = 10;

/**
 * Extracts candidate features for queries against one loaded index. Construct once per index:
 * the scorers and the name-token memo are reused across queries.
 *
 * Cost per query: the pipeline's own scoring, plus O(depth × query terms × log postings) for the
 * per-candidate BM25 scores.
 */
export class FeatureExtractor {
  readonly localizer: Localizer;
  readonly depth: number;
  private readonly fnScorer: DocFieldScorer;
  private readonly fileScorer: DocFieldScorer;
  private resolver: SignalResolver | undefined;
  private readonly allSignalsOn: boolean;
  /** Position of the path, name and body fields in the index (−1 when absent). */
  private readonly fieldAt: Record<'path' | 'name' | 'body', number>;
  private readonly shapes: CandidateShapes;
  private readonly unitIds: UnitIds;
  /** Per group ({@link FEATURE_GROUPS} order), the columns of its features that are computed (within the group). */
  private readonly computed: readonly (readonly number[])[];
  /** The features computed (undefined: all). */
  private readonly reads: ReadonlySet<string> | undefined;
  private readonly graph: CodeGraph | undefined;
  private readonly expand: number;
  /** Per file-level document, its function-level documents: `docs[start[f]] … docs[start[f + 1] − 1]` (made on the first expansion). */
  private docsOfFile: { start: Uint32Array; docs: Uint32Array } | undefined;
  /** The slots of one query's unit ids (distinct candidates), files and module ids, reused query after query. */
  private readonly idSlots: DenseSlots;
  private readonly fileSlots: DenseSlots;
  private readonly moduleSlots: DenseSlots;

  constructor(readonly codeIndex: CodeIndex, opts: FeatureOptions = {}) {
    const ranking = opts.ranking ?? {};
    this.localizer = new Localizer(codeIndex, ranking);
    this.depth = opts.depth ?? 200;
    this.fnScorer = new DocFieldScorer(codeIndex.index, ranking.bm25);
    this.fileScorer = new DocFieldScorer(codeIndex.fileIndex, ranking.fileBm25 ?? ranking.bm25);
    const fields = codeIndex.index.fieldNames;
    this.fieldAt = { path: fields.indexOf('path'), name: fields.indexOf('name'), body: fields.indexOf('body') };
    this.shapes = new CandidateShapes(codeIndex);
    this.unitIds = unitIdsOf(codeIndex);
    this.idSlots = new DenseSlots(this.unitIds.numberBound);
    this.moduleSlots = new DenseSlots(this.unitIds.numberBound);
    this.fileSlots = new DenseSlots(codeIndex.filePaths.length);
    const reads = opts.reads;
    this.reads = reads;
    this.graph = opts.graph;
    this.expand = opts.expand ?? DEFAULT_EXPANSION;
    this.computed = FEATURE_GROUPS.map((g: FeatureGroup<unknown>) => Object.keys(g.features).flatMap((name, j) => (!reads || reads.has(name as FeatureName) ? [j] : [])));
    const sig = ranking.signals;
    this.allSignalsOn = sig !== undefined && sig !== false && Object.keys(ALL_SIGNALS).every((k) => (sig[k as SignalName] ?? 0) > 0);
  }

  /**
   * The top `depth` distinct functions of the pipeline for an issue, with their features
   * ({@link FEATURES} columns, each group of src/ltr/features/registry.ts in turn).
   * @param issue the issue, read once: its query (`Localizer.queryOf`, stemmed like the index),
   *   signals, words and title.
   * @param history history evidence of the query's base commit, if any.
   */
  extract(issue: ParsedIssue, history: HistoryEvidence = {}): CandidateSet {
    const { signals } = issue;
    const query = this.localizer.queryOf(issue);
    const { table } = this.codeIndex;
    // the pipeline's ranking, read as far as the candidates and the other files need
    const pipeline = this.localizer.ranking(query, signals, Infinity, 64);
    const { docs, ids, pipelineScores } = this.candidates(pipeline.hits, pipeline);
    const { bestOfFile } = pipeline;
    const { fileSlot, files, moduleSlot, moduleCount } = this.slots(docs);
    const otherFiles = this.otherFiles(pipeline.files(), pipeline.functionless ?? []);
    const paths = docs.map((d) => table.path(d));
    const modules = docs.map((d) => this.unitIds.module(d));
    // the pipeline's reasons name every signal when all of its signal weights are on
    const { reasons, evidence } = this.allSignalsOn && pipeline.reasons && pipeline.evidence
      ? { reasons: pipeline.reasons, evidence: pipeline.evidence }
      : (this.resolver ??= new SignalResolver(this.codeIndex)).boosts(signals, ALL_SIGNALS);
    const candidateSignals = new Map<number, SignalName[]>();
    const candidateEvidence = new Map<number, string[]>();
    docs.forEach((d, i) => {
      const why = reasons.get(d);
      if (!why) return;
      candidateSignals.set(i, why);
      candidateEvidence.set(i, evidence.get(d)!);
    });
    const { stem } = this.codeIndex.settings;
    const features = featureMatrix(this.computed, {
      codeIndex: this.codeIndex, fnScorer: this.fnScorer, fileScorer: this.fileScorer, fieldAt: this.fieldAt, shapes: this.shapes,
      issue, query, codeQuery: codeTermsOf(issue, stem), titleQuery: issue.titleTerms(stem),
      docs, paths, modules, fileSlot, files, moduleSlot, moduleCount, pipelineScores, reasons, history, graph: this.graph,
      computes: (feature) => !this.reads || this.reads.has(feature),
    });
    return {
      query, docs: Int32Array.from(docs), ids, paths, modules, fileSlot, moduleSlot,
      pipelineScores: Float32Array.from(pipelineScores), features, signals: candidateSignals, evidence: candidateEvidence, otherFiles, bestOfFile,
    };
  }

  /** The best `depth` distinct functions (by {@link unitId}) among the pipeline's best 2 × `depth`, best first. */
  private candidates(hits: HitCursor, ranking: LexicalRanking): { docs: number[]; ids: string[]; pipelineScores: number[] } {
    // the unit ids met, by number
    const seen = this.idSlots.clear();
    const docs: number[] = [];
    const ids: string[] = [];
    const pipelineScores: number[] = [];
    for (let read = 0; docs.length < this.depth && read < this.depth * 2; read++) {
      if (!hits.next()) break;
      const k = this.unitIds.unitNumber(hits.doc);
      if (seen.get(k) >= 0) continue;
      seen.add(k);
      docs.push(hits.doc);
      ids.push(this.unitIds.id(hits.doc));
      pipelineScores.push(hits.score);
    }
    if (this.graph && this.expand > 0) this.expandOverImports(this.graph, ranking, seen, docs, ids, pipelineScores);
    return { docs, ids, pipelineScores };
  }

  /**
   * Adds to the candidates, in turn for the files of the best {@link expand} candidates, the best
   * function (by pipeline score) of each file they import or that imports them and that holds no
   * candidate yet.
   */
  private expandOverImports(graph: CodeGraph, ranking: LexicalRanking, seen: DenseSlots, docs: number[], ids: string[], pipelineScores: number[]): void {
    const { fileOfUnit } = this.codeIndex;
    const held = new Set(docs.map((d) => fileOfUnit[d]));
    const tops: number[] = [];
    for (const d of docs) {
      const f = fileOfUnit[d];
      if (!tops.includes(f)) tops.push(f);
      if (tops.length >= this.expand) break;
    }
    for (const f of tops) {
      const near = [...CodeGraph.of(graph.imports, f), ...CodeGraph.of(graph.importers, f)].slice(0, 2 * MAX_NEIGHBOURS);
      for (const g of near) {
        if (held.has(g)) continue;
        const d = this.bestFunction(ranking, g);
        if (d < 0) continue;
        held.add(g);
        const k = this.unitIds.unitNumber(d);
        if (seen.get(k) >= 0) continue;
        seen.add(k);
        docs.push(d);
        ids.push(this.unitIds.id(d));
        pipelineScores.push(ranking.scoreOf(d));
      }
    }
  }

  /**
   * Per candidate, the slot of its file and of its module id: the order of their first candidate
   * (a file's slot is its rank in the roll-up); `files[slot]` is that file-level document.
   */
  private slots(docs: readonly number[]): Pick<CandidateContext, 'fileSlot' | 'files' | 'moduleSlot' | 'moduleCount'> {
    const { fileOfUnit } = this.codeIndex;
    const fileSlots = this.fileSlots.clear();
    const moduleSlots = this.moduleSlots.clear();
    const n = docs.length;
    const fileSlot = new Int32Array(n);
    const moduleSlot = new Int32Array(n);
    const files = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const f = fileOfUnit[docs[i]];
      const k = fileSlots.add(f);
      files[k] = f;
      fileSlot[i] = k;
      moduleSlot[i] = moduleSlots.add(this.unitIds.moduleNumber(docs[i]));
    }
    return { fileSlot, files: files.subarray(0, fileSlots.size), moduleSlot, moduleCount: moduleSlots.size };
  }

  /** The function-level document of file `f` of the best pipeline score (the first at equal scores; −1: the file has none). */
  private bestFunction(ranking: LexicalRanking, f: number): number {
    const { fileOfUnit, filePaths } = this.codeIndex;
    if (!this.docsOfFile) {
      const start = new Uint32Array(filePaths.length + 1);
      for (let d = 0; d < fileOfUnit.length; d++) start[fileOfUnit[d] + 1]++;
      for (let i = 0; i < filePaths.length; i++) start[i + 1] += start[i];
      const docs = new Uint32Array(fileOfUnit.length);
      const at = start.slice(0, filePaths.length);
      for (let d = 0; d < fileOfUnit.length; d++) docs[at[fileOfUnit[d]]++] = d;
      this.docsOfFile = { start, docs };
    }
    const { start, docs } = this.docsOfFile;
    let best = -1, bestScore = 0;
    for (let i = start[f]; i < start[f + 1]; i++) {
      const s = ranking.scoreOf(docs[i]);
      if (best < 0 || s > bestScore) { best = docs[i]; bestScore = s; }
    }
    return best;
  }

  /**
   * The best files by pipeline score (a file's best function, or its own score when it has no
   * function) that hold none of the candidates: the pipeline's files (`LexicalRanking.files`)
   * merged with the function-less files.
   */
  private otherFiles(files: HitCursor, functionless: readonly ScoredFile[]): ScoredFile[] {
    // the candidates' files: those of the last {@link slots}
    const held = this.fileSlots;
    const found: ScoredFile[] = [];
    while (files.next()) {
      if (held.get(files.doc) >= 0) continue;
      found.push({ file: files.doc, score: files.score });
      if (found.length >= OTHER_FILES) break;
    }
    return [...found, ...functionless].sort((x, y) => y.score - x.score || x.file - y.file).slice(0, OTHER_FILES);
  }
}


/**
 * The feature matrix of a query's candidates (row-major, {@link FEATURES} columns): each group of
 * the registry fills its `computed` columns from its per-candidate record (the others stay 0; a
 * group with none is not prepared), then the "max" columns are divided by their largest value.
 */
function featureMatrix(computed: readonly (readonly number[])[], ctx: CandidateContext): Float32Array {
  const n = ctx.docs.length;
  const x = new Float32Array(n * F);
  let column = 0;
  FEATURE_GROUPS.forEach((g: FeatureGroup<unknown>, k) => {
    const values = GROUP_VALUES[k];
    const columns = computed[k];
    if (columns.length > 0) {
      const rowOf = g.prepare(ctx);
      for (let i = 0; i < n; i++) {
        const row = rowOf(i);
        const at = i * F + column;
        for (const j of columns) x[at + j] = values[j](row);
      }
    }
    column += values.length;
  });
  for (const c of MAX_NORMALISED) normaliseColumn(x, n, c);
  return x;
}

/** Divides column `c` of an n-row matrix by its largest value (leaves it when that is ≤ 0). */
function normaliseColumn(x: Float32Array, n: number, c: number): void {
  let m = 0;
  for (let i = 0; i < n; i++) if (x[i * F + c] > m) m = x[i * F + c];
  if (m <= 0) return;
  for (let i = 0; i < n; i++) x[i * F + c] /= m;
}
