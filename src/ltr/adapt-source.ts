/**
 * A stand-in source of pseudo-issues until the commit miner (src/history/commit-miner.ts) is
 * used: non-merge commits of `git log` before the base commit that change 1–10 files and say
 * at least three words, with their changed files as positives (no functions).
 */
import type { GitRepo } from '../repo/git.js';
import type { PseudoIssue, PseudoIssueSource } from './adapt.js';
import { IssuelocError } from '../errors.js';

/** {@link PseudoIssueSource} over `git log --no-merges --name-only` (file-level positives only). */
export const gitLogPseudoIssues: PseudoIssueSource = async (repo: GitRepo, base: string, limit: number): Promise<PseudoIssue[]> => {
  const res = await repo.exec(['log', '--no-merges', '--no-renames', '--diff-filter=M', `-n${limit * 3}`, '--format=%x1e%H %P%x1f%ct%x1f%B%x1f', '--name-only', base, '--']);
  if (res.code !== 0) throw new IssuelocError(`cannot read the history of ${repo.path} before ${base.slice(0, 12)}: ${res.stderr.trim().split(/\n/)[0]}`);
  const out: PseudoIssue[] = [];
  for (const rec of res.stdout.toString('utf8').split('\x1e')) {
    const [head, time, message, names] = rec.split('\x1f');
    if (names === undefined) continue;
    const [commit, parent] = head.trim().split(' ');
    const files = names.split('\n').map((x) => x.trim()).filter(Boolean);
    if (!parent || files.length === 0 || files.length > 10 || message.trim().split(/\s+/).length < 3) continue;
    out.push({ commit, parent, message: message.trim(), time: Number(time), files, functions: [] });
    if (out.length >= limit) break;
  }
  return out;
};
