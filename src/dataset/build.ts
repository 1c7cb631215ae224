/**
 * Mining a localisation dataset from an issue file and a repository's history, by the method of
 * "file localisation for issues at large" (section 3.3):
 *
 * 1. walk the history once, streaming (`src/repo/log-walk.ts`), collecting commit → issue links
 *    from first lines (`links.ts`, `link-collector.ts`) or the fixing commits the issue source names;
 * 2. keep linkable issues (resolution Fixed/Done/…, configurable), count unknown keys and reverts;
 * 3. merge disambiguation (`merges.ts`), path requirement (`path-requirement.ts`);
 * 4. per variant, a-priori state and labelled samples (`apriori.ts`, `samples.ts`, `variants.ts`);
 * 5. one record per sample, every other issue in `dropped` with its reason, counts in `meta`.
 */
import type { Issue } from '../issues/types.js';
import { GitRepo } from '../repo/git.js';
import { walkHistory, type CommitGraph } from '../repo/log-walk.js';
import { IssuelocError } from '../errors.js';
import { applyGap, commitGaps, quantile } from './gap.js';
import { LinkCollector, type LinkCounts } from './link-collector.js';
import type { LinkPattern } from './links.js';
import { BranchCache, disambiguateMerges } from './merges.js';
import { checkPathRequirement } from './path-requirement.js';
import type { DatasetIssue, DatasetRecord } from './record.js';
import { CommitChanges, SourceTrees } from './samples.js';
import { candidateFileFilter } from './source-files.js';
import { samplesForIssue, type Sample, type SampleContext, type Variant } from './variants.js';

/** Resolutions that make an issue linkable by default (compared ignoring case). */
export const DEFAULT_LINKABLE_RESOLUTIONS: readonly string[] = ['fixed', 'done', 'implemented', 'resolved', 'completed'];

/** Why an issue is not in the dataset. */
export type DropReason =
  | 'not-linkable'
  | 'no-commit'
  | 'fix-commit-not-found'
  | 'fix-commit-ambiguous'
  | 'octopus-merge'
  | 'merge-links-dropped'
  | 'not-on-one-path'
  | 'merge-path-not-through-branch'
  | 'root-commit'
  | 'entry-point-not-unique'
  | 'entry-point-is-root'
  | 'no-positive'
  | 'no-test-change';

/** An issue left out of the dataset. */
export interface DroppedIssue {
  id: string;
  reason: DropReason;
  detail: string;
  /** Linked commits (full SHAs) when there were any. */
  commits: string[];
}

/** Options of {@link buildDataset}. */
export interface BuildOptions {
  /** Repository directory (bare or with a work tree). */
  repo: string;
  /** The issues (`readIssues`). */
  issues: readonly Issue[];
  /** Where the issues came from (for provenance). */
  issuesFile?: string;
  /** Corrupt issue records the reader skipped (`--skip-invalid`), reported in the counts. */
  invalidIssueRecords?: number;
  /** Revisions whose history is mined (default `['HEAD']`). */
  revs?: readonly string[];
  /** First-line key patterns (`links.ts`); empty = only fixing commits named by the issues. */
  patterns: readonly LinkPattern[];
  /** Default `first-commit`. */
  variant?: Variant;
  /**
   * Resolutions of linkable issues, lower-case (default {@link DEFAULT_LINKABLE_RESOLUTIONS});
   * `null` = every issue is linkable. Issues without a resolution are always linkable.
   */
  linkableResolutions?: readonly string[] | null;
  /** Keep test files among candidates and positives (default true). */
  withTests?: boolean;
  /**
   * Gap rule of the later-commit variants: `'p90'` (default: the 90th percentile of the
   * project's gaps), a number of days, or null (no gap rule). Ignored by `first-commit`.
   */
  maxGap?: 'p90' | number | null;
  /** Progress per phase: `walk` (commits) then `label` (issues). */
  onProgress?: (phase: 'walk' | 'label', done: number, total: number) => void;
}

