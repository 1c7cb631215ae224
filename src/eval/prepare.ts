/**
 * Checks dataset records against the repository before evaluation and turns them into issues to
 * evaluate. A record naming a commit the repository lacks, or a positive file absent from its
 * a-priori state, is skipped with its reason (bad input is reported and counted, never fatal).
 * Positives that exist but are not candidate files (not source code, or a test file with tests
 * excluded) cannot be ranked: they are dropped from the issue's positives and counted.
 */
import type { DatasetRecord } from '../dataset/record.js';
import { countIdentifiers } from '../text/issue-signals.js';
import { issueQueryText, type IssueTextOptions } from './issue-text.js';
import { candidateFileFilter } from '../dataset/source-files.js';
import type { GitRepo } from '../repo/git.js';
import { commitInfo, stateFiles } from './state-files.js';

/** An issue ready for evaluation. */
export interface PreparedIssue {
  readonly id: string;
  /** The repository the issue is evaluated in. */
  readonly repoPath: string;
  readonly type: string;
  readonly category: string;
  /** Full SHA of the a-priori commit. */
  readonly aprioriCommit: string;
  /** Committer time (Unix seconds) of the a-priori commit. */
  readonly aprioriTime: number;
  /** Committer time of the first linked commit (the split key); the a-priori time when the record has none. */
  readonly firstCommitTime: number;
  /** Positives that are candidate files (the qrels). */
  readonly positives: readonly string[];
  /** Positives that exist but are not candidate files. */
  readonly droppedPositives: readonly string[];
  /** Candidate files at the a-priori state (before binary/missing blobs are left out). */
  readonly candidates: number;
  /** The query text (title and cleaned body). */
  readonly queryText: string;
  /** Identifier occurrences in the query text (four patterns of the method notes). */
  readonly identifiers: number;
  /** File-name occurrences with a code extension in the query text. */
  readonly fileNames: number;
}

/** A record that was not evaluated, and why. */
export interface SkippedRecord {
  readonly id: string;
  readonly reason: string;
}

/** Options of {@link prepareIssues}. */
export interface PrepareOptions {
  /** The path of `repo` (recorded in each issue). */
  readonly repoPath: string;
  readonly includeTests: boolean;
  readonly issueText: IssueTextOptions;
  /** Called after each record: (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Validates records (see the module comment) and prepares the rest.
 * @param seen issue ids already taken (by records of other repositories); updated.
 * @returns issues in input order and the skipped records with reasons.
 */
export async function prepareIssues(
  records: readonly DatasetRecord[], repo: GitRepo, options: PrepareOptions, seen = new Set<string>(),
): Promise<{ issues: PreparedIssue[]; skipped: SkippedRecord[] }> {
  const issues: PreparedIssue[] = [];
  const skipped: SkippedRecord[] = [];
  const isCandidate = candidateFileFilter(options.includeTests);
  let done = 0;
  for (const r of records) {
    options.onProgress?.(done++, records.length);
    const id = r.issue.id;
    const skip = (reason: string) => skipped.push({ id, reason });
    if (seen.has(id)) {
      skip('issue id appears twice in the dataset (first record kept)');
      continue;
    }
    seen.add(id);
    if (typeof r.aprioriCommit !== 'string' || r.aprioriCommit === '') {
      skip('record has no a-priori commit');
      continue;
    }
    const apriori = await commitInfo(repo, r.aprioriCommit);
    if (!apriori) {
      skip(`a-priori commit ${r.aprioriCommit} is not in the repository`);
      continue;
    }
    let firstTime = apriori.committerTime;
    const commits = Array.isArray(r.commits) ? r.commits : [];
    if (commits.length > 0) {
      const first = await commitInfo(repo, commits[0]);
      if (!first) {
        skip(`linked commit ${commits[0]} is not in the repository`);
        continue;
      }
      firstTime = first.committerTime;
    }
    const files = await stateFiles(repo, apriori);
    const paths = new Set(files.map((f) => f.path));
    const absent = r.positives.filter((p) => !paths.has(p));
    if (absent.length > 0) {
      skip(`positive file ${absent[0]}${absent.length > 1 ? ` (and ${absent.length - 1} more)` : ''} does not exist at the a-priori state ${apriori.sha.slice(0, 12)}`);
      continue;
    }
    let queryText: string;
    try {
      queryText = issueQueryText(r.issue, options.issueText);
    } catch (e) {
      skip(`issue text: ${(e as Error).message}`);
      continue;
    }
    const positives = [...new Set(r.positives)];
    const counts = countIdentifiers(queryText);
    let candidates = 0;
    for (const f of files) if (isCandidate(f.path)) candidates++;
    issues.push({
      id,
      repoPath: options.repoPath,
      type: typeof r.issue.type === 'string' ? r.issue.type : '',
      category: typeof r.issue.category === 'string' ? r.issue.category : 'Other',
      aprioriCommit: apriori.sha,
      aprioriTime: apriori.committerTime,
      firstCommitTime: firstTime,
      positives: positives.filter((p) => isCandidate(p)),
      droppedPositives: positives.filter((p) => !isCandidate(p)),
      candidates,
      queryText,
      identifiers: counts.total,
      fileNames: counts.fileNames,
    });
  }
  options.onProgress?.(records.length, records.length);
  return { issues, skipped };
}
