/**
 * What a feature group is: features computed together from one per-candidate record of the group
 * (the registry, src/ltr/features/registry.ts, lists the groups in column order).
 */
import type { CodeIndex } from '../../index/code-index.js';
import type { CodeGraph } from '../../graph/code-graph.js';
import type { QueryTerms } from '../../retrieve/bm25f.js';
import type { SignalName } from '../../retrieve/signals.js';
import type { DocFieldScorer } from '../doc-scores.js';
import type { ParsedIssue } from '../../text/parsed-issue.js';
import type { HistoryEvidence } from './evidence.js';
import type { CandidateShapes } from './shapes.js';

/**
 * How a feature's column is brought into [0, 1] after every candidate has its value:
 * - `max`: divided by the largest value among the query's candidates (left as is when that is ≤ 0);
 * - `none`: the value lies in [0, 1] by construction.
 */
export type Normalisation = 'max' | 'none';

/** One feature: its one-line doc, its normalisation and its value from its group's record `R`. */
export interface FeatureSpec<R> {
  /** One line (Markdown) saying what the value is, before normalisation; the docs table shows it. */
  doc: string;
  normalise: Normalisation;
  /** The raw value of a candidate (a finite number; 0 when its evidence is missing). */
  value(row: R): number;
}

/** What a group reads: the extractor's per-index tools and one query's candidates. */
export interface CandidateContext {
  codeIndex: CodeIndex;
  /** Single-document BM25F / per-field BM25 of the function-level and the file-level index. */
  fnScorer: DocFieldScorer;
  fileScorer: DocFieldScorer;
  /** Position of the path, name and body fields in the function-level index (−1 when absent). */
  fieldAt: Readonly<Record<'path' | 'name' | 'body', number>>;
  /** Per-index memo of the candidates' path and name shapes. */
  shapes: CandidateShapes;
  /** The issue, read once (src/text/parsed-issue.ts). */
  issue: ParsedIssue;
  /** The issue's query (`Localizer.queryOf`). */
  query: QueryTerms;
  /** The issue's code identifiers alone (src/ltr/features/issue-queries.ts), and its title alone (`ParsedIssue.titleTerms`), as queries. */
  codeQuery: QueryTerms;
  titleQuery: QueryTerms;
  /** Function-level document of each candidate, best first, with its path, module and pipeline score. */
  docs: readonly number[];
  paths: readonly string[];
  modules: readonly string[];
  /**
   * Per candidate, the slot of its file: the order of the file's first candidate, which is the
   * file's rank in the roll-up; `files[slot]` is that file-level document.
   */
  fileSlot: Int32Array;
  files: Int32Array;
  /** Per candidate, the slot of its module (the order of the module's first candidate), below `moduleCount`. */
  moduleSlot: Int32Array;
  moduleCount: number;
  pipelineScores: readonly number[];
  /** Issue-text signals that fired, per function-level document (every signal on). */
  reasons: ReadonlyMap<number, readonly SignalName[]>;
  history: HistoryEvidence;
  /** The code graph of the index's commit, when the caller opened one (src/graph/open-graph.ts). */
  graph?: CodeGraph;
  /** Whether the feature of that name is computed (its column read): a group may skip what only unread features need. */
  computes(feature: string): boolean;
}

/**
 * A group of features: `prepare` runs once per query and returns the group's record of candidate
 * i (called for i = 0, 1, … n − 1 in order); each feature's value is read from that record before
 * the next call, so a group may return one object, updated in place (no allocation per
 * candidate). `features` lists the group's features in column order.
 */
export interface FeatureGroup<R, N extends string = string> {
  /** Short name shown in the docs table. */
  name: string;
  features: Readonly<Record<N, FeatureSpec<R>>>;
  prepare(ctx: CandidateContext): (i: number) => R;
}
