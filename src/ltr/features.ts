/**
 * Features of the candidates of a learned ranker: the top functions of the lexical pipeline, each
 * described by its lexical scores, the issue-text signals that fire on it, the history of its
 * file and its shape (Ye et al. 2014's learning-to-rank setting, at function level).
 */
import type { CodeIndex } from '../index/code-index.js';
import { isTestPath } from '../corpus/languages.js';
import { topK, type QueryTerms } from '../retrieve/bm25f.js';
import { queryTermsOf, titleOf } from '../retrieve/query.js';
import { Localizer, unitId, type RankingOptions, type ScoredFile } from '../retrieve/localize.js';
import { moduleIdOf } from '../retrieve/rollup.js';
import { SignalResolver, type SignalName, type SignalWeights } from '../retrieve/signals.js';
import type { IssueSignals } from '../text/issue-signals.js';
import { tokenize } from '../text/tokenize.js';
import type { FileHistory } from '../history/file-history.js';
import { DocFieldScorer, type PreparedTerm } from './doc-scores.js';
import { fileStem, lastNamePart } from '../corpus/names.js';

/**
 * The feature names, in the order of a candidate's feature vector. Every value lies in [0, 1];
 * "/max" means divided by the largest value among the query's candidates (0 when all are 0).
 * - pipeline: the lexical pipeline's score /max; pipelineRank: 1 / log2(1 + rank).
 * - bm25f: the function's BM25F+ /max; bm25Path, bm25Name, bm25Body: BM25 of one field /max.
 * - bm25Code: BM25F+ /max for the issue's code identifiers alone (words written with `_`, inner
 *   capitals or digits, e.g. `index_together`, `StatReloader`, each as its whole-identifier
 *   token), so that a few exact identifiers are not drowned by the prose.
 * - titleBm25: BM25F+ /max for the issue's title alone (its first non-empty line), the summary a
 *   reporter writes first (Ye et al. 2014 and Saha et al. 2013 weigh the bug report's summary
 *   apart from its description); titleName, titlePath: BM25 of the name or path field alone
 *   for the title /max.
 * - fileBm25f, fileBm25Code, fileTitleBm25: the same three scores of the whole file (file-level index) /max;
 *   fileRank: 1 / log2(1 + rank of the file in the pipeline's file roll-up); fileCandidates:
 *   ln(1 + candidates in the same file) /max; withinFileRank: 1 / log2(1 + the candidate's rank
 *   among the candidates of its file).
 * - moduleBest: the best pipeline score in the candidate's module (`path:TopLevelName`) /max;
 *   moduleCandidates: ln(1 + candidates in the module) /max.
 * - calledByTop: the best pipeline score /max of the top 10 candidates whose body uses the
 *   candidate's name (a helper called by the functions the issue is about); callsTop: the same
 *   for top candidates whose name the candidate's body uses (a caller). Names are the
 *   whole-identifier tokens of the index. calledByCount: ln(1 + how many of the top 10 use its
 *   name) / ln 11 (a helper shared by several of them).
 * - frameFile … namedFunction: 1 when that issue-text signal fires (src/retrieve/signals.ts).
 * - nameCoverage: share of the tokens of the function's own name found in the issue;
 *   fileNameCoverage: the same for the file name without extension; nameInText: 1 when the
 *   function's own name (3+ characters) is written in the issue as a word, case kept;
 *   classInText: the same for its top-level class (Ye et al. 2014's class-name feature f4);
 *   nameInTitle, classInTitle: the same in the title.
 * - fixes, changes: ln(1 + count) /max; fixRecency, changeRecency: Ye et al. (2014) f5;
 *   fixWeighted: Lewis et al. (2013) /max (src/history/file-history.ts).
 * - messageSim: SimiScore over earlier commit messages /max; similarIssues: SimiScore over a
 *   dataset of earlier issues /max (src/history/).
 * - length: ln(1 + lines) / ln(1000), at most 1; depth: path depth / 10, at most 1.
 * - isTest, isInit (`__init__.py`, `index.*`, `mod.rs`), notFunction (a class or file document),
 *   isPrivate (`_name`), isDunder (`__name__`): 0/1.
 */
