/**
 * History features of a candidate function's file at the base commit (src/history/; every
 * statistic over the base commit's ancestors, or earlier issues, alone). Missing evidence gives 0.
 */
import type { FileHistory } from '../../history/file-history.js';
import type { HistoryEvidence } from './evidence.js';
import type { CandidateContext, FeatureGroup, FeatureSpec } from './group.js';

/** The history group's record of a candidate (its file's evidence). */
export interface HistoryRow {
  file: FileHistory | undefined;
  /** SimiScore over earlier commit messages, and over earlier issues (0: none). */
  messages: number; issues: number;
  /** BM25 of the issue against the file's history field (0: none). */
  field: number;
}

const features = {
  fixes: { doc: 'ln(1 + commits fixing the file) (bug-fixing frequency, Ye et al. 2014 f6)', normalise: 'max', value: (r) => (r.file ? Math.log1p(r.file.fixes) : 0) },
  fixRecency: { doc: "recency of the file's last fix, 1 / (months since + 1) (Ye et al. 2014 f5)", normalise: 'none', value: (r) => r.file?.fixRecency ?? 0 },
  fixWeighted: { doc: 'time-weighted fix score of Lewis et al. (2013)', normalise: 'max', value: (r) => r.file?.fixWeighted ?? 0 },
  changes: { doc: 'ln(1 + commits changing the file)', normalise: 'max', value: (r) => (r.file ? Math.log1p(r.file.changes) : 0) },
  changeRecency: { doc: "recency of the file's last change, as `fixRecency`", normalise: 'none', value: (r) => r.file?.changeRecency ?? 0 },
  messageSim: { doc: 'SimiScore (Zhou, Zhang & Lo 2012) over earlier commit messages', normalise: 'max', value: (r) => r.messages },
  historyField: { doc: 'BM25 of the issue against the messages of the 20 latest earlier commits that changed the file (history-expanded document)', normalise: 'max', value: (r) => r.field },
  similarIssues: { doc: "SimiScore over a dataset's earlier issues (Ye et al. 2014 f3)", normalise: 'max', value: (r) => r.issues },
} satisfies Record<string, FeatureSpec<HistoryRow>>;

/** The features of the file-history part of the evidence (`HistoryEvidence.files`). */
const FILE_HISTORY_FEATURES = ['fixes', 'fixRecency', 'fixWeighted', 'changes', 'changeRecency'] as const satisfies readonly (keyof typeof features)[];

/**
 * Which parts of a query's history evidence (src/ltr/features/evidence.ts `HistoryEvidence`) the features
 * `reads` (a model's `reads`) depend on: a part no read feature uses need not be computed.
 */
export function historyEvidenceRead(reads: ReadonlySet<string>): Record<keyof HistoryEvidence, boolean> {
  return {
    files: FILE_HISTORY_FEATURES.some((f) => reads.has(f)),
    messageScores: reads.has('messageSim'),
    fieldScores: reads.has('historyField'),
    similarIssues: reads.has('similarIssues'),
  };
}

export const historyGroup: FeatureGroup<HistoryRow, keyof typeof features> = {
  name: 'history',
  features,
  prepare(ctx: CandidateContext) {
    const { paths, history, fileSlot } = ctx;
    // the evidence of each candidate's file, looked up once per file (in slot order: the path of
    // the file's first candidate)
    const F = ctx.files.length;
    const files: (FileHistory | undefined)[] = new Array<FileHistory | undefined>(F).fill(undefined);
    const messages = new Float64Array(F);
    const issues = new Float64Array(F);
    const fields = new Float64Array(F);
    for (let i = 0, next = 0; i < fileSlot.length && next < F; i++) {
      const k = fileSlot[i];
      if (k !== next) continue;
      next++;
      const path = paths[i];
      files[k] = history.files?.get(path);
      messages[k] = history.messageScores?.get(path) ?? 0;
      issues[k] = history.similarIssues?.get(path) ?? 0;
      fields[k] = history.fieldScores?.get(path) ?? 0;
    }
    const row: HistoryRow = { file: undefined, messages: 0, issues: 0, field: 0 };
    return (i) => {
      const k = fileSlot[i];
      row.file = files[k];
      row.messages = messages[k];
      row.issues = issues[k];
      row.field = fields[k];
      return row;
    };
  },
};
