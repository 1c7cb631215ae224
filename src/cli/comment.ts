import { Command, Option } from 'commander';
import { GITHUB_MAX_COMMENT_CHARS, LEVELS, MIN_COMMENT_CHARS, type Level } from '../forge/comment-body.js';
import { commentOnIssue, MAX_COMMENT_TOP } from '../forge/comment-on-issue.js';
import { DEFAULT_OPT_OUT_LABEL } from '../forge/github-event.js';
import { IssuelocError } from '../errors.js';
import { wholeOption } from './options.js';
import { requireParts } from '../util/optional-packages.js';

/**
 * `issueloc comment`: on a GitHub `issues` event (opened or edited), post or edit one comment
 * with the top files, modules and functions, linked to their lines at the checked-out commit.
 * Reads the Actions environment (GITHUB_EVENT_PATH, GITHUB_EVENT_NAME, GITHUB_REPOSITORY,
 * GITHUB_API_URL, GITHUB_SERVER_URL, GITHUB_TOKEN); flags override it. Prints what it did, one
 * line; exit 0 when it commented or skipped the event, 2 for bad input or a failed GitHub call.
 */
export function registerCommentCommand(program: Command): void {
  program
    .command('comment')
    .description('GitHub Actions: post or update the issueloc comment on an opened or edited issue (docs/github-action.md)')
    .option('--event <file>', 'the event payload (default: GITHUB_EVENT_PATH)')
    .option('--event-name <name>', 'the event name (default: GITHUB_EVENT_NAME; unset: told by the payload)')
    .option('--repo <path>', 'the checked-out git repository', '.')
    .addOption(new Option('--rev <rev>', 'base commit to rank').default('HEAD', 'HEAD, the checked-out commit'))
    .option('--repository <owner/name>', 'the GitHub repository (default: GITHUB_REPOSITORY, else the payload\'s)')
    .option('--api-url <url>', 'REST API root (default: GITHUB_API_URL, else https://api.github.com)')
    .option('--server-url <url>', 'web root for the links (default: GITHUB_SERVER_URL, else https://github.com)')
    .addOption(new Option('--level <level>', 'which rankings to show').choices([...LEVELS, 'all']).default('all'))
    .option('--top <n>', `items per level (at most ${MAX_COMMENT_TOP})`, wholeOption('--top', 1, MAX_COMMENT_TOP), 5)
    .option('--model <model>', 'the learned model: "default" (the built-in one), a file written by issueloc train, or "none" (lexical ranking only)', 'default')
    .option('--opt-out-label <label>', 'issues with this label get no comment ("" for none)', DEFAULT_OPT_OUT_LABEL)
    .option('--max-comment-chars <n>', `size cap of the comment (${MIN_COMMENT_CHARS} to ${GITHUB_MAX_COMMENT_CHARS})`, wholeOption('--max-comment-chars', MIN_COMMENT_CHARS, GITHUB_MAX_COMMENT_CHARS), GITHUB_MAX_COMMENT_CHARS)
    .option('--cache-dir <dir>', 'index cache folder (default: ISSUELOC_CACHE_DIR, else ~/.cache/issueloc/<name>-<hash>)')
    .action(async (o) => {
      requireParts('comment', 'comment');
      const env = process.env;
      const eventPath = o.event ?? env.GITHUB_EVENT_PATH;
      if (!eventPath) throw new IssuelocError('no event: give --event FILE or set GITHUB_EVENT_PATH');
      await commentOnIssue({
        eventPath, eventName: o.eventName ?? (env.GITHUB_EVENT_NAME || undefined),
        repoPath: o.repo, rev: o.rev, repository: o.repository ?? (env.GITHUB_REPOSITORY || undefined),
        token: env.GITHUB_TOKEN || undefined,
        apiUrl: o.apiUrl ?? (env.GITHUB_API_URL || 'https://api.github.com'),
        serverUrl: o.serverUrl ?? (env.GITHUB_SERVER_URL || 'https://github.com'),
        levels: o.level === 'all' ? LEVELS : [o.level as Level], top: o.top, model: o.model,
        optOutLabel: o.optOutLabel, maxCommentChars: o.maxCommentChars, cacheDir: o.cacheDir,
        onInfo: (m) => process.stdout.write(`issueloc: ${m}\n`),
        onWarning: (m) => process.stderr.write(`issueloc: warning: ${m}\n`),
      });
    });
}
