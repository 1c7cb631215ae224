/**
 * Merge-commit disambiguation ("file localisation for issues at large", section 3.3): a merge
 * commit whose first line names issues keeps those links only when no commit of the branch it
 * merges links an issue; otherwise its links are dropped (the branch's own commits carry the
 * links), and issues linked only by such merges are discarded.
 *
 * Branch = commits reachable from the merge's second parent and not from its first. "Links an
 * issue" counts any key the link pattern finds (also keys not in the issue file: an issue file
 * may hold one issue type only, and the branch still links its own issue). Two-parent merges
 * only: an issue linked by an octopus merge (three or more parents) is dropped with that reason.
 */
import type { CommitGraph, MergedBranch } from '../repo/log-walk.js';

/** Branches of merges, computed once each. */
export class BranchCache {
  private readonly cache = new Map<number, MergedBranch>();

  constructor(readonly graph: CommitGraph) {}

  /** The branch merge `m` brings in (see `CommitGraph.branchOf`). */
  of(m: number): MergedBranch {
    let b = this.cache.get(m);
    if (!b) {
      b = this.graph.branchOf(m);
      this.cache.set(m, b);
    }
    return b;
  }
}

/** Result of {@link disambiguateMerges} for one issue. */
export interface Disambiguated {
  /** The commits that keep their link (graph indices, input order). */
  kept: number[];
  /** Two-parent merges whose links were dropped because their branch links issues. */
  droppedMerges: number[];
  /** Octopus merges among the commits (the issue is then dropped). */
  octopus: number[];
}

/**
 * Applies the merge rule to the commits linked to one issue.
 *
 * @param commits graph indices of the commits linking the issue.
 * @param linksAnyKey graph indices of every commit whose first line links any key.
 */
export function disambiguateMerges(commits: readonly number[], branches: BranchCache, linksAnyKey: ReadonlySet<number>): Disambiguated {
  const out: Disambiguated = { kept: [], droppedMerges: [], octopus: [] };
  for (const c of commits) {
    const n = branches.graph.parentCount(c);
    if (n > 2) {
      out.octopus.push(c);
      out.kept.push(c);
    } else if (n === 2 && branches.of(c).commits.some((x) => linksAnyKey.has(x))) {
      out.droppedMerges.push(c);
    } else out.kept.push(c);
  }
  return out;
}
