/**
 * `issueloc comment` and the GitHub Action: on an `issues` event (opened or edited), rank the
 * repository at the checked-out commit for the issue and post, or edit, the one issueloc comment
 * on it (found again by {@link COMMENT_MARKER}).
 */
import { IssuelocError } from '../errors.js';
import { checkIssueText, openLocalizer } from '../pipeline/localizer.js';
import { COMMENT_MARKER, commentBody, GITHUB_MAX_COMMENT_CHARS, MIN_COMMENT_CHARS, type Level } from './comment-body.js';
import { openGitHub, type GitHubClient, type GitHubOptions, type IssueComment, type IssueRef } from './github-api.js';
import type { RankedItem } from '../retrieve/rollup.js';
import { issueText, readIssueEvent, skipReason } from './github-event.js';
import { lineRangesAt } from './line-ranges.js';

/** Largest `top` of a comment. */
export const MAX_COMMENT_TOP = 100;

/** Longest opt-out label (GitHub's limit on label names). */
export const MAX_LABEL_CHARS = 50;

/** Options of {@link commentOnIssue}; the CLI and the Action fill them from flags, inputs and the Actions environment. */
export interface CommentOptions {
  /** The event payload file (`GITHUB_EVENT_PATH`). */
  eventPath: string;
  /** The event's name (`GITHUB_EVENT_NAME`); undefined: judged by the payload. */
  eventName?: string;
  /** The checked-out repository (work tree or bare). */
  repoPath: string;
  /** Base commit (default HEAD: the checked-out commit). */
  rev?: string;
  /** `owner/name` (`GITHUB_REPOSITORY`; default: the payload's repository). */
  repository?: string;
  /** The token; required unless the event is skipped. */
  token?: string;
  /** REST API root (`GITHUB_API_URL`). */
  apiUrl: string;
  /** Web root for links (`GITHUB_SERVER_URL`). */
  serverUrl: string;
  levels: readonly Level[];
  /** Items per level, 1 … {@link MAX_COMMENT_TOP}. */
  top: number;
  /** Learned model: `default` (also when undefined), a model file, or `none` for lexical ranking only. */
  model?: string;
  /** Issues with this label get no comment ('' = no opt-out label). */
  optOutLabel: string;
  /** Size cap of the comment in characters ({@link MIN_COMMENT_CHARS} … 65 536). */
  maxCommentChars: number;
  cacheDir?: string;
  /** Timeouts and retries of GitHub calls (defaults DEFAULT_GITHUB_RETRY). */
  retry?: Pick<GitHubOptions, 'timeoutMs' | 'retries' | 'backoffMs' | 'maxWaitMs'>;
  /** One-line notices (what was done or why nothing was) and warnings. */
  onInfo: (message: string) => void;
  onWarning: (message: string) => void;
}

/** What the command did. */
export type CommentOutcome =
  | { result: 'skipped'; reason: string }
  | { result: 'created' | 'updated' | 'unchanged'; comment: IssueComment; commit: string };

/**
 * Acts on one event: skips it (another event or action, a bot author, the opt-out label, an
 * issue without a searchable word or without a match) or posts / edits the comment.
 * @throws IssuelocError (exit 2): a bad option, an unreadable event file, no token or repository,
 *   a GitHub call that failed for good (the message names the call and the status).
 */