export const FEATURES = [
  'pipeline', 'pipelineRank', 'bm25f', 'bm25Path', 'bm25Name', 'bm25Body',
  'bm25Code', 'titleBm25', 'titleName', 'titlePath', 'fileBm25f', 'fileBm25Code', 'fileTitleBm25', 'fileRank', 'fileCandidates', 'withinFileRank', 'moduleBest', 'moduleCandidates',
  'calledByTop', 'callsTop', 'calledByCount',
  'frameFile', 'frameFunction', 'mentionedFile', 'mentionedUnit', 'namedFunction',
  'nameCoverage', 'fileNameCoverage', 'nameInText', 'classInText', 'nameInTitle', 'classInTitle',
  'fixes', 'fixRecency', 'fixWeighted', 'changes', 'changeRecency', 'messageSim', 'similarIssues',
  'length', 'depth', 'isTest', 'isInit', 'notFunction', 'isPrivate', 'isDunder',
] as const;

export type FeatureName = (typeof FEATURES)[number];
const F = FEATURES.length;
const col = Object.fromEntries(FEATURES.map((n, i) => [n, i])) as Record<FeatureName, number>;
const ALL_SIGNALS: SignalWeights = { frameFile: 1, frameFunction: 1, mentionedFile: 1, mentionedUnit: 1, namedFunction: 1 };

/** History evidence of one query (all optional: missing evidence gives 0 features). */
export interface HistoryEvidence {
  /** Per-file history at the base commit. */
  files?: ReadonlyMap<string, FileHistory>;
  /** SimiScore over earlier commit messages, per file. */
  messageScores?: ReadonlyMap<string, number>;
  /** SimiScore over a dataset of earlier issues, per file. */
  similarIssues?: ReadonlyMap<string, number>;
}

