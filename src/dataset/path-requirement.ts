/**
 * The path requirement ("file localisation for issues at large", section 3.3, Figure 2): all
 * commits linked to one issue lie on a single path from a root commit to HEAD, and where a linked
 * commit is a merge, that path reaches it through the merged branch (its second parent).
 *
 * The four configurations of Figure 2 as this module decides them (test/dataset/path-requirement):
 * (a) linked commits on one line of first parents: kept;
 * (b) linked commits on two branches that diverge (neither an ancestor of the other): dropped;
 * (c) a linked merge whose merged branch holds the other linked commits: kept (the merge
 *     rule has already dropped the merge's own link, as that branch links the issue);
 * (d) a linked merge and an earlier linked commit reachable only through the merge's first
 *     parent (the path to the merge does not pass the merged branch): dropped.
 */
import type { CommitGraph } from '../repo/log-walk.js';

/** Verdict of {@link checkPathRequirement}. */
export type PathVerdict =
  | { ok: true; ordered: number[] }
  | { ok: false; reason: 'not-on-one-path' | 'merge-path-not-through-branch'; detail: string };

/**
 * Checks the path requirement for the commits linked to one issue.
 *
 * Sorted oldest first (by topological position), every commit must be an ancestor of the next
 * (then one path from a root through all of them to HEAD exists); when the next one is a merge,
 * the previous must be an ancestor of the merge's second parent.
 *
 * @param commits graph indices, any order, no duplicates.
 * @returns `ordered`: the commits oldest first.
 */
export function checkPathRequirement(graph: CommitGraph, commits: readonly number[]): PathVerdict {
  const ordered = [...commits].sort((a, b) => b - a);
  for (let k = 1; k < ordered.length; k++) {
    const older = ordered[k - 1];
    const newer = ordered[k];
    if (!graph.isAncestor(older, newer)) {
      return { ok: false, reason: 'not-on-one-path', detail: `${graph.sha(older)} is not an ancestor of ${graph.sha(newer)}` };
    }
    if (graph.parentCount(newer) >= 2) {
      const second = graph.parents(newer)[1];
      if (!graph.isAncestor(older, second)) {
        return {
          ok: false,
          reason: 'merge-path-not-through-branch',
          detail: `${graph.sha(older)} reaches merge ${graph.sha(newer)} only through its first parent`,
        };
      }
    }
  }
  return { ok: true, ordered };
}
