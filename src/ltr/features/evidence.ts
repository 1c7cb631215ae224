/**
 * What one query brings to the feature groups besides the index and the parsed issue
 * (src/text/parsed-issue.ts): the history evidence of its base commit.
 */
import type { FileHistory } from '../../history/file-history.js';

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
