/**
 * Collects, during the streaming history walk, what linking needs and nothing more: for every
 * commit that names a known issue (or is a fixing commit an issue source names directly) its id,
 * first line, time and changed paths; for every other commit only whether it links any issue key
 * at all (merge disambiguation asks that of whole branches); counts of unknown keys and reverts.
 */
import type { LogCommit, PathChange } from '../repo/log-walk.js';
import { detach } from '../repo/log-parse.js';
import { firstLine, linksOf, type LinkPattern } from './links.js';

/** What is kept of a commit that links a known issue (or is a named fixing commit). */
export interface LinkedCommit {
  index: number;
  sha: string;
  parents: string[];
  /** Committer time, Unix seconds. */
  time: number;
  firstLine: string;
  /** Changes against the first parent; empty for merges (read later by `diffPaths`). */
  changes: PathChange[];
  /** Known issue ids the message links. */
  ids: string[];
}

/** Counts the collector reports (see {@link LinkCollector}). */
export interface LinkCounts {
  /** Commits walked. */
  commits: number;
  /** Commits whose first line names at least one key (known or not), reverted keys excluded. */
  commitsWithKeys: number;
  /** Revert commits whose first line named keys that were therefore not taken as links. */
  revertCommits: number;
  /** Distinct keys found that no issue of the issue file has. */
  unknownKeys: number;
  /** Commits naming only unknown keys. */
  unknownKeyCommits: number;
}

/** Streaming collector of commit → issue links; feed it every commit of the walk. */
export class LinkCollector {
  /** Commits kept, by graph index. */
  readonly commits = new Map<number, LinkedCommit>();
  /** Graph indices of commits that link any key (known or unknown). */
  readonly linksAnyKey = new Set<number>();
  /** Known issue id → graph indices of the commits linking it, newest first. */
  readonly issueCommits = new Map<string, number[]>();
  private readonly unknown = new Map<string, number>();
  private readonly prefixLengths: number[];
  private counts = { commits: 0, commitsWithKeys: 0, revertCommits: 0, unknownKeyCommits: 0 };

  /**
   * @param patterns key patterns for the first line (none: no message links).
   * @param knownIds ids of the issue file.
   * @param fixPrefixes lower-case (abbreviated) SHAs of fixing commits named by the issue source;
   *   commits starting with one are kept as well.
   */
  constructor(
    private readonly patterns: readonly LinkPattern[],
    private readonly knownIds: ReadonlySet<string>,
    private readonly fixPrefixes: ReadonlySet<string> = new Set(),
  ) {
    this.prefixLengths = [...new Set([...fixPrefixes].map((p) => p.length))];
  }

  /** Takes one commit of the walk. */
  onCommit(c: LogCommit, index: number): void {
    this.counts.commits++;
    let known: string[] = [];
    if (this.patterns.length > 0) {
      const links = linksOf(c.message, this.patterns);
      if (links.revert && links.revertedIds.length > 0) this.counts.revertCommits++;
      if (links.ids.length > 0) {
        this.counts.commitsWithKeys++;
        this.linksAnyKey.add(index);
        known = links.ids.filter((id) => this.knownIds.has(id));
        for (const id of links.ids) if (!this.knownIds.has(id)) this.unknown.set(id, (this.unknown.get(id) ?? 0) + 1);
        if (known.length === 0) this.counts.unknownKeyCommits++;
      }
    }
    const named = this.prefixLengths.some((n) => this.fixPrefixes.has(c.sha.slice(0, n)));
    if (known.length === 0 && !named) return;
    this.commits.set(index, {
      index,
      sha: c.sha,
      parents: c.parents,
      time: c.time,
      firstLine: detach(firstLine(c.message)),
      changes: c.changes,
      ids: known,
    });
    for (const id of known) {
      const list = this.issueCommits.get(id);
      if (list) list.push(index);
      else this.issueCommits.set(id, [index]);
    }
  }

  /** The counts so far. */
  result(): LinkCounts {
    return { ...this.counts, unknownKeys: this.unknown.size };
  }

  /** Unknown keys with their number of commits, most frequent first (for reports). */
  unknownKeys(): [string, number][] {
    return [...this.unknown].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }
}
