/**
 * What a revision may look like before git sees it. issueloc asks for one commit, so a
 * revision that names several (`^HEAD`, `A..B`, `A...B`, `X^@`, `X^!`, `X^-`) is refused here, not
 * after git has resolved it to something that is not a commit id. A commit-message search
 * (`:/text`, `X^{/text}`) runs a regular expression over every message of the history: with
 * back-references that is exponential, so callers over the network may not send one
 * ({@link RevisionRules.messageSearch}).
 */
import { IssuelocError } from '../errors.js';

/** How a caller's revisions are checked. */
export interface RevisionRules {
  /** Accept `:/text` and `X^{/text}` (commit-message searches); false for remote callers. */
  messageSearch: boolean;
}

/** Rules for revisions from the command line: message searches allowed (under a time limit). */
export const LOCAL_REVISIONS: RevisionRules = { messageSearch: true };
/** Rules for revisions from a network request or a queued job: no message searches. */
export const REMOTE_REVISIONS: RevisionRules = { messageSearch: false };

/** The longest revision taken (a SHA-256 id is 64 characters; names a little longer). */
export const MAX_REVISION_LENGTH = 256;

/** Whether `rev` holds a commit-message search (`:/text` or `X^{/text}`). */
export function isMessageSearch(rev: string): boolean {
  return rev.startsWith(':/') || rev.includes('^{/');
}

/**
 * Why `rev` is refused before git sees it, or undefined when git may resolve it (the caller
 * appends `in <repository>`).
 */
export function revisionProblem(rev: string, rules: RevisionRules): string | undefined {
  const shown = `'${rev.length > 100 ? `${rev.slice(0, 100)}…` : rev}'`;
  if (rev.length === 0 || rev.startsWith('-') || /[\s\0]/.test(rev)) return `unknown revision ${shown}`;
  if (rev.length > MAX_REVISION_LENGTH) return `revision ${shown} is longer than ${MAX_REVISION_LENGTH} characters`;
  if (isMessageSearch(rev)) {
    return rules.messageSearch ? undefined : `revision ${shown} searches commit messages, which is not taken here: name the commit (a SHA, branch or tag)`;
  }
  if (rev.startsWith('^') || rev.includes('..') || /\^[!@]$|\^-\d*$/.test(rev)) {
    return `revision ${shown} names a range of commits, not one commit`;
  }
  return undefined;
}

/**
 * Throws when {@link revisionProblem} finds one.
 * @throws IssuelocError `<problem> in <repository>`.
 */
export function checkRevision(rev: unknown, rules: RevisionRules, repository: string): asserts rev is string {
  if (typeof rev !== 'string') throw new IssuelocError(`revision must be a string, got ${typeof rev}`);
  const problem = revisionProblem(rev, rules);
  if (problem !== undefined) throw new IssuelocError(`${problem} in ${repository}`);
}
