/**
 * Which commits fix a defect: the keyword heuristic of Mockus & Votta (2000), "Identifying reasons
 * for software changes using historic databases" (ICSM), as used by Śliwerski, Zimmermann & Zeller
 * (2005), "When do changes induce fixes?" (MSR, SZZ step 1) and by Kim et al. (2007), "Predicting
 * faults from cached history" (ICSE, FixCache): a commit is a fix when its message names a defect
 * by keyword or by an issue key.
 */

/** Defect keywords, matched as whole words in the subject (first line) of the message. */
const FIX_WORDS = /\b(fix(e[sd])?|fixing|bug(s|fix(es)?)?|hotfix(es)?|defects?|regressions?|crash(es)?|patch(ed)?)\b/i;

/**
 * Issue keys that mark a fix: closing phrases anywhere (`fixes #12`, `closes gh-12`, Django's
 * `Fixed #12345 --`, `resolves owner/repo#3`), and Jira keys (`MNG-1234`, `[TOMCAT-12]`) or a
 * Bugzilla `bug 12345` in the subject. A bare pull-request number (`Add foo (#1234)`) is not a
 * fix: squash merges put one on every commit.
 */
const CLOSING = /\b(fix(e[sd])?|close[sd]?|resolve[sd]?|refs?)\b[:\s]+([\w.-]+\/[\w.-]+)?(#|gh-)\d+/i;
const JIRA_KEY = /\b[A-Z][A-Z0-9]+-[1-9][0-9]*\b/;
const BUGZILLA = /\bbug\s*#?\s*[1-9][0-9]{2,}\b/i;

/**
 * Whether a commit message describes a fix (see the file comment for the rule and sources).
 * @param message the raw commit message (subject and body); any string.
 * @returns true for a fix commit.
 */
export function isFixCommit(message: string): boolean {
  const nl = message.indexOf('\n');
  const subject = nl < 0 ? message : message.slice(0, nl);
  return FIX_WORDS.test(subject) || JIRA_KEY.test(subject) || BUGZILLA.test(subject) || CLOSING.test(message);
}