/** Counts of a build: the paper's Table 2 inputs and what each filter removed. */
export interface BuildCounts extends LinkCounts {
  /** Issues in the issue file. */
  issues: number;
  /** Corrupt issue records skipped by the reader. */
  invalidIssueRecords: number;
  /** Issues with a linkable resolution (Table 2: max linkable). */
  maxLinkable: number;
  /** Linkable issues with at least one linked commit (Table 2: linked). */
  linked: number;
  /** Issues with at least one record (Table 2: in dataset). */
  inDataset: number;
  /** Records written (more than `inDataset` for `exact-commits`). */
  samples: number;
  /** Issues not linkable that commits do name. */
  linkedNotLinkable: number;
  /** Merge commits whose links were dropped because their branch links issues. */
  mergeLinksDropped: number;
  /** Linked commits dropped by the gap rule. */
  gapDroppedCommits: number;
  /** Commits processed without rename detection because git could not read their blobs. */
  missingContentCommits: number;
}

/** Everything a build reports beside its records. */
export interface BuildMeta {
  tool: 'issueloc dataset build';
  variant: Variant;
  repo: string;
  revs: string[];
  resolvedRevs: string[];
  issuesFile: string | null;
  patterns: string[];
  linkableResolutions: string[] | null;
  withTests: boolean;
  /** Gap rule threshold in days (null: none). */
  maxGapDays: number | null;
  counts: BuildCounts;
  dropReasons: Partial<Record<DropReason, number>>;
  /** Commits (SHAs) processed without rename detection (missing blobs). */
  missingContentCommits: string[];
  /** The 20 most frequent unknown keys with their commit counts. */
  topUnknownKeys: [string, number][];
  /** Whether only issues whose commits also change tests were kept (`--only-with-tests`). */
  onlyWithTests?: boolean;
  /** The function-level step (`--functions`, `build-functions.ts`), when it ran. */
  functions?: FunctionStepMeta;
  millis: { walk: number; total: number; functions?: number };
}

/** What the function-level step reports. */
export interface FunctionStepMeta {
  /** Records (samples) kept whose commits edit no existing function of their positive files. */
  recordsWithoutFunctions: number;
  /** Positive functions over all records. */
  positiveFunctions: number;
  /** Commits some of whose file diffs git could not produce (missing blobs), SHAs. */
  unreadableCommits: string[];
}

/** Result of {@link buildDataset}. */
export interface BuildResult {
  records: DatasetRecord[];
  dropped: DroppedIssue[];
  meta: BuildMeta;
}

/** The dataset's view of an issue (`DatasetIssue`). */
export function datasetIssue(i: Issue): DatasetIssue {
  return { id: i.id, title: i.title, body: i.body, bodyRaw: i.bodyRaw, type: i.type, category: i.category, created: i.created, resolved: i.resolved, labels: i.labels };
}

/** ISO 8601 of a Unix time in seconds. */
function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** Whether an issue is linkable under `resolutions`. */
function isLinkable(issue: Issue, resolutions: ReadonlySet<string> | null): boolean {
  return resolutions === null || issue.resolution === '' || resolutions.has(issue.resolution.toLowerCase());
}

/** Resolves an issue's named fixing commits in the walked history. */
function resolveFixCommits(graph: CommitGraph, prefixes: readonly string[]): { commits: number[] } | { reason: DropReason; detail: string } {
  const commits: number[] = [];
  for (const p of prefixes) {
    const found = graph.resolvePrefix(p.toLowerCase(), 2);
    if (found.length === 0) return { reason: 'fix-commit-not-found', detail: `commit ${p} is not in the walked history` };
    if (found.length > 1) return { reason: 'fix-commit-ambiguous', detail: `commit ${p} is ambiguous (${found.join(', ')})` };
    const i = graph.indexOf(found[0]) as number;
    if (!commits.includes(i)) commits.push(i);
  }
  return { commits };
}

/** An issue's linked commits after merge disambiguation and the path requirement. */
interface Chain {
  /** Graph indices, oldest first. */
  ordered: number[];
  linkedBy: 'message' | 'given';
}

/** Records a dropped issue. */
type Drop = (id: string, reason: DropReason, detail: string, commits?: readonly number[]) => void;

/**
 * Steps 2–3: linkable issues, their linked commits, merge disambiguation, path requirement.
 * Updates `counts` (maxLinkable, linked, linkedNotLinkable, mergeLinksDropped).
 */