/** The candidates of one query with their features. */
export interface CandidateSet {
  /** Function-level document of each candidate, in pipeline order (best first). */
  docs: Int32Array;
  /** `path:Qualified.name` (or path) of each candidate. */
  ids: string[];
  paths: string[];
  /** `path:TopLevelName` of each candidate. */
  modules: string[];
  /** The issue's query, as the candidate pipeline builds it (`Localizer.queryOf`). */
  query: QueryTerms;
  /** The pipeline's score of each candidate. */
  pipelineScores: Float32Array;
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
}

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
  private readonly fileShapes: (FileShape | undefined)[] = [];
  private readonly unitShapes: (UnitShape | undefined)[] = [];
  /** Per file-level document, its best pipeline score (reused across queries). */
  private fileBest: Float32Array | undefined;

  constructor(readonly codeIndex: CodeIndex, opts: FeatureOptions = {}) {
    const ranking = opts.ranking ?? {};
    this.localizer = new Localizer(codeIndex, ranking);
    this.depth = opts.depth ?? 200;
    this.fnScorer = new DocFieldScorer(codeIndex.index, ranking.bm25);
    this.fileScorer = new DocFieldScorer(codeIndex.fileIndex, ranking.fileBm25 ?? ranking.bm25);
    const fields = codeIndex.index.fieldNames;
    this.fieldAt = { path: fields.indexOf('path'), name: fields.indexOf('name'), body: fields.indexOf('body') };
    const sig = ranking.signals;
    this.allSignalsOn = sig !== undefined && sig !== false && Object.keys(ALL_SIGNALS).every((k) => (sig[k as SignalName] ?? 0) > 0);
  }

  /**
   * The top `depth` distinct functions of the pipeline for an issue, with their features.
   * @param issue the issue's terms (`queryTermsOf`, stemmed like the index), signals
   *   (`extractIssueSignals`) and text.
   * @param history history evidence of the query's base commit, if any.
   */
  extract(issue: IssueQuery, history: HistoryEvidence = {}): CandidateSet {
    const { signals } = issue;
    const query = this.localizer.queryOf(issue.text);
    const { units, fileOfUnit } = this.codeIndex;
    const { scores, reasons: pipelineReasons, evidence: pipelineEvidence, functionless = [] } = this.localizer.scoreAll(query, signals);
    const hits = topK(scores, this.depth * 2);
    const seen = new Set<string>();
    const docs: number[] = [];
    const ids: string[] = [];
    const pipelineScores: number[] = [];
    for (const h of hits) {
      const id = unitId(units[h.doc]);
      if (seen.has(id)) continue;
      seen.add(id);
      docs.push(h.doc);
      ids.push(id);
      pipelineScores.push(h.score);
      if (docs.length >= this.depth) break;
    }
    const otherFiles = this.otherFiles(scores, functionless, docs);
    const n = docs.length;
    const x = new Float32Array(n * F);
    const paths = docs.map((d) => units[d].path);
    const modules = docs.map((d) => moduleIdOf(units[d].path, units[d].qualifiedName));

    // lexical scores
    const fnTerms = this.fnScorer.prepare(query);
    const fileTerms = this.fileScorer.prepare(query);
    const codeQuery = codeTermsOf(issue.text, this.codeIndex.settings.stem);
    const fnCode = this.fnScorer.prepare(codeQuery);
    const fileCode = this.fileScorer.prepare(codeQuery);
    const titleQuery = queryTermsOf(titleOf(issue.text), { stem: this.codeIndex.settings.stem, titleWeight: 0 });
    const fnTitle = this.fnScorer.prepare(titleQuery);
    const fileTitle = this.fileScorer.prepare(titleQuery);
    const buf = new Float64Array(1 + Math.max(this.fnScorer.fields, this.fileScorer.fields));
    const fileScore = new Map<number, [number, number, number]>();
    const fileRank = new Map<string, number>();
    const perFile = new Map<string, number>();
    const perModule = new Map<string, number>();
    const moduleBest = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const d = docs[i];
      const row = i * F;
      x[row + col.pipeline] = pipelineScores[i];
      x[row + col.pipelineRank] = 1 / Math.log2(2 + i);
      this.fnScorer.score(d, fnTerms, buf);
      x[row + col.bm25f] = buf[0];
      x[row + col.bm25Path] = this.fieldAt.path >= 0 ? buf[1 + this.fieldAt.path] : 0;
      x[row + col.bm25Name] = this.fieldAt.name >= 0 ? buf[1 + this.fieldAt.name] : 0;
      x[row + col.bm25Body] = this.fieldAt.body >= 0 ? buf[1 + this.fieldAt.body] : 0;
      if (fnCode.length > 0) {
        this.fnScorer.score(d, fnCode, buf);
        x[row + col.bm25Code] = buf[0];
      }
      if (fnTitle.length > 0) {
        this.fnScorer.score(d, fnTitle, buf);
        x[row + col.titleBm25] = buf[0];
        x[row + col.titleName] = this.fieldAt.name >= 0 ? buf[1 + this.fieldAt.name] : 0;
        x[row + col.titlePath] = this.fieldAt.path >= 0 ? buf[1 + this.fieldAt.path] : 0;
      }
      const f = fileOfUnit[d];
      let fs = fileScore.get(f);
      if (fs === undefined) {
        fs = [this.fileDocScore(f, fileTerms, buf), this.fileDocScore(f, fileCode, buf), this.fileDocScore(f, fileTitle, buf)];
        fileScore.set(f, fs);
      }
      x[row + col.fileBm25f] = fs[0];
      x[row + col.fileBm25Code] = fs[1];
      x[row + col.fileTitleBm25] = fs[2];
      if (!fileRank.has(paths[i])) fileRank.set(paths[i], fileRank.size + 1);
      x[row + col.fileRank] = 1 / Math.log2(1 + fileRank.get(paths[i])!);
      const inFile = (perFile.get(paths[i]) ?? 0) + 1;
      perFile.set(paths[i], inFile);
      x[row + col.withinFileRank] = 1 / Math.log2(1 + inFile);
      perModule.set(modules[i], (perModule.get(modules[i]) ?? 0) + 1);
      if (!moduleBest.has(modules[i])) moduleBest.set(modules[i], pipelineScores[i]);
    }
    // signals
    // the pipeline's reasons name every signal when all of its signal weights are on
    let reasons = this.allSignalsOn ? pipelineReasons : undefined;
    let evidence = this.allSignalsOn ? pipelineEvidence : undefined;
    if (!reasons || !evidence) {
      this.resolver ??= new SignalResolver(this.codeIndex);
      ({ reasons, evidence } = this.resolver.boosts(signals, ALL_SIGNALS));
    }
    const candidateSignals = new Map<number, SignalName[]>();
    const candidateEvidence = new Map<number, string[]>();
    // shape, names, history
    const queryTokens = new Set(query.keys());
    const words = wordsOf(issue.text);
    const titleWords = wordsOf(titleOf(issue.text));
    const calls = this.callLinks(docs, pipelineScores);
    for (let i = 0; i < n; i++) {
      const d = docs[i];
      const row = i * F;
      const why = reasons.get(d);
      if (why) {
        candidateSignals.set(i, why);
        candidateEvidence.set(i, evidence.get(d)!);
        for (const s of why) x[row + col[s]] = 1;
      }
      const path = paths[i];
      x[row + col.fileCandidates] = Math.log1p(perFile.get(path)!);
      x[row + col.moduleCandidates] = Math.log1p(perModule.get(modules[i])!);
      x[row + col.moduleBest] = moduleBest.get(modules[i])!;
      x[row + col.calledByTop] = pipelineScores[0] > 0 ? calls.calledBy[i] / pipelineScores[0] : 0;
      x[row + col.callsTop] = pipelineScores[0] > 0 ? calls.calls[i] / pipelineScores[0] : 0;
      x[row + col.calledByCount] = Math.log1p(calls.calledByCount[i]) / Math.log(11);
      const fileShape = this.fileShape(fileOfUnit[d]);
      const unitShape = this.unitShape(d);
      x[row + col.nameCoverage] = coverage(unitShape.nameTokens, queryTokens);
      x[row + col.fileNameCoverage] = coverage(fileShape.nameTokens, queryTokens);
      x[row + col.nameInText] = unitShape.name.length >= 3 && words.has(unitShape.name) ? 1 : 0;
      x[row + col.classInText] = unitShape.className.length >= 3 && words.has(unitShape.className) ? 1 : 0;
      x[row + col.nameInTitle] = unitShape.name.length >= 3 && titleWords.has(unitShape.name) ? 1 : 0;
      x[row + col.classInTitle] = unitShape.className.length >= 3 && titleWords.has(unitShape.className) ? 1 : 0;
      const h = history.files?.get(path);
      if (h) {
        x[row + col.fixes] = Math.log1p(h.fixes);
        x[row + col.fixRecency] = h.fixRecency;
        x[row + col.fixWeighted] = h.fixWeighted;
        x[row + col.changes] = Math.log1p(h.changes);
        x[row + col.changeRecency] = h.changeRecency;
      }
      x[row + col.messageSim] = history.messageScores?.get(path) ?? 0;
      x[row + col.similarIssues] = history.similarIssues?.get(path) ?? 0;
      x[row + col.length] = unitShape.length;
      x[row + col.depth] = fileShape.depth;
      x[row + col.isTest] = fileShape.isTest;
      x[row + col.isInit] = fileShape.isInit;
      x[row + col.notFunction] = unitShape.notFunction;
      x[row + col.isDunder] = unitShape.isDunder;
      x[row + col.isPrivate] = unitShape.isPrivate;
    }
    for (const c of ['pipeline', 'bm25f', 'bm25Path', 'bm25Name', 'bm25Body', 'bm25Code', 'titleBm25', 'titleName', 'titlePath', 'fileBm25f', 'fileBm25Code', 'fileTitleBm25',
      'fileCandidates', 'moduleBest', 'moduleCandidates',
      'fixes', 'fixWeighted', 'changes', 'messageSim', 'similarIssues'] as const) normaliseColumn(x, n, col[c]);
    return {
      query, docs: Int32Array.from(docs), ids, paths, modules,
      pipelineScores: Float32Array.from(pipelineScores), features: x, signals: candidateSignals, evidence: candidateEvidence, otherFiles,
    };
  }

  /**
   * The best files by pipeline score (a file's best function, or its own score when it has no
   * function) that hold none of the candidates: one pass over the scores, O(documents).
   */
  private otherFiles(scores: Float32Array, functionless: readonly ScoredFile[], candidates: readonly number[]): ScoredFile[] {
    const { fileOfUnit, filePaths } = this.codeIndex;
    const best = (this.fileBest ??= new Float32Array(filePaths.length));
    best.fill(0);
    for (let d = 0; d < scores.length; d++) if (scores[d] > best[fileOfUnit[d]]) best[fileOfUnit[d]] = scores[d];
    const bare = new Map<number, ScoredFile>();
    for (const s of functionless) {
      best[s.file] = s.score;
      bare.set(s.file, s);
    }
    for (const d of candidates) best[fileOfUnit[d]] = 0;
    return topK(best, OTHER_FILES).filter((h) => h.score > 0).map((h) => {
      const b = bare.get(h.doc);
      return b?.signals ? { file: h.doc, score: h.score, signals: b.signals, evidence: b.evidence } : { file: h.doc, score: h.score };
    });
  }

  private fileDocScore(file: number, terms: readonly PreparedTerm[], buf: Float64Array): number {
    if (terms.length === 0) return 0;
    this.fileScorer.score(file, terms, buf);
    return buf[0];
  }

  /**
   * For each candidate: the best pipeline score among the top 10 candidates whose body field
   * holds its name token (calledBy), and among the top 10 whose name token its body holds
   * (calls), and how many of the top 10 hold its name (calledByCount). Binary searches in the
   * name tokens' postings: O(candidates × 10 × log postings).
   */
  private callLinks(docs: readonly number[], pipelineScores: readonly number[]): { calledBy: Float32Array; calls: Float32Array; calledByCount: Uint8Array } {
    const n = docs.length;
    const calledBy = new Float32Array(n);
    const calledByCount = new Uint8Array(n);
    const calls = new Float32Array(n);
    const top = Math.min(10, n);
    const nameTerm = docs.map((d) => this.unitShape(d).nameTerm);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < top; k++) {
        if (k === i) continue;
        if (nameTerm[i] >= 0 && this.bodyHas(docs[k], nameTerm[i])) {
          calledByCount[i]++;
          if (pipelineScores[k] > calledBy[i]) calledBy[i] = pipelineScores[k];
        }
        if (nameTerm[k] >= 0 && pipelineScores[k] > calls[i] && this.bodyHas(docs[i], nameTerm[k])) calls[i] = pipelineScores[k];
      }
    }
    return { calledBy, calls, calledByCount };
  }

  /** Whether the body field of function-level document `doc` holds term `t`. */
  private bodyHas(doc: number, t: number): boolean {
    const { postingStart, postingDoc, postingTf, fieldNames } = this.codeIndex.index;
    const F = fieldNames.length;
    const body = this.fieldAt.body;
    if (body < 0) return false;
    let lo = postingStart[t], hi = postingStart[t + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const d = postingDoc[mid];
      if (d === doc) return postingTf[mid * F + body] > 0;
      if (d < doc) lo = mid + 1; else hi = mid - 1;
    }
    return false;
  }

  /** Path features of file-level document `f` (computed once per extractor). */
  private fileShape(f: number): FileShape {
    let shape = this.fileShapes[f];
    if (!shape) {
      const path = this.codeIndex.filePaths[f];
      const base = fileStem(path);
      shape = this.fileShapes[f] = {
        depth: Math.min(1, (path.split('/').length - 1) / 10),
        isTest: isTestPath(path) ? 1 : 0,
        isInit: base === '__init__' || base === 'index' || base === 'mod' ? 1 : 0,
        nameTokens: [...new Set(tokenize(base, { stem: this.codeIndex.settings.stem }))],
      };
    }
    return shape;
  }

  /** Name and size features of function-level document `d` (computed once per extractor). */
  private unitShape(d: number): UnitShape {
    let shape = this.unitShapes[d];
    if (!shape) {
      const u = this.codeIndex.units[d];
      const name = lastNamePart(u.qualifiedName);
      const dunder = /^__\w+__$/.test(name);
      shape = this.unitShapes[d] = {
        length: Math.min(1, Math.log1p(Math.max(0, u.endLine - u.startLine + 1)) / Math.log(1000)),
        notFunction: u.kind === 'function' ? 0 : 1,
        isDunder: dunder ? 1 : 0,
        isPrivate: name.startsWith('_') && !dunder ? 1 : 0,
        nameTokens: name ? [...new Set(tokenize(name, { stem: this.codeIndex.settings.stem }))] : [],
        name,
        className: u.qualifiedName.includes('.') ? u.qualifiedName.slice(0, u.qualifiedName.indexOf('.')) : '',
        nameTerm: -1,
      };
      const whole = name.length >= 3 ? tokenize(name, { stem: this.codeIndex.settings.stem })[0] : undefined;
      if (whole !== undefined) shape.nameTerm = this.codeIndex.index.termIds.get(whole) ?? -1;
    }
    return shape;
  }
}

