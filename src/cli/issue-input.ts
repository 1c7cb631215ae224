import { createReadStream } from 'node:fs';
import { IssuelocError } from '../errors.js';
import { hasLetterOrDigit } from '../text/parsed-issue.js';
import { readSingleIssue, type SingleIssue, type SingleIssueFormat } from '../issues/single-issue.js';
import { formatBytes, readStreamAtMost, type BoundedRead } from '../util/read-bounded.js';

/** Default cap on the issue text: 1 MiB (`--max-issue-bytes`). */
export { DEFAULT_MAX_ISSUE_BYTES } from '../pipeline/check-options.js';
import { DEFAULT_MAX_ISSUE_BYTES } from '../pipeline/check-options.js';
import { whyUnreadable } from '../util/file-errors.js';

/** Where the issue comes from and how it is read (the parsed `localize` options). */
export interface IssueInputOptions {
  issue?: string;
  issueFile?: string;
  /** Most bytes of issue text read (default {@link DEFAULT_MAX_ISSUE_BYTES}). */
  maxIssueBytes?: number;
  /** Plain text or JSON of a GitHub or Jira issue (default `auto`). */
  issueFormat?: SingleIssueFormat;
}

/** The issue as read: its search text, the format it was read as, and its source for messages. */
export interface IssueInput extends SingleIssue {
  source: string;
}

/**
 * The issue from `--issue TEXT`, `--issue-file PATH` (`-` for stdin) or, when neither is given
 * and stdin is not a terminal, from stdin. At most `maxIssueBytes` are read (and one more to
 * tell an issue that is too big), so `/dev/zero` or an endless pipe stops at once. The text is
 * then read as plain text or as a GitHub/Jira issue object (`readSingleIssue`).
 * @throws IssuelocError naming the source when it is missing, unreadable, over the cap, not the
 *   issue format asked for, or has no words; and when both `--issue` and `--issue-file` are given.
 */
export async function readIssueInput(opts: IssueInputOptions): Promise<IssueInput> {
  if (opts.issue !== undefined && opts.issueFile !== undefined) {
    throw new IssuelocError('give the issue once: --issue TEXT or --issue-file PATH, not both');
  }
  const max = opts.maxIssueBytes ?? DEFAULT_MAX_ISSUE_BYTES;
  let read: BoundedRead;
  let source: string;
  let named: string;
  if (opts.issue !== undefined) {
    source = named = '--issue';
    const bytes = Buffer.from(opts.issue, 'utf8');
    read = bytes.length > max ? { over: true } : { over: false, bytes };
  } else if (opts.issueFile !== undefined && opts.issueFile !== '-') {
    source = opts.issueFile;
    named = `issue file ${opts.issueFile}`;
    try {
      // read asynchronously: a FIFO with no writer yet (`<(slow command)`) then blocks a worker
      // thread, not the event loop, so Ctrl-C and SIGTERM still end the process
      read = await readStreamAtMost(createReadStream(opts.issueFile), max);
    } catch (e) {
      throw new IssuelocError(`cannot read issue file ${opts.issueFile}: ${whyUnreadable(e)}`);
    }
  } else if (opts.issueFile === '-' || !process.stdin.isTTY) {
    source = 'stdin';
    named = 'issue on stdin';
    try {
      read = await readStreamAtMost(process.stdin, max);
    } catch (e) {
      throw new IssuelocError(`cannot read the issue from stdin: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  } else {
    throw new IssuelocError('no issue given: use --issue TEXT, --issue-file PATH, or pipe the issue text to stdin');
  }
  if (read.over) throw new IssuelocError(`${named}: over ${formatBytes(max)} (--max-issue-bytes)`);
  const raw = read.bytes.toString('utf8').replace(/^\uFEFF/, '');
  const issue = readSingleIssue(raw, opts.issueFormat ?? 'auto', source);
  if (!hasLetterOrDigit(issue.text)) throw new IssuelocError(`empty issue text (from ${source}): nothing to search for`);
  return { ...issue, source };
}
