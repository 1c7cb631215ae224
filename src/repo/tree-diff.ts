/**
 * Per-commit questions the streaming walk does not answer: the changed paths of a merge against
 * its first parent, and renames between two states.
 */
import { IssuelocError } from '../errors.js';
import { gitText } from './git-process.js';
import type { PathChange } from './log-parse.js';

/** A changed path; for a rename (`R…` status) `from` is the old path. */
export interface TreeChange extends PathChange {
  from?: string;
}

/**
 * Parses `git diff-tree -z --name-status` output (`S\0path\0`, renames and copies
 * `R<score>\0old\0new\0`).
 *
 * @throws Error on a status without its path(s).
 */
export function parseNameStatusZ(text: string): TreeChange[] {
  const tokens = text.split('\0');
  const out: TreeChange[] = [];
  let i = 0;
  while (i < tokens.length) {
    const status = tokens[i].replace(/^\n/, '');
    if (status === '') {
      i++;
      continue;
    }
    if (status[0] === 'R' || status[0] === 'C') {
      if (i + 2 >= tokens.length) throw new Error(`rename without paths in diff output: ${status}`);
      out.push({ status, from: tokens[i + 1], path: tokens[i + 2] });
      i += 3;
    } else {
      if (i + 1 >= tokens.length) throw new Error(`status without path in diff output: ${status}`);
      out.push({ status, path: tokens[i + 1] });
      i += 2;
    }
  }
  return out;
}

/**
 * Changed paths between two commits (`git diff-tree -r`), `from` → `to`.
 *
 * @param renames detect renames (`-M`): reads blobs, so it fails on repositories with missing
 *   blobs; the default `false` reads trees only.
 * @throws IssuelocError when git fails (unknown commit, missing object), with git's message.
 */
export async function diffPaths(repo: string, from: string, to: string, renames = false): Promise<TreeChange[]> {
  const args = ['diff-tree', '-r', '-z', '--name-status', '--no-ext-diff', '--no-textconv', renames ? '-M' : '--no-renames'];
  if (renames) args.push('--diff-filter=R');
  const text = await gitText(['-C', repo, ...args, from, to, '--']);
  try {
    return parseNameStatusZ(text);
  } catch (e) {
    throw new IssuelocError(`cannot read the diff ${from}..${to} in ${repo}: ${(e as Error).message}`);
  }
}
