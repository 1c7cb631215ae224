/**
 * Running git for the history walker: one process per call, exit status always checked, stderr
 * kept for the error message. Plain `git -C <repo>` so bare and non-bare repositories both work;
 * environment and quoting as every git we spawn (`./exec.ts`).
 */
import { spawn } from 'node:child_process';
import { IssuelocError } from '../errors.js';
import { GIT_CONFIG_ARGS, gitEnv } from './exec.js';

/** The last `max` characters of `text`, on one line. */
function tailOf(text: string, max = 300): string {
  const t = text.trim().replace(/\s*\n\s*/g, ' | ');
  return t.length > max ? `…${t.slice(t.length - max)}` : t;
}

/** The git subcommand of an argument list (skipping `-c name=value` pairs). */
function subcommand(args: readonly string[]): string {
  return args.find((a, k) => !a.startsWith('-') && args[k - 1] !== '-c') ?? '';
}

/**
 * Runs `git -C repo ...args`, streaming stdout to `onChunk`.
 *
 * @returns when git has exited with status 0 and all stdout has been handed to `onChunk`.
 * @throws IssuelocError naming the repository, the git subcommand and git's stderr when git cannot
 *   be started or exits with a non-zero status (so a history is never silently truncated);
 *   any error thrown by `onChunk` (git is then killed).
 */
export function streamGit(repo: string, args: readonly string[], onChunk: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_CONFIG_ARGS, '-C', repo, ...args], { env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let failed: unknown = null;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      stderr = (stderr + d).slice(-4000);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (failed !== null) return;
      try {
        onChunk(chunk);
      } catch (e) {
        failed = e;
        child.kill();
      }
    });
    child.on('error', (e) => reject(new IssuelocError(`cannot run git in ${repo}: ${e.message}`)));
    child.on('close', (code, signal) => {
      if (failed !== null) reject(failed);
      else if (code !== 0) {
        reject(new IssuelocError(`git ${subcommand(args)} failed in ${repo} (${code === null ? `signal ${signal}` : `exit ${code}`}): ${tailOf(stderr)}`));
      } else resolve();
    });
  });
}

/**
 * Runs `git -C repo ...args` and returns its whole stdout as UTF-8 text.
 *
 * @throws IssuelocError as {@link streamGit}.
 */
export async function runGit(repo: string, args: readonly string[]): Promise<string> {
  const chunks: Buffer[] = [];
  await streamGit(repo, args, (c) => chunks.push(c));
  return Buffer.concat(chunks).toString('utf8');
}
