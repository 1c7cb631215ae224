/**
 * The GitHub Action's entry (action.yml; bundled into action/bundle/index.mjs): the inputs and
 * the Actions environment into {@link commentOnIssue}, its outcome into outputs, errors into one
 * `::error::` line and the exit codes of the CLI (0 commented or skipped, 2 bad input or a failed
 * GitHub call, 3 internal failure).
 */
import * as core from '@actions/core';
import { IssuelocError } from '../errors.js';
import { GITHUB_MAX_COMMENT_CHARS, LEVELS, type Level } from './comment-body.js';
import { commentOnIssue } from './comment-on-issue.js';

/** A whole-number input. @throws IssuelocError naming the input. */
function wholeInput(name: string, fallback: number): number {
  const raw = core.getInput(name);
  if (raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new IssuelocError(`input '${name}' takes a whole number, got '${raw}'`);
  return n;
}

/** Runs the Action once; returns the exit code (also set as process.exitCode). */
export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const level = core.getInput('level') || 'all';
    if (level !== 'all' && !(LEVELS as readonly string[]).includes(level)) throw new IssuelocError(`input 'level' takes file, module, function or all, got '${level}'`);
    const model = core.getInput('model') || 'default';
    if (model !== 'default' && model !== 'none') throw new IssuelocError(`input 'model' takes default or none, got '${model}'`);
    const token = core.getInput('token') || env.GITHUB_TOKEN;
    if (token) core.setSecret(token);
    if (!env.GITHUB_EVENT_PATH) throw new IssuelocError('GITHUB_EVENT_PATH is not set: run this in a GitHub Actions workflow');
    const outcome = await commentOnIssue({
      eventPath: env.GITHUB_EVENT_PATH, eventName: env.GITHUB_EVENT_NAME || undefined,
      repoPath: core.getInput('path') || '.', repository: env.GITHUB_REPOSITORY || undefined, token,
      apiUrl: env.GITHUB_API_URL || 'https://api.github.com', serverUrl: env.GITHUB_SERVER_URL || 'https://github.com',
      levels: level === 'all' ? LEVELS : [level as Level], top: wholeInput('top', 5), model,
      // action.yml gives the default (DEFAULT_OPT_OUT_LABEL); '' turns the opt-out off
      optOutLabel: core.getInput('opt-out-label'),
      maxCommentChars: wholeInput('max-comment-size', GITHUB_MAX_COMMENT_CHARS),
      onInfo: (m) => core.info(`issueloc: ${m}`),
      onWarning: (m) => core.warning(`issueloc: ${m}`),
    });
    core.setOutput('result', outcome.result);
    core.setOutput('comment-url', outcome.result === 'skipped' ? '' : outcome.comment.url);
    core.setOutput('commit', outcome.result === 'skipped' ? '' : outcome.commit);
    process.exitCode = 0;
  } catch (e) {
    const bad = e instanceof IssuelocError;
    core.error(bad ? `issueloc: ${e.message}` : `issueloc: internal error: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
    if (!bad && env.ISSUELOC_DEBUG && e instanceof Error) core.debug(e.stack ?? '');
    process.exitCode = bad ? e.exitCode : 3;
  }
  return process.exitCode as number;
}
