/**
 * The GitHub Actions event that `issueloc comment` acts on: read from the event file
 * (`GITHUB_EVENT_PATH`), checked, and judged (an `issues` event opened or edited, not by a bot,
 * without the opt-out label) before anything is indexed or sent.
 */
import { IssuelocError } from '../errors.js';
import { readFileAtMost } from '../util/read-bounded.js';
import { whyUnreadable } from '../util/file-errors.js';

/** Largest event file read (GitHub's payloads are far smaller: an issue body is at most 65 536 characters). */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;

/** The issue actions that get a comment. */
export const COMMENTED_ACTIONS: readonly string[] = ['opened', 'edited'];

/** Default label that keeps issueloc off an issue. */
export const DEFAULT_OPT_OUT_LABEL = 'issueloc:skip';

/** What the command needs of an `issues` event. */
export interface IssueEvent {
  /** The event's `action` (`opened`, `edited`, `labeled` …); '' when the payload has none. */
  action: string;
  /** `owner/name` of the repository in the payload, when there. */
  repository?: string;
  issue: {
    number: number;
    title: string;
    /** The issue body ('' for none). */
    body: string;
    /** The author's login and account type (`User`, `Bot`, `Organization`). */
    author: { login: string; type: string };
    labels: string[];
    /** The issue is a pull request (an `issue_comment` payload on a PR). */
    isPullRequest: boolean;
  };
}

/**
 * Reads and checks the event file of an `issues` event.
 * @throws IssuelocError (exit 2) naming the file: unreadable, not JSON, too large, or without an
 *   issue with a number and a title.
 */
export function readIssueEvent(path: string): IssueEvent | undefined {
  let read;
  try {
    read = readFileAtMost(path, MAX_EVENT_BYTES);
  } catch (e) {
    throw new IssuelocError(`cannot read the event file ${path}: ${whyUnreadable(e)}`);
  }
  if (read.over) throw new IssuelocError(`the event file ${path} is larger than ${MAX_EVENT_BYTES} bytes`);
  let payload: unknown;
  try {
    payload = JSON.parse(read.bytes.toString('utf8'));
  } catch (e) {
    throw new IssuelocError(`the event file ${path} is not JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  return parseIssueEvent(payload, `the event file ${path}`);
}

/**
 * The issue event of a parsed payload, or undefined when it holds no issue (another event).
 * @param source names the payload in messages.
 * @throws IssuelocError (exit 2) for an issue without a number, a title or an author.
 */
export function parseIssueEvent(payload: unknown, source: string): IssueEvent | undefined {
  if (!isObject(payload)) throw new IssuelocError(`${source} holds no JSON object`);
  const issue = payload.issue;
  if (issue === undefined) return undefined;
  if (!isObject(issue)) throw new IssuelocError(`${source}: "issue" is not an object`);
  const { number, title, body, user, labels } = issue;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) throw new IssuelocError(`${source}: issue.number is not a positive whole number`);
  if (typeof title !== 'string') throw new IssuelocError(`${source}: issue.title is not a string`);
  if (body !== undefined && body !== null && typeof body !== 'string') throw new IssuelocError(`${source}: issue.body is not a string`);
  if (!isObject(user) || typeof user.login !== 'string') throw new IssuelocError(`${source}: issue.user.login is missing`);
  const repo = isObject(payload.repository) && typeof payload.repository.full_name === 'string' ? payload.repository.full_name : undefined;
  return {
    action: typeof payload.action === 'string' ? payload.action : '',
    ...(repo ? { repository: repo } : {}),
    issue: {
      number, title, body: body ?? '',
      author: { login: user.login, type: typeof user.type === 'string' ? user.type : 'User' },
      labels: Array.isArray(labels) ? labels.map((l) => (isObject(l) ? l.name : l)).filter((l): l is string => typeof l === 'string') : [],
      isPullRequest: issue.pull_request !== undefined && issue.pull_request !== null,
    },
  };
}

/**
 * Why the event gets no comment (a one-line notice), or undefined when it gets one.
 * @param eventName the event's name (`GITHUB_EVENT_NAME`; undefined: told by the payload alone).
 */
export function skipReason(eventName: string | undefined, event: IssueEvent | undefined, optOutLabel: string): string | undefined {
  if (eventName !== undefined && eventName !== 'issues') return `event '${eventName}' is not an issues event: nothing to do`;
  if (!event) return 'the event holds no issue: nothing to do';
  if (event.issue.isPullRequest) return `#${event.issue.number} is a pull request: nothing to do`;
  if (!COMMENTED_ACTIONS.includes(event.action)) return `issues action '${event.action}' is neither ${COMMENTED_ACTIONS.join(' nor ')}: nothing to do`;
  const { login, type } = event.issue.author;
  if (type === 'Bot' || login.endsWith('[bot]')) return `#${event.issue.number} was opened by the bot ${login}: skipped`;
  if (optOutLabel !== '' && event.issue.labels.includes(optOutLabel)) return `#${event.issue.number} has the label '${optOutLabel}': skipped`;
  return undefined;
}

/** The text ranked for an issue: the title on the first line, then the body. */
export function issueText(event: IssueEvent): string {
  return event.issue.body === '' ? event.issue.title : `${event.issue.title}\n${event.issue.body}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
