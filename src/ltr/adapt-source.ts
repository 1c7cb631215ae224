/**
 * The pseudo-issues per-repository adaptation learns from: the commit miner's
 * (src/history/commit-miner.ts, default filters: non-merge commits changing 1–5 non-test source
 * files with a message of at least three words), the most recent first.
 */
import { mineCommits } from '../history/commit-miner.js';
import type { PseudoIssueSource } from './adapt.js';

/** Commits read per pseudo-issue wanted (the filters drop most of them in some histories). */
const READ_PER_ISSUE = 4;

/** {@link PseudoIssueSource} of the commit miner (its cache under the repository's cache folder). */
export const minedPseudoIssues: PseudoIssueSource = async (repo, base, limit, cacheDir) => {
  const out = [];
  for await (const p of mineCommits(repo, base, { cacheDir, maxCommits: limit * READ_PER_ISSUE })) {
    out.push(p);
    if (out.length >= limit) break;
  }
  return out;
};
