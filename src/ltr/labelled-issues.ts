/**
 * Walks labelled issues repository by repository: opens each repository once, reads its history
 * once for all its base commits, loads (or builds and caches) the code index of each base commit,
 * and hands every issue with its index, the issue read once (`parseIssue`) and its evidence to a
 * visitor. Shared by
 * `issueloc train` and the benchmark scripts.
 */
import { join } from 'node:path';
import type { CodeIndex, IndexSettings } from '../index/code-index.js';
import { withCodeIndex } from '../index/index-commit.js';
import { GitRepo } from '../repo/git.js';
import { mirrorPath } from '../repo/mirrors.js';
import { modulesOf } from '../dataset/function-positives.js';
import type { DatasetRecord } from '../dataset/record.js';
import { parseIssue, type ParsedIssue } from '../text/parsed-issue.js';
import { openCodeGraph } from '../graph/open-graph.js';
import type { CodeGraph } from '../graph/code-graph.js';
import { RepoHistory } from '../history/repo-history.js';
import { historyFieldScores } from '../history/history-field.js';
import type { SimilarIssues } from '../history/similar-issues.js';
import type { HistoryEvidence } from './features/evidence.js';
import type { Level } from './objective.js';

/** An issue with its base commit and gold items at the three levels. */
export interface LabelledIssue {
  id: string;
  /** GitHub `owner/name` (finds the mirror and names the cache folder). */
  repo: string;
  /** The a-priori state (full SHA or any revision). */
  commit: string;
  /** The query text: title and raw body. */
  text: string;
  /** Report time, ms since the epoch (NaN when unknown). */
  created: number;
  gold: Record<Level, string[]>;
  /** Repository folder when known (else found under the mirrors folder). */
  repoPath?: string;
}

/** A dataset record as a labelled issue (query text = title + raw body). */
export function labelledIssueOf(r: DatasetRecord): LabelledIssue {
  return {
    id: r.issue.id,
    repo: r.repo ?? '',
    commit: r.aprioriCommit,
    text: r.issue.bodyRaw ? `${r.issue.title}\n${r.issue.bodyRaw}` : r.issue.title,
    created: r.issue.created ? Date.parse(r.issue.created) : NaN,
    gold: { function: r.positiveFunctions, module: r.positiveModules ?? modulesOf(r.positiveFunctions), file: r.positives },
    repoPath: typeof r.provenance.repoPath === 'string' ? r.provenance.repoPath : undefined,
  };
}

/** Options of {@link forEachIssue}. */
export interface IssueLoopOptions {
  /** Folder of fetched mirrors (`OWNER+NAME/repo`, `swe-bench+OWNER__NAME/repo`). */
  repoRoot: string;
  /** Root of the caches: index and history of `owner/name` go to `<cacheRoot>/owner+name`. */
  cacheRoot: string;
  indexSettings?: Partial<IndexSettings>;
  /** Read git history for history features (default true). */
  history?: boolean;
  /** SimiScore over a dataset of earlier issues (per repository `owner/name`). */
  similarIssues?: (repo: string) => SimilarIssues | undefined;
  /** Called for an issue that cannot be visited (repository or commit missing), with the reason. */
  onSkip?: (issue: LabelledIssue, reason: string) => void;
  /** Called after each visited issue: (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** What the visitor gets for one issue. */
export interface IssueContext {
  issue: LabelledIssue;
  /** The issue's repository, open while the visit runs. */
  repo: GitRepo;
  /** Full SHA of the base commit. */
  commit: string;
  codeIndex: CodeIndex;
  /** true when the index was built now (not loaded from the cache). */
  built: boolean;
  /** Milliseconds spent loading or building the index. */
  indexMillis: number;
  /** The issue's text read once: signals, tokens, query terms (src/text/parsed-issue.ts). */
  parsed: ParsedIssue;
  /** The repository's history (absent when history is off). */
  repoHistory?: RepoHistory;
  /** History evidence at the base commit (computed on first call). */
  history: () => HistoryEvidence;
  /** The code graph of the base commit (src/graph/: cached beside the index; opened on first call). */
  graph: () => Promise<CodeGraph>;
}

/**
 * Visits every issue whose repository and base commit are available, repository by repository,
 * in the order issues first name their repository. A visit that meets a corrupt block of a loaded
 * index runs once more on the rebuilt index (`withCodeIndex`): a visit must be safe to run twice.
 */
export async function forEachIssue(
  issues: readonly LabelledIssue[],
  opts: IssueLoopOptions,
  visit: (ctx: IssueContext) => void | Promise<void>,
): Promise<void> {
  const byRepo = new Map<string, LabelledIssue[]>();
  for (const i of issues) {
    const list = byRepo.get(i.repo);
    if (list) list.push(i);
    else byRepo.set(i.repo, [i]);
  }
  let done = 0;
  for (const [name, list] of byRepo) {
    const path = list[0].repoPath ?? mirrorPath(opts.repoRoot, name);
    if (!path) {
      for (const i of list) opts.onSkip?.(i, `repository ${name} not found under ${opts.repoRoot}`);
      continue;
    }
    const repo = await GitRepo.open(path);
    try {
      const cacheDir = join(opts.cacheRoot, name.replace('/', '+'));
      const commits = new Map<LabelledIssue, string>();
      for (const i of list) {
        try {
          commits.set(i, await repo.resolveCommit(i.commit));
        } catch {
          opts.onSkip?.(i, `base commit ${i.commit} missing in ${path}`);
        }
      }
      const history = opts.history === false || commits.size === 0
        ? undefined
        : await RepoHistory.open(repo.gitDir, [...new Set(commits.values())], { cacheDir });
      const similar = opts.similarIssues?.(name);
      for (const [issue, commit] of commits) {
        const t0 = performance.now();
        let evidence: HistoryEvidence | undefined;
        const parsed = parseIssue(issue.text);
        await withCodeIndex(repo, commit, { cacheDir, settings: opts.indexSettings }, async ({ codeIndex, built }) => {
          const indexMillis = performance.now() - t0;
          let graph: Promise<CodeGraph> | undefined;
          await visit({
            issue, repo, commit, codeIndex, built, indexMillis, parsed,
            repoHistory: history,
            history: () => (evidence ??= {
              files: history?.at(commit).files,
              messageScores: history?.messageScores(commit, parsed),
              fieldScores: history && historyFieldScores(history, commit, parsed),
              similarIssues: similar?.scores(parsed, issue.created),
            }),
            graph: () => (graph ??= openCodeGraph(repo, codeIndex, cacheDir).then((g) => g.graph)),
          });
        });
        opts.onProgress?.(++done, issues.length);
      }
    } finally {
      await repo.close();
    }
  }
}
