/**
 * Which commit messages make pseudo-issues (the message filters of the commit miner,
 * `commit-miner.ts`; docs/dataset.md "Pseudo-issues from commits"). In the spirit of SweLoc
 * (SweRank, Reddy et al. 2025), which keeps pull requests whose description says what was wrong or
 * wanted: a message is left out when a bot wrote it, when it reverts, bumps a version, reformats
 * or fixes typos, or when it holds too few words to be an issue.
 */

/** Why a message makes no pseudo-issue (see {@link messageVerdict}). */
export type MessageReason = 'bot' | 'revert' | 'version-bump' | 'formatting' | 'typo' | 'short-message';

/** Authors that are bots: `[bot]` accounts, dependabot, renovate, pre-commit.ci, GitHub Actions. */
const BOT_AUTHOR = /\[bot\]|\bdependabot\b|\brenovate\b|\bpre-commit-ci\b|\bgithub-actions\b|\bweblate\b|\btransifex\b|^bot\b|\bbot@|noreply\.bot/i;
/** Reverts: `Revert "…"`, `Reverted …`, or git's `This reverts commit <sha>` line. */
const REVERT = /^\s*(\[[^\]]*\]\s*)?revert(ed|s|ing)?\b|^this reverts commit [0-9a-f]{7,}/im;
/** Version bumps and releases, judged on the subject. */
const VERSION_BUMP = /^\s*(\[[^\]]*\]\s*)?(bump(ed|s)?\b|(prepare[sd]?\s+(for\s+)?)?release[sd]?\s+v?\d|releasing\b|(update[sd]?|increment(ed)?|set)\s+(the\s+)?version|version\s+(bump|\d)|v?\d+(\.\d+)+\s*$|post-release|back to development)/i;
/** Formatting-only changes, judged on the subject. */
const FORMATTING = /\b(re-?format(ted|ting|s)?|format(ted)?\s+(the\s+)?(code|files?|sources?)|(with|using|run|ran|apply|applied|by)\s+(black|isort|prettier|clang-format|gofmt|autopep8|yapf|ruff)|pep\s?8|flake8|pyflakes|lint(ing|er)?\s+(fix|error|warning|issue)s?|(fix(ed|es)?|clean(ed)?\s*up|remove[sd]?)\s+(trailing\s+)?white\s?space|white\s?space\s+(fix|change|cleanup)s?|trailing\s+(white\s?)?spaces?|(fix(ed)?|correct(ed)?)\s+indentation|code\s+style|style\s+(fix|change|cleanup)s?|sort(ed)?\s+imports?|unused\s+imports?)\b/i;
/** Typo and spelling fixes, judged on the subject. */
const TYPO = /\b(typos?|spelling|misspell(ed|ing|ings)?|grammar)\b/i;
/** A word as the length rule counts it: two or more Latin letters (so a CJK sentence is not several words). */
const WORD = /[A-Za-z][A-Za-z'-]+/g;

/** Trailer and tool lines that say nothing about the change (removed from the body). */
const NOISE_LINE = /^\s*((signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|cc|change-id|reviewed-on|pr-url|git-svn-id|backport-of)\s*:.*|\(cherry picked from commit [0-9a-f]+\))\s*$/i;

/**
 * The message rules themselves as text: part of the miner's cache key, so a cache filled under
 * other rules is never read.
 */
export const MESSAGE_RULES = [BOT_AUTHOR, REVERT, VERSION_BUMP, FORMATTING, TYPO, WORD, NOISE_LINE].map((r) => r.source).join('\n');

/** A commit message split as a pseudo-issue: subject (title) and body (trailers removed). */
export interface SplitMessage {
  subject: string;
  body: string;
}

/**
 * The subject (first non-empty line) and body (the rest, without sign-off, co-author, review,
 * Change-Id, git-svn-id and cherry-pick lines, trimmed) of a raw commit message.
 */
export function splitMessage(message: string): SplitMessage {
  const lines = message.replace(/\r\n?/g, '\n').split('\n');
  let k = 0;
  while (k < lines.length && lines[k].trim() === '') k++;
  const subject = (lines[k] ?? '').trim();
  const body = lines.slice(k + 1).filter((l) => !NOISE_LINE.test(l)).join('\n').trim();
  return { subject, body };
}

/**
 * Whether a commit message can stand for an issue, and if not why (first rule that applies, in
 * the order of {@link MessageReason}):
 * - `bot`: the author (name and e-mail) is a bot ({@link BOT_AUTHOR});
 * - `revert`: the subject starts with revert, or the body has `This reverts commit …`;
 * - `version-bump`: the subject bumps or sets a version, prepares a release, or is a version number;
 * - `formatting`: the subject names a reformat, a formatter or linter, whitespace, code style or imports;
 * - `typo`: the subject names typos, spelling or grammar;
 * - `short-message`: subject and body hold fewer than `minWords` words of two or more Latin
 *   letters (empty messages, `wip`, `fix`, messages in a script without spaces).
 *
 * @param message the raw commit message.
 * @param author `Name <email>` of the commit's author ('' when unknown).
 * @param minWords fewest words the message must hold (≥ 1).
 * @returns undefined when the message is kept.
 */
export function messageVerdict(message: string, author: string, minWords: number): MessageReason | undefined {
  const { subject, body } = splitMessage(message);
  if (BOT_AUTHOR.test(author)) return 'bot';
  if (REVERT.test(subject) || REVERT.test(body)) return 'revert';
  if (VERSION_BUMP.test(subject)) return 'version-bump';
  if (FORMATTING.test(subject)) return 'formatting';
  if (TYPO.test(subject)) return 'typo';
  const words = (`${subject}\n${body}`.match(WORD) ?? []).length;
  if (words < minWords) return 'short-message';
  return undefined;
}
