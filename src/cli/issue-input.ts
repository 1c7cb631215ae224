import { readFileSync } from 'node:fs';
import { IssuelocError } from '../errors.js';

/**
 * The issue text from `--issue TEXT`, `--issue-file PATH` (`-` for stdin) or, when neither is
 * given and stdin is not a terminal, from stdin.
 * @throws IssuelocError naming the source when it is missing, unreadable or has no words, and
 *   when both `--issue` and `--issue-file` are given.
 */
export function readIssueText(opts: { issue?: string; issueFile?: string }): { text: string; source: string } {
  if (opts.issue !== undefined && opts.issueFile !== undefined) {
    throw new IssuelocError('give the issue once: --issue TEXT or --issue-file PATH, not both');
  }
  let text: string;
  let source: string;
  if (opts.issue !== undefined) {
    text = opts.issue;
    source = '--issue';
  } else if (opts.issueFile !== undefined && opts.issueFile !== '-') {
    source = opts.issueFile;
    try {
      text = readFileSync(opts.issueFile, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : code ?? (e as Error).message;
      throw new IssuelocError(`cannot read issue file ${opts.issueFile}: ${why}`);
    }
  } else if (opts.issueFile === '-' || !process.stdin.isTTY) {
    source = 'stdin';
    text = readFileSync(0, 'utf8');
  } else {
    throw new IssuelocError('no issue given: use --issue TEXT, --issue-file PATH, or pipe the issue text to stdin');
  }
  if (!/[A-Za-z0-9]/.test(text)) throw new IssuelocError(`empty issue text (from ${source}): nothing to search for`);
  return { text, source };
}