function linkIssues(
  options: BuildOptions,
  graph: CommitGraph,
  collector: LinkCollector,
  branches: BranchCache,
  resolutions: ReadonlySet<string> | null,
  counts: BuildCounts,
  drop: Drop,
): Map<string, Chain> {
  const droppedMerges = new Set<number>();
  const chains = new Map<string, Chain>();
  for (const issue of options.issues) {
    const linkable = isLinkable(issue, resolutions);
    const linkedBy = issue.fixCommits ? 'given' : 'message';
    let commits: number[];
    if (issue.fixCommits) {
      const r = resolveFixCommits(graph, issue.fixCommits);
      if ('reason' in r) {
        if (linkable) counts.maxLinkable++;
        if (linkable) drop(issue.id, r.reason, r.detail);
        else drop(issue.id, 'not-linkable', `resolution '${issue.resolution}'`);
        continue;
      }
      commits = r.commits;
    } else commits = collector.issueCommits.get(issue.id) ?? [];
    if (!linkable) {
      if (commits.length > 0) counts.linkedNotLinkable++;
      drop(issue.id, 'not-linkable', `resolution '${issue.resolution}'`, commits);
      continue;
    }
    counts.maxLinkable++;
    if (commits.length === 0) {
      drop(issue.id, 'no-commit', 'no commit links the issue');
      continue;
    }
    counts.linked++;
    const octopus = commits.find((c) => graph.parentCount(c) > 2);
    if (octopus !== undefined) {
      drop(issue.id, 'octopus-merge', `${graph.sha(octopus)} has ${graph.parentCount(octopus)} parents`, commits);
      continue;
    }
    if (linkedBy === 'message') {
      const d = disambiguateMerges(commits, branches, collector.linksAnyKey);
      for (const m of d.droppedMerges) droppedMerges.add(m);
      if (d.kept.length === 0) {
        drop(issue.id, 'merge-links-dropped', 'linked only by merges whose branches link issues', commits);
        continue;
      }
      commits = d.kept;
    }
    const path = checkPathRequirement(graph, commits);
    if (!path.ok) {
      drop(issue.id, path.reason, path.detail, commits);
      continue;
    }
    chains.set(issue.id, { ordered: path.ordered, linkedBy });
  }
  counts.mergeLinksDropped = droppedMerges.size;
  return chains;
}

/** The gap rule threshold in seconds (Infinity: no gap rule). */
function gapThreshold(options: BuildOptions, variant: Variant, graph: CommitGraph, chains: ReadonlyMap<string, Chain>): number {
  if (variant === 'first-commit' || options.maxGap === null) return Infinity;
  if (typeof options.maxGap === 'number') return options.maxGap * 86400;
  const gaps = commitGaps(graph, [...chains.values()].map((c) => c.ordered));
  return gaps.length > 0 ? quantile(gaps, 0.9) : Infinity;
}

/** The dataset record of one sample. */
function recordOf(
  issue: Issue,
  chain: Chain,
  sample: Sample,
  k: number,
  skipped: readonly number[],
  variant: Variant,
  ctx: { graph: CommitGraph; collector: LinkCollector; repo: string; rev: string | null },
): DatasetRecord {
  const { graph } = ctx;
  const provenance: Record<string, unknown> = {
    source: 'mined',
    repoPath: ctx.repo,
    rev: ctx.rev,
    issueOrigin: issue.origin,
    status: issue.status,
    resolution: issue.resolution,
    linkedBy: chain.linkedBy,
    linkedCommits: chain.ordered.map((c) => graph.sha(c)),
    firstLines: sample.commits.map((c) => ctx.collector.commits.get(c)?.firstLine ?? ''),
    firstCommitTime: iso(graph.time(sample.commits[0])),
    skippedCommits: skipped.map((c) => graph.sha(c)),
    outsideApriori: sample.outsideApriori,
  };
  if (variant === 'exact-commits') provenance.sample = k;
  if (sample.entryPoint !== undefined) provenance.entryPoint = graph.sha(sample.entryPoint);
  if (sample.renamed > 0) provenance.renamedPositives = sample.renamed;
  return {
    issue: datasetIssue(issue),
    commits: sample.commits.map((c) => graph.sha(c)),
    aprioriCommit: graph.sha(sample.apriori),
    positives: sample.positives,
    positiveFunctions: [],
    candidates: sample.candidates,
    variant,
    provenance,
    changesTests: sample.changesTests,
  };
}

/**
 * Builds the dataset.
 *
 * @returns records in issue-file order (for `exact-commits`, an issue's samples oldest first),
 *   the dropped issues with reasons, and the build's counts.
 * @throws IssuelocError for a repository that cannot be walked (not a repository, shallow clone,
 *   missing commit, git failure), or a tree or merge diff git cannot read.
 */
