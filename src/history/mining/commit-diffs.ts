/**
 * Diffs of many commits against their first parents with one `git diff-tree --stdin -p -U0`
 * process per batch, restricted to the paths asked for. A missing blob (fetched snapshots lack
 * blobs of 4 MiB or more) kills git's whole diff: the batch is then read commit by commit, and a
 * failing commit path by path, so only the unreadable files are lost, never the run.
 */
import type { GitRepo } from '../../repo/git.js';
import { runGit } from '../../repo/git-process.js';
import { parsePatch, type FilePatch } from '../../dataset/patch.js';

/** The diff of one commit, limited to the paths asked for. */
export interface CommitDiff {
  /** File patches (−U0 hunks) in git's order; added, deleted and binary files as `parsePatch` gives them. */
  files: FilePatch[];
  /** Paths whose diff git could not produce (a missing blob, or output `parsePatch` refuses). */
  unreadable: string[];
}

/** A commit and the paths whose diff is wanted. */
export interface DiffRequest {
  sha: string;
  paths: readonly string[];
}

const DIFF_ARGS = ['diff-tree', '-r', '-p', '-U0', '--no-renames', '--no-ext-diff', '--no-textconv', '--no-color'];
const COMMIT_LINE = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** `git diff-tree` output for several commits, split at the commit-id lines it prints. */
function splitByCommit(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let sha: string | undefined;
  let start = 0;
  let pos = 0;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(pos, end);
    if (COMMIT_LINE.test(line)) {
      if (sha !== undefined) out.set(sha, text.slice(start, pos));
      sha = line;
      start = end + 1;
    }
    if (nl < 0) break;
    pos = nl + 1;
  }
  if (sha !== undefined) out.set(sha, text.slice(Math.min(start, text.length)));
  return out;
}

/** Parses one commit's diff text; a malformed one counts every path as unreadable. */
function parsed(text: string, paths: readonly string[]): CommitDiff {
  try {
    return { files: parsePatch(text), unreadable: [] };
  } catch {
    return { files: [], unreadable: [...paths] };
  }
}

/**
 * The −U0 diffs of `requests` against each commit's first parent (merges and root commits give
 * nothing: ask for neither).
 *
 * @returns sha → diff, one entry per request.
 */
export async function commitDiffs(repo: GitRepo, requests: readonly DiffRequest[]): Promise<Map<string, CommitDiff>> {
  const out = new Map<string, CommitDiff>();
  if (requests.length === 0) return out;
  const union = [...new Set(requests.flatMap((r) => r.paths))];
  const whole = await diffTree(repo, union, `${requests.map((r) => r.sha).join('\n')}\n`);
  if (whole !== undefined) {
    const byCommit = splitByCommit(whole);
    for (const r of requests) {
      const d = parsed(byCommit.get(r.sha) ?? '', r.paths);
      const wanted = new Set(r.paths);
      out.set(r.sha, { files: d.files.filter((f) => wanted.has(f.path)), unreadable: d.unreadable });
    }
    return out;
  }
  // some blob is missing: commit by commit, then path by path
  for (const r of requests) {
    const one = await diffTree(repo, r.paths, `${r.sha}\n`);
    if (one !== undefined) {
      out.set(r.sha, parsed(splitByCommit(one).get(r.sha) ?? '', r.paths));
      continue;
    }
    const diff: CommitDiff = { files: [], unreadable: [] };
    for (const p of r.paths) {
      const text = await diffTree(repo, [p], `${r.sha}\n`);
      const d = text === undefined ? undefined : parsed(splitByCommit(text).get(r.sha) ?? '', [p]);
      if (d === undefined || d.unreadable.length > 0) diff.unreadable.push(p);
      else diff.files.push(...d.files);
    }
    out.set(r.sha, diff);
  }
  return out;
}

/** stdout of `git diff-tree --stdin -p -U0 -- <paths>` fed `input`, or undefined when git fails. */
async function diffTree(repo: GitRepo, paths: readonly string[], input: string): Promise<string | undefined> {
  const res = await runGit([`--git-dir=${repo.gitDir}`, '--literal-pathspecs', ...DIFF_ARGS, '--stdin', '--', ...paths], { repo: repo.path, input });
  return res.code === 0 ? res.stdout.toString('utf8') : undefined;
}
