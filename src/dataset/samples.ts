/**
 * Labelled samples ("file localisation for issues at large", section 3.3): for a fixing commit,
 * positives = source files it modifies or removes (diff against its first parent: statuses M, T
 * and D); negatives = every other source file of the a-priori state. Added files are neither
 * (they do not exist before the fix). History is read without rename detection, so a rename is a
 * removal plus an addition: a renamed source file's old path is a positive, and a non-code file
 * renamed to a code extension counts as added, as the paper prescribes.
 *
 * Positives are kept only when they exist at the a-priori state (always so for an ordinary
 * commit; for a merge, whose a-priori state is the branch's fork point, a file the main line
 * created after the fork is not a candidate and is counted in `outsideApriori`).
 */
import type { PathChange } from '../repo/log-walk.js';
import { diffPaths } from '../repo/tree-diff.js';
import type { CommitGraph } from '../repo/log-walk.js';
import type { LinkedCommit } from './link-collector.js';
import type { SourceFilter } from './source-files.js';

/** Paths a change list modifies or removes (`M`, `T`, `D`) that pass `isSource`. */
export function modifiedOrRemoved(changes: readonly PathChange[], isSource: SourceFilter): string[] {
  const out: string[] = [];
  for (const c of changes) {
    const s = c.status[0];
    if ((s === 'M' || s === 'T' || s === 'D') && isSource(c.path)) out.push(c.path);
  }
  return out;
}

/** Source files of commit trees, with a small most-recently-used cache (trees are large). */
export class SourceTrees {
  private readonly cache = new Map<string, Set<string>>();

  /**
   * @param listFiles all regular files of a commit's tree (`GitRepo.listPaths`).
   */
  constructor(
    private readonly listFiles: (commit: string) => Promise<string[]>,
    private readonly isSource: SourceFilter,
    private readonly capacity = 16,
  ) {}

  /** The source files of `commit`'s tree. @throws IssuelocError when git cannot list it. */
  async files(commit: string): Promise<Set<string>> {
    const hit = this.cache.get(commit);
    if (hit) {
      this.cache.delete(commit);
      this.cache.set(commit, hit);
      return hit;
    }
    const files = new Set((await this.listFiles(commit)).filter(this.isSource));
    this.cache.set(commit, files);
    if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
    return files;
  }
}

/** Changed paths of linked commits against their first parent; merges read on demand. */
export class CommitChanges {
  private readonly merges = new Map<number, PathChange[]>();

  constructor(
    private readonly repo: string,
    private readonly graph: CommitGraph,
    private readonly linked: ReadonlyMap<number, LinkedCommit>,
  ) {}

  /**
   * Changes of commit `c` (graph index) against its first parent.
   *
   * @throws IssuelocError when `c` was not kept by the walk, or git cannot diff a merge.
   */
  async of(c: number): Promise<readonly PathChange[]> {
    if (this.graph.parentCount(c) < 2) {
      const l = this.linked.get(c);
      if (!l) throw new Error(`commit ${this.graph.sha(c)} was not kept by the walk`);
      return l.changes;
    }
    let ch = this.merges.get(c);
    if (!ch) {
      ch = await diffPaths(this.repo, this.graph.sha(this.graph.parents(c)[0]), this.graph.sha(c));
      this.merges.set(c, ch);
    }
    return ch;
  }
}

/** Positives of a set of changed paths at an a-priori tree. */
export interface Positives {
  positives: string[];
  /** Modified/removed source paths that do not exist at the a-priori state. */
  outsideApriori: string[];
}

/** Splits modified/removed source paths into those at the a-priori tree and the others. */
export function positivesAt(paths: Iterable<string>, apriori: ReadonlySet<string>): Positives {
  const positives: string[] = [];
  const outsideApriori: string[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    if (seen.has(p)) continue;
    seen.add(p);
    (apriori.has(p) ? positives : outsideApriori).push(p);
  }
  return { positives: positives.sort(), outsideApriori: outsideApriori.sort() };
}