export async function buildDataset(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const variant = options.variant ?? 'first-commit';
  const resolutions = options.linkableResolutions === null ? null : new Set((options.linkableResolutions ?? DEFAULT_LINKABLE_RESOLUTIONS).map((r) => r.toLowerCase()));
  const withTests = options.withTests ?? true;
  const progress = options.onProgress;

  // 1. walk
  const known = new Set(options.issues.map((i) => i.id));
  const fixPrefixes = new Set(options.issues.flatMap((i) => (i.fixCommits ?? []).map((c) => c.toLowerCase())));
  for (const p of fixPrefixes) if (!/^[0-9a-f]{4,64}$/.test(p)) throw new IssuelocError(`fixing commit '${p}' is not a (abbreviated) SHA`);
  const collector = new LinkCollector(options.patterns, known, fixPrefixes);
  const walk = await walkHistory(options.repo, {
    revs: options.revs,
    onCommit: (c, i) => collector.onCommit(c, i),
    onProgress: progress ? (d, t) => progress('walk', d, t) : undefined,
  });
  const graph = walk.graph;

  // 2–3. links, merge rule, path requirement
  const dropped: DroppedIssue[] = [];
  const drop: Drop = (id, reason, detail, commits = []) => {
    dropped.push({ id, reason, detail, commits: commits.map((c) => graph.sha(c)) });
  };
  const counts: BuildCounts = {
    ...collector.result(),
    issues: options.issues.length, invalidIssueRecords: options.invalidIssueRecords ?? 0, maxLinkable: 0, linked: 0, inDataset: 0, samples: 0,
    linkedNotLinkable: 0, mergeLinksDropped: 0, gapDroppedCommits: 0, missingContentCommits: 0,
  };
  const branches = new BranchCache(graph);
  const chains = linkIssues(options, graph, collector, branches, resolutions, counts, drop);
  const maxGapSeconds = gapThreshold(options, variant, graph, chains);

  // 4. a-priori states and samples
  const isSource = candidateFileFilter(withTests);
  const gitRepo = await GitRepo.open(options.repo);
  const ctx: SampleContext = {
    repo: options.repo,
    graph,
    branches,
    changes: new CommitChanges(options.repo, graph, collector.commits),
    trees: new SourceTrees((c) => gitRepo.listPaths(c), isSource),
    isSource,
    renameFailures: { count: 0, commits: [] },
  };
  const recordCtx = { graph, collector, repo: options.repo, rev: walk.resolvedRevs[0] ?? null };
  const records: DatasetRecord[] = [];
  let done = 0;
  try {
    for (const issue of options.issues) {
      const chain = chains.get(issue.id);
      if (!chain) continue;
      if (progress && (done++ & 15) === 0) progress('label', done, chains.size);
      const gap = applyGap(graph, chain.ordered, maxGapSeconds);
      counts.gapDroppedCommits += gap.dropped.length;
      const res = await samplesForIssue(ctx, gap.kept, variant);
      if (!res.ok) {
        drop(issue.id, res.reason, res.detail, chain.ordered);
        continue;
      }
      counts.inDataset++;
      res.samples.forEach((s, k) => records.push(recordOf(issue, chain, s, k, res.skipped, variant, recordCtx)));
    }
  } finally {
    await gitRepo.close();
  }
  if (progress) progress('label', chains.size, chains.size);
  counts.samples = records.length;
  counts.missingContentCommits = ctx.renameFailures.count;
  const dropReasons: Partial<Record<DropReason, number>> = {};
  for (const d of dropped) dropReasons[d.reason] = (dropReasons[d.reason] ?? 0) + 1;
  return {
    records,
    dropped,
    meta: {
      tool: 'issueloc dataset build',
      variant,
      repo: options.repo,
      revs: [...(options.revs ?? ['HEAD'])],
      resolvedRevs: walk.resolvedRevs,
      issuesFile: options.issuesFile ?? null,
      patterns: options.patterns.map((p) => p.name),
      linkableResolutions: resolutions === null ? null : [...resolutions],
      withTests,
      maxGapDays: maxGapSeconds === Infinity ? null : maxGapSeconds / 86400,
      counts,
      dropReasons,
      missingContentCommits: ctx.renameFailures.commits,
      topUnknownKeys: collector.unknownKeys().slice(0, 20),
      millis: { walk: walk.millis, total: Date.now() - started },
    },
  };
}
