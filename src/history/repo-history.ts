/**
 * History signals of one repository, ready for queries: per-file fix/change history at a base
 * commit ({@link fileHistoryAt}) and the files changed by earlier commits whose messages resemble
 * the issue (SimiScore over commit messages, which stand in for earlier bug reports when no
 * dataset of them is given).
 */
import { tokenize } from '../text/tokenize.js';
import { fileHistoryAt, type HistoryAt } from './file-history.js';
import { HistoryLog } from './history-log.js';
import { CosineIndex, simiScore } from './similarity.js';

/** Options of {@link RepoHistory}. */
export interface RepoHistoryOptions {
  /** Folder of the on-disk history cache (see {@link HistoryLog.load}). */
  cacheDir?: string;
  /** Commits changing more files than this count for nothing (default 100). */
  maxFiles?: number;
  /** Similar commit messages summed by {@link RepoHistory.messageScores} (default 50). */
  similarCommits?: number;
}

/**
 * History signals of a repository. Per base commit the file history is computed once and kept
 * (the last 4 commits); the message index is built once per instance.
 */
export class RepoHistory {
  private readonly memo = new Map<string, HistoryAt & { messageMask: Uint8Array }>();
  private messages: CosineIndex | undefined;
  private readonly maxFiles: number;
  private readonly similarCommits: number;

  constructor(readonly log: HistoryLog, opts: RepoHistoryOptions = {}) {
    this.maxFiles = opts.maxFiles ?? 100;
    this.similarCommits = opts.similarCommits ?? 50;
  }

  /**
   * Opens the history of `repoPath` covering `commits` (full SHAs), from the cache when possible.
   * @throws IssuelocError when git cannot read the history.
   */
  static async open(repoPath: string, commits: readonly string[], opts: RepoHistoryOptions = {}): Promise<RepoHistory> {
    return new RepoHistory(await HistoryLog.load(repoPath, commits, { cacheDir: opts.cacheDir }), opts);
  }

  /**
   * Per-file history at `commit`.
   * @throws IssuelocError when `commit` is not in the log.
   */
  at(commit: string): HistoryAt {
    return this.memoAt(commit);
  }

  private memoAt(commit: string): HistoryAt & { messageMask: Uint8Array } {
    let h = this.memo.get(commit);
    if (!h) {
      const at = fileHistoryAt(this.log, commit, this.maxFiles);
      // commits whose messages count: ancestors that changed 1 … maxFiles files
      const messageMask = new Uint8Array(this.log.size);
      for (let i = 0; i < this.log.size; i++) {
        const n = this.log.filesOf(i).length;
        if (at.ancestors[i] === 1 && n > 0 && n <= this.maxFiles) messageMask[i] = 1;
      }
      h = { ...at, messageMask };
      if (this.memo.size >= 4) this.memo.delete(this.memo.keys().next().value!);
      this.memo.set(commit, h);
    }
    return h;
  }

  /**
   * SimiScore (Zhou et al. 2012, Eq. 7) over the messages of the commits before `commit`: the
   * `similarCommits` messages most similar to the issue text, each sharing its cosine among the
   * files it changed. Issue words found in more than 5% of the messages (and more than 100) are
   * skipped (small idf, long postings: this keeps a query on 60k commits at about a millisecond).
   * @returns path → score (absent = 0).
   */
  messageScores(commit: string, issueText: string): Map<string, number> {
    const { messageMask } = this.memoAt(commit);
    this.messages ??= new CosineIndex(Array.from({ length: this.log.size }, (_, i) => this.log.wordsOf(i)));
    const hits = this.messages.similar(tokenize(issueText), this.similarCommits, messageMask, Math.max(100, 0.05 * this.log.size));
    const paths = this.log.paths;
    return simiScore(hits, (i) => this.log.filesOf(i).map((f) => paths[f]));
  }
}
