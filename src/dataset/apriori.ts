/**
 * The a-priori state of a linked commit ("file localisation for issues at large", section 3.3,
 * Figure 3): the repository as it was before the fix. For an ordinary commit, its (first) parent.
 * For a linked merge commit, the parent of the merged branch's unique entry point — the one
 * branch commit with parents outside the branch; when the branch has several entry points (it
 * merged other history in, or forked more than once), none (the entry point is a root commit),
 * or its entry point is itself a merge of two outside commits, the state is ambiguous and the
 * issue is dropped.
 */
import type { CommitGraph } from '../repo/log-walk.js';
import type { BranchCache } from './merges.js';

/** Why no a-priori state exists. */
export type AprioriFailure = 'root-commit' | 'entry-point-not-unique' | 'entry-point-is-root';

/** Result of {@link aprioriState}. */
export type AprioriResult =
  | { ok: true; commit: number; entryPoint?: number }
  | { ok: false; reason: AprioriFailure; detail: string };

/**
 * The a-priori state of commit `c` (graph index).
 *
 * @returns the graph index of the a-priori commit, and for merges the branch's entry point.
 */
export function aprioriState(graph: CommitGraph, c: number, branches: BranchCache): AprioriResult {
  const parents = graph.parents(c);
  if (parents.length === 0) return { ok: false, reason: 'root-commit', detail: `${graph.sha(c)} has no parent` };
  if (parents.length === 1) return { ok: true, commit: parents[0] };
  const branch = branches.of(c);
  if (branch.entryPoints.length !== 1) {
    return {
      ok: false,
      reason: 'entry-point-not-unique',
      detail: `branch merged by ${graph.sha(c)} has ${branch.entryPoints.length} entry points`,
    };
  }
  const entry = branch.entryPoints[0];
  const outside = graph.parents(entry);
  if (outside.length === 0) return { ok: false, reason: 'entry-point-is-root', detail: `entry point ${graph.sha(entry)} is a root commit` };
  if (outside.length > 1) {
    return { ok: false, reason: 'entry-point-not-unique', detail: `entry point ${graph.sha(entry)} is a merge of ${outside.length} outside commits` };
  }
  return { ok: true, commit: outside[0], entryPoint: entry };
}
