/**
 * The three sample variants of "file localisation for issues at large" (section 3.3):
 *
 * - `first-commit` (First Commit Only, the default and the one the paper studies): the first
 *   linked commit gives the a-priori state and the positives. When it modifies or removes no
 *   source file (a build-file or script-only fix), the issue is dropped: taking a later commit
 *   instead would put the a-priori state after part of the fix (and can pick a commit years later
 *   that only mentions the key).
 * - `all-future-files` (All Future Files): the same a-priori state; positives = files modified or
 *   removed by any of the issue's linked commits, followed back through renames to their path at
 *   the a-priori state (rename detection between the a-priori state and the later commit's parent).
 * - `exact-commits` (Exact Commits): one sample per linked commit that modifies or removes a source
 *   file, each at its own a-priori state; commits without one (or without an a-priori state) are
 *   skipped.
 *
 * An issue whose linked commits give no positive is dropped (`no-positive`).
 */
import type { CommitGraph } from '../repo/log-walk.js';
import { diffPaths } from '../repo/tree-diff.js';
import { aprioriState, type AprioriFailure } from './apriori.js';
import type { BranchCache } from './merges.js';
import { modifiedOrRemoved, positivesAt, type CommitChanges, type SourceTrees } from './samples.js';
import type { SourceFilter } from './source-files.js';
import { touchesTests } from './source-files.js';

/** Sample variants. */
export const VARIANTS = ['first-commit', 'all-future-files', 'exact-commits'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Everything sample making needs from the build. */
export interface SampleContext {
  repo: string;
  graph: CommitGraph;
  branches: BranchCache;
  changes: CommitChanges;
  trees: SourceTrees;
  isSource: SourceFilter;
  /** Incremented for each rename detection that failed (missing blobs); the sample goes on without it. */
  renameFailures: { count: number; commits: string[] };
}

/** One labelled sample of an issue. */
export interface Sample {
  /** Commits whose changes gave the positives (graph indices, oldest first). */
  commits: number[];
  apriori: number;
  /** For a merge sample: the merged branch's entry point. */
  entryPoint?: number;
  positives: string[];
  /** Modified/removed source files not present at the a-priori state. */
  outsideApriori: string[];
  /** Number of source files at the a-priori state. */
  candidates: number;
  /** Whether the sample's commits change a test file. */
  changesTests: boolean;
  /** Positives found through a rename (All Future Files). */
  renamed: number;
}

/** Samples of one issue, or why it has none. */
export type IssueSamples =
  | { ok: true; samples: Sample[]; skipped: number[] }
  | { ok: false; reason: AprioriFailure | 'no-positive'; detail: string };

/** A sample of commit `c` alone, or why none (a-priori failure, or no positive). */
async function singleSample(ctx: SampleContext, c: number): Promise<Sample | { fail: AprioriFailure | 'no-positive'; detail: string }> {
  const changes = await ctx.changes.of(c);
  const md = modifiedOrRemoved(changes, ctx.isSource);
  if (md.length === 0) return { fail: 'no-positive', detail: `${ctx.graph.sha(c)} modifies or removes no source file` };
  const a = aprioriState(ctx.graph, c, ctx.branches);
  if (!a.ok) return { fail: a.reason, detail: a.detail };
  const tree = await ctx.trees.files(ctx.graph.sha(a.commit));
  const pos = positivesAt(md, tree);
  if (pos.positives.length === 0) return { fail: 'no-positive', detail: `no source file ${ctx.graph.sha(c)} modifies exists at its a-priori state` };
  const sample: Sample = {
    commits: [c],
    apriori: a.commit,
    positives: pos.positives,
    outsideApriori: pos.outsideApriori,
    candidates: tree.size,
    changesTests: touchesTests(changes.map((ch) => ch.path)),
    renamed: 0,
  };
  if (a.entryPoint !== undefined) sample.entryPoint = a.entryPoint;
  return sample;
}

/**
 * Paths at commit `later` mapped back to the a-priori state through renames detected between
 * the two (`git diff-tree -M`); on failure (missing blobs) the paths stay as they are and the
 * failure is counted.
 */
async function renamedBack(ctx: SampleContext, apriori: number, later: number, paths: string[]): Promise<Map<string, string>> {
  const back = new Map<string, string>();
  const parent = ctx.graph.parents(later)[0];
  if (parent === undefined || parent === apriori) return back;
  try {
    for (const ch of await diffPaths(ctx.repo, ctx.graph.sha(apriori), ctx.graph.sha(parent), true)) {
      if (ch.from !== undefined && paths.includes(ch.path)) back.set(ch.path, ch.from);
    }
  } catch {
    ctx.renameFailures.count++;
    ctx.renameFailures.commits.push(ctx.graph.sha(later));
  }
  return back;
}

/**
 * The samples of one issue by `variant`.
 *
 * @param ordered the issue's linked commits (graph indices) oldest first, after the path
 *   requirement and (for the later-commit variants) the gap rule.
 * @throws IssuelocError when git cannot read a tree or a merge diff.
 */
export async function samplesForIssue(ctx: SampleContext, ordered: readonly number[], variant: Variant): Promise<IssueSamples> {
  if (variant === 'exact-commits') {
    const skipped: number[] = [];
    let lastFail: { reason: AprioriFailure | 'no-positive'; detail: string } = { reason: 'no-positive', detail: 'no linked commit' };
    const samples: Sample[] = [];
    for (const c of ordered) {
      const s = await singleSample(ctx, c);
      if ('fail' in s) {
        skipped.push(c);
        if (lastFail.reason === 'no-positive' || s.fail !== 'no-positive') lastFail = { reason: s.fail, detail: s.detail };
      } else samples.push(s);
    }
    return samples.length > 0 ? { ok: true, samples, skipped } : { ok: false, ...lastFail };
  }
  const first = ordered[0];
  const a = aprioriState(ctx.graph, first, ctx.branches);
  if (!a.ok) return { ok: false, reason: a.reason, detail: a.detail };
  const tree = await ctx.trees.files(ctx.graph.sha(a.commit));
  const sample: Sample = { commits: [], apriori: a.commit, positives: [], outsideApriori: [], candidates: tree.size, changesTests: false, renamed: 0 };
  if (a.entryPoint !== undefined) sample.entryPoint = a.entryPoint;
  const all = new Set<string>();
  const outside = new Set<string>();
  for (const c of variant === 'first-commit' ? [first] : ordered) {
    const changes = await ctx.changes.of(c);
    const md = modifiedOrRemoved(changes, ctx.isSource);
    if (touchesTests(changes.map((ch) => ch.path))) sample.changesTests = true;
    const missing = md.filter((p) => !tree.has(p));
    const back = missing.length > 0 && c !== first ? await renamedBack(ctx, a.commit, c, missing) : new Map<string, string>();
    for (const p of md) {
      const q = back.get(p) ?? p;
      if (tree.has(q)) {
        if (q !== p && !all.has(q)) sample.renamed++;
        all.add(q);
      } else outside.add(p);
    }
    sample.commits.push(c);
  }
  if (all.size === 0) {
    const what = variant === 'first-commit' ? `first linked commit ${ctx.graph.sha(first)}` : `the ${ordered.length} linked commits`;
    return { ok: false, reason: 'no-positive', detail: `${what} modify or remove no source file of the a-priori state` };
  }
  sample.positives = [...all].sort();
  sample.outsideApriori = [...outside].filter((p) => !all.has(p)).sort();
  return { ok: true, samples: [sample], skipped: [] };
}
