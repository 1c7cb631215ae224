/**
 * What one query brings to the feature groups besides the index: the issue as the extractor reads
 * it and the history evidence of its base commit.
 */
import type { FileHistory } from '../../history/file-history.js';
import type { IssueSignals } from '../../text/issue-signals.js';

/** History evidence of one query (all optional: missing evidence gives 0 features). */
export interface HistoryEvidence {
  /** Per-file history at the base commit. */
  files?: ReadonlyMap<string, FileHistory>;
  /** SimiScore over earlier commit messages, per file. */
  messageScores?: ReadonlyMap<string, number>;
  /** BM25 of the issue against each file's history field (src/history/history-field.ts), per file. */
  fieldScores?: ReadonlyMap<string, number>;
  /** SimiScore over a dataset of earlier issues, per file. */
  similarIssues?: ReadonlyMap<string, number>;
}

/** An issue as the extractor reads it. */
export interface IssueQuery {
  /** What the issue names in code (`extractIssueSignals`). */
  signals: IssueSignals;
  /** The issue text (title and body), for names written in it. */
  text: string;
}
