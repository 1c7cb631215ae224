/**
 * Commit → issue links: issue keys found by regular expression in the FIRST line of a commit
 * message only ("file localisation for issues at large": matching the whole message gave false
 * positives). Several issues per commit are allowed. Reverts are recognised: keys after a revert
 * word in the first line (`Revert "MNG-1 …"`, `[MNG-2] Revert MNG-1`) name the reverted change,
 * not the commit's own issue, and are not links.
 */
import { IssuelocError } from '../errors.js';
import { detach } from '../repo/log-parse.js';

/** One way issue keys are written in commit messages. */
export interface LinkPattern {
  /** Shown in provenance and stats. */
  name: string;
  /** Global regular expression; each match is one key. */
  regex: RegExp;
  /** The normalised issue id of a match (as the issue source writes ids). */
  toId: (m: RegExpExecArray) => string;
}

/** Escapes a string for use inside a regular expression. */
function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Jira keys `KEY-123` of the given project keys, on word boundaries (`XMNG-1`, `MNG-12a` do not
 * match). Ids are normalised to `KEY-<number>` without leading zeros, key upper-case.
 *
 * @param keys project keys, e.g. `['MNG']`; empty = any Jira-like key `[A-Z][A-Z0-9_]+`.
 * @param ignoreCase also match `mng-123`.
 */
export function jiraPattern(keys: readonly string[] = [], ignoreCase = false): LinkPattern {
  const alt = keys.length > 0 ? keys.map(escapeRegex).join('|') : '[A-Z][A-Z0-9_]+';
  return {
    name: `jira:${keys.join(',') || '*'}`,
    regex: new RegExp(`\\b(${alt})-(\\d+)\\b`, ignoreCase ? 'gi' : 'g'),
    toId: (m) => `${m[1].toUpperCase()}-${Number(m[2])}`,
  };
}

/**
 * GitHub references: `#123`, `GH-123`, and their verb forms (`fixes #123`, `closes #123`, …).
 * `owner/repo#123` (another repository) and HTML entities (`&#123;`) do not match. Ids are the
 * issue number as text (as the GitHub issue source writes them).
 */
export function githubPattern(): LinkPattern {
  return {
    name: 'github',
    regex: /(?<![\w&/#-])(?:#|\bGH-)(\d+)\b/gi,
    toId: (m) => String(Number(m[1])),
  };
}

/**
 * A user-given pattern: the first capture group is the id when there is one, else the whole match.
 *
 * @throws IssuelocError `invalid link pattern '<src>': <reason>`.
 */
export function customPattern(source: string): LinkPattern {
  let regex: RegExp;
  try {
    regex = new RegExp(source, 'g');
  } catch (e) {
    throw new IssuelocError(`invalid link pattern '${source}': ${(e as Error).message}`);
  }
  if (regex.test('')) throw new IssuelocError(`invalid link pattern '${source}': it matches the empty string`);
  return { name: `regex:${source}`, regex, toId: (m) => m[1] ?? m[0] };
}

/** The first line of a commit message (without the line break). */
export function firstLine(message: string): string {
  const nl = message.indexOf('\n');
  return (nl < 0 ? message : message.slice(0, nl)).replace(/\r$/, '');
}

/** What a commit message links. */
export interface MessageLinks {
  /** Issue ids the commit links, each once, in order of appearance. */
  ids: string[];
  /** Whether the commit is (also) a revert. */
  revert: boolean;
  /** Ids named after the revert word: the reverted change's issues, not linked. */
  revertedIds: string[];
}

const REVERT_WORD = /\brevert(?:s|ed|ing)?\b/i;
const REVERTS_COMMIT = /^This reverts commit [0-9a-f]{7,64}/m;

/**
 * The issue ids a commit message links (keys in its first line), reverts recognised.
 *
 * A commit is a revert when its first line has the word `revert` (`Revert`, `reverts`,
 * `reverted`, `reverting`) or its message has git's `This reverts commit <sha>` line. Keys before
 * the revert word stay links (the commit fixes that issue by reverting something); keys after it
 * — or every key, when only the `This reverts commit` line marks the revert — are reverted ids.
 */
export function linksOf(message: string, patterns: readonly LinkPattern[]): MessageLinks {
  const line = firstLine(message);
  const word = REVERT_WORD.exec(line);
  const revert = word !== null || REVERTS_COMMIT.test(message);
  const cut = word !== null ? word.index : revert ? 0 : Infinity;
  const ids: string[] = [];
  const revertedIds: string[] = [];
  const found: { at: number; id: string }[] = [];
  for (const p of patterns) {
    p.regex.lastIndex = 0;
    for (let m = p.regex.exec(line); m !== null; m = p.regex.exec(line)) {
      found.push({ at: m.index, id: detach(p.toId(m)) });
      if (m[0] === '') p.regex.lastIndex++;
    }
  }
  found.sort((a, b) => a.at - b.at);
  for (const { at, id } of found) {
    const list = at < cut ? ids : revertedIds;
    if (!list.includes(id)) list.push(id);
  }
  return { ids, revert, revertedIds };
}
