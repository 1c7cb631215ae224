/**
 * The commit graph of a walked history, held compactly: commit i is the i-th commit `git log
 * --topo-order` printed (children before parents, so every parent has a larger index than its
 * children), parents as a CSR pair of Int32Arrays. Reachability questions (is one commit an
 * ancestor of another; which commits a merge brings in) are answered by walks that never visit a
 * commit older than they need to.
 */
import { IssuelocError } from '../errors.js';

/** Collects commits in topological order, then {@link GraphBuilder.finish}es into a {@link CommitGraph}. */
export class GraphBuilder {
  private readonly shas: string[] = [];
  private readonly parentShas: string[] = [];
  private readonly parentCounts: number[] = [];
  private readonly times: number[] = [];

  /** Adds the next commit (children must be added before their parents). */
  add(sha: string, parents: readonly string[], time: number): number {
    this.shas.push(sha);
    for (const p of parents) this.parentShas.push(p);
    this.parentCounts.push(parents.length);
    this.times.push(time);
    return this.shas.length - 1;
  }

  /**
   * Resolves parent ids to indices.
   *
   * @param repo named in errors.
   * @throws IssuelocError when a parent was never walked (a shallow clone, a missing commit, or a
   *   history cut by a revision range), naming the child commit and the parent.
   */
  finish(repo: string): CommitGraph {
    const n = this.shas.length;
    const index = new Map<string, number>();
    for (let i = 0; i < n; i++) index.set(this.shas[i], i);
    const start = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) start[i + 1] = start[i] + this.parentCounts[i];
    const parents = new Int32Array(start[n]);
    for (let i = 0; i < n; i++) {
      for (let k = start[i]; k < start[i + 1]; k++) {
        const p = index.get(this.parentShas[k]);
        if (p === undefined) {
          throw new IssuelocError(`commit ${this.parentShas[k]} (parent of ${this.shas[i]}) is missing from the history of ${repo}: shallow clone or missing commit?`);
        }
        if (p <= i) throw new IssuelocError(`history of ${repo} is not in topological order at ${this.shas[i]}`);
        parents[k] = p;
      }
    }
    return new CommitGraph(this.shas, index, start, parents, Float64Array.from(this.times));
  }
}

/** Result of {@link CommitGraph.branchOf}. */
export interface MergedBranch {
  /** Commits reachable from the second parent but not from the first, newest first. */
  commits: number[];
  /** Commits of the branch with a parent outside it, or with no parent (roots). */
  entryPoints: number[];
}

/** An immutable commit graph in topological order (see the file comment). */
export class CommitGraph {
  private stamp: Uint32Array;
  private generation = 0;

  constructor(
    private readonly shas: readonly string[],
    private readonly index: ReadonlyMap<string, number>,
    private readonly parentStart: Int32Array,
    private readonly parentIndex: Int32Array,
    private readonly times: Float64Array,
  ) {
    this.stamp = new Uint32Array(shas.length);
  }

  /** Number of commits. */
  get size(): number {
    return this.shas.length;
  }

  /** Full SHA of commit `i`. */
  sha(i: number): string {
    return this.shas[i];
  }

  /** Index of a full SHA, or undefined when the commit is not in the walked history. */
  indexOf(sha: string): number | undefined {
    return this.index.get(sha);
  }

  /** Committer time of commit `i`, seconds since the Unix epoch. */
  time(i: number): number {
    return this.times[i];
  }

  /** Parent indices of commit `i`, first parent first. */
  parents(i: number): number[] {
    const out: number[] = [];
    for (let k = this.parentStart[i]; k < this.parentStart[i + 1]; k++) out.push(this.parentIndex[k]);
    return out;
  }

  /** Number of parents of commit `i` (0 root, 1 ordinary, 2 merge, >2 octopus merge). */
  parentCount(i: number): number {
    return this.parentStart[i + 1] - this.parentStart[i];
  }

