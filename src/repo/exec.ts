import { spawn } from 'node:child_process';

/**
 * Environment variables that would make git look at another repository than the one we name
 * (set, for example, when issueloc runs inside a git hook). They are removed for every git we spawn.
 */
const REPOSITORY_ENV = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX',
];

/** Options common to every git command we run: paths printed raw (UTF-8, no octal quoting). */
export const GIT_CONFIG_ARGS = ['-c', 'core.quotepath=off'];

/**
 * The environment for spawned git processes: ours minus the variables in {@link REPOSITORY_ENV},
 * with pathspecs read literally (`GIT_LITERAL_PATHSPECS=1`: a path after `--` names that one file,
 * even when it holds `*`, `?`, `[` or starts with `:`).
 */
export function gitEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of REPOSITORY_ENV) delete env[name];
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_LITERAL_PATHSPECS = '1';
  return env;
}

/** Outcome of one git command: exit code, raw stdout bytes, stderr text. */
export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs `git -c core.quotepath=off <args>` and collects its output (no size limit).
 *
 * Never throws for a non-zero exit: the caller reads `code` and `stderr` and words the error
 * (naming its own input). Rejects only when git cannot be started at all (e.g. not installed).
 *
 * @param args git arguments after the global options, e.g. `['--git-dir=/r/.git', 'ls-tree', …]`.
 * @param cwd working directory of the process (default: ours).
 */
export function runGit(args: string[], cwd?: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_CONFIG_ARGS, ...args], {
      cwd, env: gitEnv(), stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** The last non-empty line of git's stderr, without git's `fatal: ` / `error: ` prefix. */
export function gitReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  const last = lines[lines.length - 1] ?? '';
  return last.replace(/^(fatal|error): /, '');
}
