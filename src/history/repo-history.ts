/**
 * History signals of one repository, ready for queries: per-file fix/change history at a base
 * commit ({@link fileHistoryAt}) and the files changed by earlier commits whose messages resemble
 * the issue (SimiScore over commit messages, which stand in for earlier bug reports when no
 * dataset of them is given).
 */
import type { ParsedIssue } from '../text/parsed-issue.js';
import { fileHistoryAt, type HistoryAt } from './file-history.js';
import { HistoryLog } from './history-log.js';
import { CosineIndex, simiScore, type Collection } from './similarity.js';

/** Commits changing more files than this count for nothing, by default. */
export const DEFAULT_MAX_FILES = 100;
/** Similar commit messages summed by {@link RepoHistory.messageScores}, by default. */
export const DEFAULT_SIMILAR_COMMITS = 50;

/** Options of {@link RepoHistory}. */
export interface RepoHistoryOptions {
  /** Folder of the on-disk history cache (see {@link HistoryLog.load}). */
  cacheDir?: string;
  /** Progress of reading commits from git (see {@link HistoryLog.load}). */
  onProgress?: (done: number, total: number) => void;
  /** Commits changing more files than this count for nothing (default 100). */
  maxFiles?: number;
  /** Similar commit messages summed by {@link RepoHistory.messageScores} (default 50). */
  similarCommits?: number;
}

/** What a base commit's queries need: its file history and the statistics of its commit messages. */
interface CommitView extends HistoryAt {
  /** Made on the first message query. */
  messages?: {
    /** The messages of the base commit's ancestors (positions in the message index). */
    collection: Collection;
    /** Ancestors whose messages can match: those that changed 1 … maxFiles files. */
    canMatch: Uint8Array;
  };
}

/**
 * History signals of a repository. Every statistic at a base commit is computed over the
 * commits it can see, its ancestors, and nothing else the log may hold (later commits, other
 * branches, commits of earlier reads), in an order fixed by the commits themselves: a query's
 * signals are a function of (repository, base commit, issue text, options). Per base commit the
 * file history and the message statistics are computed once and kept (the last 4 commits); the
 * message index is built once per instance, on the first message query.
 */
export class RepoHistory {
  private readonly memo = new Map<string, CommitView>();
  private messages: CosineIndex | undefined;
  private readonly maxFiles: number;
  private readonly similarCommits: number;

  constructor(readonly log: HistoryLog, opts: RepoHistoryOptions = {}) {
    this.maxFiles = opts.maxFiles ?? DEFAULT_MAX_FILES;
    this.similarCommits = opts.similarCommits ?? DEFAULT_SIMILAR_COMMITS;
  }

  /**
   * Opens the history of `repoPath` covering `commits` (full SHAs), from the cache when possible.
   * @throws IssuelocError when git cannot read the history.
   */
  static async open(repoPath: string, commits: readonly string[], opts: RepoHistoryOptions = {}): Promise<RepoHistory> {
    return new RepoHistory(await HistoryLog.load(repoPath, commits, { cacheDir: opts.cacheDir, onProgress: opts.onProgress }), opts);
  }

  /**
   * Per-file history at `commit`.
   * @throws IssuelocError when `commit` is not in the log.
   */
  at(commit: string): HistoryAt {
    return this.viewAt(commit);
  }

  private viewAt(commit: string): CommitView {
    let v = this.memo.get(commit);
    if (!v) {
      v = fileHistoryAt(this.log, commit, this.maxFiles);
      if (this.memo.size >= 4) this.memo.delete(this.memo.keys().next().value!);
      this.memo.set(commit, v);
    }
    return v;
  }

  /** The message index: document k is the message of commit canonicalOrder()[k]. Built on first use. */
  private messageIndex(): CosineIndex {
    return (this.messages ??= new CosineIndex(Array.from(this.log.canonicalOrder(), (i) => this.log.wordsOf(i))));
  }

  private messagesAt(commit: string): NonNullable<CommitView['messages']> {
    const view = this.viewAt(commit);
    if (!view.messages) {
      const order = this.log.canonicalOrder();
      const members = new Uint8Array(order.length);
      const canMatch = new Uint8Array(order.length);
      order.forEach((i, k) => {
        if (view.ancestors[i] === 0) return;
        members[k] = 1;
        const n = this.log.filesOf(i).length;
        if (n > 0 && n <= this.maxFiles) canMatch[k] = 1;
      });
      view.messages = { collection: this.messageIndex().collection(members), canMatch };
    }
    return view.messages;
  }

  /**
   * SimiScore (Zhou et al. 2012, Eq. 7) over the messages of the commits before `commit`: the
   * `similarCommits` messages most similar to the issue's tokens, each sharing its cosine among the
   * files it changed. Term weights (idf) are those of the messages of `commit`'s ancestors (every
   * ancestor counts in N and df, as a history read at `commit` alone would give); only ancestors
   * that changed 1 … maxFiles files can match. Issue words found in more than 5% of those
   * messages (and more than 100) are skipped (small idf, long postings: this keeps a query on
   * 60k commits at about a millisecond).
   * @returns path → score (absent = 0).
   * @throws IssuelocError when `commit` is not in the log.
   */
  messageScores(commit: string, issue: ParsedIssue): Map<string, number> {
    const { collection, canMatch } = this.messagesAt(commit);
    const hits = this.messageIndex().similar(issue.tokens(false), this.similarCommits, {
      within: collection, allowed: canMatch, maxDf: Math.max(100, 0.05 * collection.size),
    });
    const order = this.log.canonicalOrder();
    const paths = this.log.paths;
    return simiScore(hits, (k) => this.log.filesOf(order[k]).map((f) => paths[f]));
  }
}