  private nextGeneration(): number {
    if (this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }

  /**
   * Whether `ancestor` is reachable from `descendant` by parent links (a commit is its own
   * ancestor). Walks only commits between the two in topological order.
   */
  isAncestor(ancestor: number, descendant: number): boolean {
    if (ancestor === descendant) return true;
    if (ancestor < descendant) return false;
    const g = this.nextGeneration();
    const stack = [descendant];
    this.stamp[descendant] = g;
    while (stack.length > 0) {
      const x = stack.pop() as number;
      for (let k = this.parentStart[x]; k < this.parentStart[x + 1]; k++) {
        const p = this.parentIndex[k];
        if (p === ancestor) return true;
        if (p > ancestor || this.stamp[p] === g) continue;
        this.stamp[p] = g;
        stack.push(p);
      }
    }
    return false;
  }

  /**
   * The branch a two-parent merge brings in: commits reachable from its second parent and not
   * from its first, found by painting down from both parents in topological order and stopping
   * once every open commit is reachable from the first parent (as git's merge-base walk does).
   *
   * @throws IssuelocError when `merge` does not have exactly two parents.
   */
  branchOf(merge: number): MergedBranch {
    const ps = this.parents(merge);
    if (ps.length !== 2) throw new IssuelocError(`commit ${this.sha(merge)} has ${ps.length} parents, not 2`);
    const FIRST = 1;
    const SECOND = 2;
    const flags = new Map<number, number>();
    const heap = new MinHeap();
    let openSecondOnly = 0;
    const reach = (q: number, f: number): void => {
      const old = flags.get(q);
      if (old === undefined) {
        flags.set(q, f);
        heap.push(q);
        if ((f & FIRST) === 0) openSecondOnly++;
      } else if ((old | f) !== old) {
        flags.set(q, old | f);
        if (old >= 0 && (old & FIRST) === 0 && (f & FIRST) !== 0) openSecondOnly--;
      }
    };
    reach(ps[0], FIRST);
    reach(ps[1], SECOND);
    const commits: number[] = [];
    while (heap.size > 0 && openSecondOnly > 0) {
      const x = heap.pop();
      const f = flags.get(x) as number;
      if ((f & FIRST) === 0) {
        openSecondOnly--;
        commits.push(x);
      }
      // mark as processed (negative) so later flag updates do not touch the open count
      flags.set(x, -f);
      for (let k = this.parentStart[x]; k < this.parentStart[x + 1]; k++) {
        const p = this.parentIndex[k];
        const old = flags.get(p);
        if (old !== undefined && old < 0) continue; // already processed: cannot happen in topo order
        reach(p, f);
      }
    }
    const inBranch = new Set(commits);
    const entryPoints: number[] = [];
    for (const x of commits) {
      const n = this.parentCount(x);
      if (n === 0) entryPoints.push(x);
      else if (this.parents(x).some((p) => !inBranch.has(p))) entryPoints.push(x);
    }
    return { commits, entryPoints };
  }

  /**
   * Full SHAs of walked commits that start with `prefix` (lower-case hex), at most `limit`.
   * Builds a sorted SHA list on first use (kept for later calls).
   */
  resolvePrefix(prefix: string, limit = 2): string[] {
    if (this.sorted === null) this.sorted = [...this.shas].sort();
    const p = prefix.toLowerCase();
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid] < p) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < this.sorted.length && out.length < limit && this.sorted[i].startsWith(p); i++) out.push(this.sorted[i]);
    return out;
  }

  private sorted: string[] | null = null;
}

/** A binary min-heap of non-negative integers. */
class MinHeap {
  private readonly a: number[] = [];

  get size(): number {
    return this.a.length;
  }

  push(v: number): void {
    const a = this.a;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (a[up] <= v) break;
      a[i] = a[up];
      i = up;
    }
    a[i] = v;
  }

  pop(): number {
    const a = this.a;
    const top = a[0];
    const last = a.pop() as number;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const r = l + 1;
        const c = r < a.length && a[r] < a[l] ? r : l;
        if (a[c] >= last) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}
