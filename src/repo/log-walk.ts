/**
 * Streaming walk of a repository's history: one `git log --no-renames --topo-order -z
 * --name-status` process, parsed as it arrives; each commit is handed to the caller and then
 * forgotten except for its id, parents and time (kept in a compact {@link CommitGraph}).
 *
 * `--no-renames` matters: rename detection reads blobs, and repositories with missing blobs
 * (partial clones, snapshots without large files) make `git log --name-status` die with
 * `fatal: unable to read <sha>`; the tree diff without it reads trees only. A rename then shows as
 * a deletion plus an addition.
 */
import { IssuelocError } from '../errors.js';
import { GraphBuilder, type CommitGraph } from './commit-graph.js';
import { LOG_FORMAT, LogParser, type LogCommit } from './log-parse.js';
import { gitText, streamGit } from './git-process.js';

export type { LogCommit, PathChange } from './log-parse.js';
export type { CommitGraph, MergedBranch } from './commit-graph.js';

/** Options of {@link walkHistory}. */
export interface WalkOptions {
  /**
   * Revisions to walk from, as `git log` takes them (default `['HEAD']`; `['--all']` walks every
   * ref). Ranges (`A..B`) cut the history and make {@link walkHistory} fail on the cut parents.
   */
  revs?: readonly string[];
  /** Called once per commit, children before parents, with the commit's index in the graph. */
  onCommit?: (commit: LogCommit, index: number) => void;
  /** Progress: commits read so far and the total (from `git rev-list --count`). */
  onProgress?: (done: number, total: number) => void;
}

/** Result of {@link walkHistory}. */
export interface WalkResult {
  graph: CommitGraph;
  /** Full SHA each of `revs` resolved to (`--all` and other options are kept as given). */
  resolvedRevs: string[];
  /** Wall time of the walk, milliseconds. */
  millis: number;
}

/**
 * Checks that `repo` is a git repository with full history.
 *
 * @throws IssuelocError when it is not a repository or is a shallow clone.
 */
export async function assertFullRepository(repo: string): Promise<void> {
  let shallow: string;
  try {
    shallow = (await gitText(['-C', repo, 'rev-parse', '--is-shallow-repository'])).trim();
  } catch {
    throw new IssuelocError(`not a git repository: ${repo}`);
  }
  if (shallow === 'true') {
    throw new IssuelocError(`${repo} is a shallow clone: its history is cut, run \`git fetch --unshallow\` first`);
  }
}

/**
 * Resolves a revision to a full commit SHA.
 *
 * @throws IssuelocError `unknown revision '<rev>' in <repo>`.
 */
export async function resolveRevision(repo: string, rev: string): Promise<string> {
  try {
    // resolved first, then peeled: `REV^{commit}` would break `:/text` revisions (a commit message search)
    const sha = (await gitText(['-C', repo, 'rev-parse', '--verify', '--quiet', '--end-of-options', rev])).trim();
    return (await gitText(['-C', repo, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${sha}^{commit}`])).trim();
  } catch {
    throw new IssuelocError(`unknown revision '${rev}' in ${repo}`);
  }
}

/**
 * Streams `git log --no-renames --topo-order -z --name-status <revArgs> --` through a
 * {@link LogParser}: `onCommit` once per commit, children before parents, as git prints them.
 * @param revArgs revisions and options such as `--not <sha>…`, as `git log` takes them.
 * @throws IssuelocError when git fails (with git's message) or prints what the parser cannot read.
 */
export async function streamLog(repo: string, revArgs: readonly string[], onCommit: (c: LogCommit) => void): Promise<void> {
  const parser = new LogParser(onCommit);
  const args = [
    '-C', repo, '-c', 'log.showSignature=false',
    'log', '--no-renames', '--topo-order', '--no-color', '--no-ext-diff', '--no-textconv',
    '-z', '--name-status', `--format=${LOG_FORMAT}`, ...revArgs, '--',
  ];
  try {
    await streamGit(args, (chunk) => parser.push(chunk));
    parser.end();
  } catch (e) {
    if (e instanceof IssuelocError) throw e;
    throw new IssuelocError(`cannot read the history of ${repo}: ${(e as Error).message}`);
  }
}

/**
 * Walks the history reachable from `revs` in topological order (children first), streaming.
 *
 * Memory: the parser holds one commit at a time; the graph keeps per commit its SHA, parent
 * indices and time (about 100 bytes), so memory grows with the number of commits only by that.
 *
 * @throws IssuelocError when `repo` is not a full (non-shallow) repository, a revision is
 *   unknown, a parent commit is missing, or git exits with an error (with git's message).
 */
export async function walkHistory(repo: string, options: WalkOptions = {}): Promise<WalkResult> {
  const started = Date.now();
  const revs = options.revs && options.revs.length > 0 ? [...options.revs] : ['HEAD'];
  await assertFullRepository(repo);
  const resolvedRevs: string[] = [];
  for (const rev of revs) resolvedRevs.push(rev.startsWith('-') || rev.includes('..') ? rev : await resolveRevision(repo, rev));
  let total = 0;
  if (options.onProgress) {
    total = Number((await gitText(['-C', repo, 'rev-list', '--count', ...revs, '--'])).trim());
    options.onProgress(0, total);
  }
  const builder = new GraphBuilder();
  const onCommit = options.onCommit;
  const onProgress = options.onProgress;
  await streamLog(repo, revs, (c) => {
    const i = builder.add(c.sha, c.parents, c.time);
    if (onCommit) onCommit(c, i);
    if (onProgress && (i & 1023) === 0) onProgress(i, total);
  });
  const graph = builder.finish(repo);
  if (onProgress) onProgress(graph.size, graph.size);
  return { graph, resolvedRevs, millis: Date.now() - started };
}