export async function commentOnIssue(o: CommentOptions): Promise<CommentOutcome> {
  checkCommentOptions(o);
  const event = readIssueEvent(o.eventPath);
  const skip = skipReason(o.eventName, event, o.optOutLabel);
  if (skip || !event) return skipped(o, skip ?? 'nothing to do');
  const full = o.repository || event.repository;
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(full ?? '');
  if (!m) throw new IssuelocError(full ? `repository '${full}' is not owner/name` : 'no repository: set GITHUB_REPOSITORY (owner/name) or give an event with repository.full_name');
  if (!o.token) throw new IssuelocError('no GitHub token: set GITHUB_TOKEN (the Action passes its token input)');
  const at: IssueRef = { owner: m[1], repo: m[2], issueNumber: event.issue.number };
  const text = issueText(event);
  try {
    checkIssueText(text);
  } catch {
    return skipped(o, `#${at.issueNumber} has no searchable word: no comment`);
  }
  const github = await openGitHub({ token: o.token, baseUrl: o.apiUrl, ...o.retry, onWarning: o.onWarning });
  // the comment is looked for first: a bad token fails before the repository is indexed
  const existing = await github.findComment(at, COMMENT_MARKER);
  const ranked = await rank(o, text);
  if (!ranked) return skipped(o, `nothing in the repository matched #${at.issueNumber}: no comment`);
  const body = commentBody({ serverUrl: o.serverUrl, owner: at.owner, repo: at.repo, optOutLabel: o.optOutLabel, ...ranked }, o.maxCommentChars);
  return post(o, github, at, existing, body, ranked.commit);
}

function skipped(o: CommentOptions, reason: string): CommentOutcome {
  o.onInfo(reason);
  return { result: 'skipped', reason };
}

async function post(o: CommentOptions, github: GitHubClient, at: IssueRef, existing: IssueComment | undefined, body: string, commit: string): Promise<CommentOutcome> {
  if (existing && existing.body === body) {
    o.onInfo(`#${at.issueNumber}: the issueloc comment is up to date: ${existing.url}`);
    return { result: 'unchanged', comment: existing, commit };
  }
  const comment = existing ? await github.updateComment(at, existing.id, body) : await github.createComment(at, body);
  o.onInfo(`#${at.issueNumber}: ${existing ? 'updated' : 'posted'} the issueloc comment: ${comment.url}`);
  return { result: existing ? 'updated' : 'created', comment, commit };
}

/** The rankings of the levels shown with the lines of their items, or undefined when none matched. */
async function rank(o: CommentOptions, text: string) {
  const localizer = await openLocalizer({ repo: o.repoPath, rev: o.rev, cacheDir: o.cacheDir, model: o.model, onWarning: o.onWarning });
  try {
    const result = await localizer.localize(text, { top: o.top });
    const rankings: Partial<Record<Level, RankedItem[]>> = Object.fromEntries(o.levels.map((l) => [l, result[`${l}s`]]));
    if (o.levels.every((l) => result[`${l}s`].length === 0)) return undefined;
    const ids = [...(rankings.module ?? []), ...(rankings.function ?? [])].map((it) => it.id);
    return { commit: result.commit, stages: result.stages, rankings, lines: await lineRangesAt(o.repoPath, result.commit, ids) };
  } finally {
    await localizer.close();
  }
}

/** @throws IssuelocError naming the option out of range. */
function checkCommentOptions(o: CommentOptions): void {
  if (!Number.isInteger(o.top) || o.top < 1 || o.top > MAX_COMMENT_TOP) throw new IssuelocError(`top takes a whole number from 1 to ${MAX_COMMENT_TOP}, got '${o.top}'`);
  if (!Number.isInteger(o.maxCommentChars) || o.maxCommentChars < MIN_COMMENT_CHARS || o.maxCommentChars > GITHUB_MAX_COMMENT_CHARS) {
    throw new IssuelocError(`max comment size takes a whole number from ${MIN_COMMENT_CHARS} to ${GITHUB_MAX_COMMENT_CHARS}, got '${o.maxCommentChars}'`);
  }
  if (o.optOutLabel.length > MAX_LABEL_CHARS) throw new IssuelocError(`opt-out label is longer than ${MAX_LABEL_CHARS} characters: '${o.optOutLabel.slice(0, 60)}…'`);
  if (o.levels.length === 0) throw new IssuelocError('no level to show: give file, module, function or all');
  for (const [name, url] of [['API URL', o.apiUrl], ['server URL', o.serverUrl]] as const) {
    if (!/^https?:\/\/[^\s]+$/.test(url)) throw new IssuelocError(`GitHub ${name} '${url}' is not an http(s) URL`);
  }
}