interface FileShape { depth: number; isTest: number; isInit: number; nameTokens: string[] }
interface UnitShape {
  length: number; notFunction: number; isDunder: number; isPrivate: number; nameTokens: string[];
  /** Own name and top-level class name ('' when none). */
  name: string; className: string;
  /** Term id of the name's whole-identifier token in the function-level index (−1: none). */
  nameTerm: number;
}

/** An issue as the extractor reads it. */
export interface IssueQuery {
  /** What the issue names in code (`extractIssueSignals`). */
  signals: IssueSignals;
  /** The issue text (title and body), for names written in it. */
  text: string;
}

/**
 * The code identifiers of an issue text as a query: each word written like code (with `_`
 * inside, an inner capital, or letters and digits) as its whole-identifier token, counted.
 */
function codeTermsOf(text: string, stem: boolean): Map<string, number> {
  const q = new Map<string, number>();
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const w = m[0];
    if (!/[a-z0-9]_[a-zA-Z0-9]|[a-z][A-Z]|[A-Za-z][0-9]/.test(w)) continue;
    const toks = tokenize(w, { stem });
    if (toks.length > 0) q.set(toks[0], (q.get(toks[0]) ?? 0) + 1);
  }
  return q;
}

/** The identifier-like words of a text (case kept); linear in its length. */
function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) out.add(m[0]);
  return out;
}

/** Share of `tokens` that occur in the query (0 for none). */
function coverage(tokens: readonly string[], queryTokens: ReadonlySet<string>): number {
  if (tokens.length === 0) return 0;
  let hit = 0;
  for (const t of tokens) if (queryTokens.has(t)) hit++;
  return hit / tokens.length;
}

/** Divides column `c` of an n-row matrix by its largest value (leaves it when that is ≤ 0). */
function normaliseColumn(x: Float32Array, n: number, c: number): void {
  let m = 0;
  for (let i = 0; i < n; i++) if (x[i * F + c] > m) m = x[i * F + c];
  if (m <= 0) return;
  for (let i = 0; i < n; i++) x[i * F + c] /= m;
}


