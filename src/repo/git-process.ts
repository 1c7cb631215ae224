/**
 * The one place issueloc starts git. Every git process gets the same global options
 * (`-c core.quotepath=off`: paths printed raw) and environment ({@link gitEnv}); a git that
 * cannot start, exits non-zero or prints too much is reported by one rule ({@link gitFailure}):
 * an {@link IssuelocError} naming the git command, the repository and the first line of git's
 * complaint.
 *
 * - {@link runGit}: run to the end, collect stdout (bounded); the caller reads the exit code.
 * - {@link gitText}: the same, failing on a non-zero exit; stdout as UTF-8 text.
 * - {@link streamGit}: stdout handed over chunk by chunk (long logs), failing on a non-zero exit.
 * - {@link spawnGit}: a long-lived process the caller talks to (`git cat-file --batch`).
 *
 * Every git started is known until it exits: when this process (or worker thread) exits, those
 * still running are killed ({@link killGitProcesses}), so no git outlives issueloc.
 */
import type { ChildProcess, ChildProcessByStdio } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
import { IssuelocError } from '../errors.js';

let childProcesses: typeof import('node:child_process') | undefined;

/**
 * node:child_process, loaded when the first git starts: a warm `localize` call starts none (its
 * repository, revision and index read from files), so it loads neither it nor the net and dgram
 * modules under it (≈ 7 ms of CPU).
 */
function childProcess(): typeof import('node:child_process') {
  return (childProcesses ??= createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process'));
}

/**
 * Environment variables that would make git look at another repository than the one we name
 * (set, for example, when issueloc runs inside a git hook). They are removed for every git we spawn.
 */
export const REPOSITORY_ENV: readonly string[] = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX',
];

/** A graft file no git finds (a path under a file: ENOTDIR, which git passes over without a word). */
const NO_GRAFT_FILE = '/dev/null/grafts';

/** Options common to every git command we run: paths printed raw (UTF-8, no octal quoting). */
const GIT_CONFIG_ARGS = ['-c', 'core.quotepath=off'];

/** Default cap on the stdout {@link runGit} collects: 256 MiB. */
export const MAX_GIT_OUTPUT_BYTES = 256 << 20;

/** How much of git's stderr is kept for the error message (its beginning). */
const STDERR_KEPT = 4000;

/**
 * The environment for spawned git processes: ours minus the variables in {@link REPOSITORY_ENV},
 * no terminal prompt, neither replacement objects nor grafts read (`GIT_NO_REPLACE_OBJECTS=1`,
 * `GIT_GRAFT_FILE` a path that cannot exist: a commit's SHA names its own tree, blobs and parents,
 * whatever `refs/replace/` or the deprecated `info/grafts` hold now, as the index and history
 * cached under that SHA do), and pathspecs read literally (`GIT_LITERAL_PATHSPECS=1`: a path after `--`
 * names that one file, even when it holds `*`, `?`, `[` or starts with `:`). `buffered`: output in
 * full buffers (`GIT_FLUSH=0`) instead of a flush per record, which `git log` and `rev-list` do on
 * a pipe (a `git log` of 60k commits in 30k writes of 500 bytes, each a read and a stream event
 * here); only for a git whose stdin is given whole at its start, which never waits for a reply.
 */
function gitEnv(buffered: boolean): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of REPOSITORY_ENV) delete env[name];
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_NO_REPLACE_OBJECTS = '1';
  env.GIT_GRAFT_FILE = NO_GRAFT_FILE;
  env.GIT_LITERAL_PATHSPECS = '1';
  if (buffered) env.GIT_FLUSH = '0';
  else delete env.GIT_FLUSH;
  return env;
}

/** A git process talked to through its stdin, stdout and stderr. */
export type GitProcess = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Starts `git -c core.quotepath=off <args>` (the only `spawn('git', …)` of issueloc).
 * @param args git arguments after the global options, e.g. `['--git-dir=/r/.git', 'cat-file', '--batch']`.
 * @param stdin `'pipe'` to write to git, `'ignore'` for an empty stdin.
 * @param buffered git's output in full buffers, not flushed per record (see gitEnv): only when
 *   all of stdin is written at once, never for a conversation.
 */
export function spawnGit(args: readonly string[], stdin: 'pipe', buffered?: boolean): GitProcess;
export function spawnGit(args: readonly string[], stdin: 'ignore', buffered?: boolean): ChildProcessByStdio<null, Readable, Readable>;
export function spawnGit(args: readonly string[], stdin: 'pipe' | 'ignore', buffered = false): ChildProcessByStdio<Writable | null, Readable, Readable> {
  const argv = [...GIT_CONFIG_ARGS, ...args];
  const env = gitEnv(buffered);
  const child = stdin === 'pipe'
    ? childProcess().spawn('git', argv, { env, stdio: ['pipe', 'pipe', 'pipe'] })
    : childProcess().spawn('git', argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  return child;
}

/** The git processes started and not yet exited. */
const live = new Set<ChildProcess>();
let exitHooked = false;

function track(child: ChildProcess): void {
  if (child.pid === undefined) return; // not started: its 'error' event tells
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', killGitProcesses);
  }
}

/** git processes of this process (or worker thread) still running. */
export function liveGitProcesses(): number {
  return live.size;
}

/**
 * Kills (SIGKILL) every git this process started that still runs. Called on exit; a server
 * shutting down may call it earlier. @returns how many were killed.
 */
export function killGitProcesses(): number {
  let n = 0;
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')) n++;
  }
  live.clear();
  return n;
}

/** Outcome of one git command: exit code (1 when ended by a signal), raw stdout bytes, stderr text. */
export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Options of {@link runGit}, {@link gitText} and {@link streamGit}. */
export interface GitOptions {
  /** How errors name the repository (the path the user gave); default: the `-C` / `--git-dir` argument. */
  repo?: string;
  /** Text written to git's stdin, which is then closed; without it git's stdin is empty. */
  input?: string;
  /** {@link runGit}, {@link gitText}: stdout bytes collected at most (default {@link MAX_GIT_OUTPUT_BYTES}). */
  maxBytes?: number;
  /** Time git may run, in milliseconds (default unbounded); past it git is killed and the call fails. */
  timeoutMs?: number;
}

/**
 * The first line of git's complaint, without its `fatal: ` / `error: ` prefix: the first line
 * so marked, else the first non-empty line (git prints hints after the reason).
 */
export function gitReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
  const line = lines.find((l) => /^(fatal|error): /.test(l)) ?? lines[0] ?? '';
  const reason = line.replace(/^(fatal|error): /, '');
  return reason.length > 300 ? `${reason.slice(0, 300)}…` : reason;
}

/** The git subcommand of an argument list (skipping global options and their values). */
function subcommand(args: readonly string[]): string {
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '-c' || args[k] === '-C') k++;
    else if (!args[k].startsWith('-')) return args[k];
  }
  return '';
}

/** The repository named in errors: `options.repo`, else the `-C` or `--git-dir` argument. */
function repoOf(args: readonly string[], options: GitOptions): string {
  if (options.repo !== undefined) return options.repo;
  const c = args.indexOf('-C');
  if (c >= 0 && c + 1 < args.length) return args[c + 1];
  const dir = args.find((a) => a.startsWith('--git-dir='));
  return dir ? dir.slice('--git-dir='.length) : process.cwd();
}

/**
 * The error for a git that exited non-zero (or was ended by a signal):
 * `git <subcommand> failed in <repo> (exit N): <first line of git's complaint>`.
 */
export function gitFailure(args: readonly string[], outcome: { code: number | null; signal?: NodeJS.Signals | null; stderr: string }, options: GitOptions = {}): IssuelocError {
  const status = outcome.code === null ? `signal ${outcome.signal ?? '?'}` : `exit ${outcome.code}`;
  const reason = gitReason(outcome.stderr);
  return new IssuelocError(`git ${subcommand(args)} failed in ${repoOf(args, options)} (${status})${reason ? `: ${reason}` : ''}`);
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs git to its end, handing each stdout chunk to `onChunk`. Never rejects for the exit status.
 * @throws IssuelocError when git cannot be started; whatever `onChunk` throws (git is then killed).
 */
function run(args: readonly string[], options: GitOptions, onChunk: (chunk: Buffer) => void): Promise<Exit> {
  return new Promise((resolve, reject) => {
    // stdin is given whole (or empty) at once: git's output can come in full buffers
    const child = options.input === undefined ? spawnGit(args, 'ignore', true) : spawnGit(args, 'pipe', true);
    let stderr = '';
    let failed: unknown = null;
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
      if (failed !== null) return;
      failed = new IssuelocError(`git ${subcommand(args)} in ${repoOf(args, options)} took longer than ${seconds(options.timeoutMs!)}: stopped`);
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (stderr.length < STDERR_KEPT) stderr = (stderr + d).slice(0, STDERR_KEPT);
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
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // EPIPE when git exits before reading all: its exit status tells
      child.stdin.end(options.input);
    }
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new IssuelocError(`cannot run git ${subcommand(args)} in ${repoOf(args, options)}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failed !== null) reject(failed);
      else resolve({ code, signal, stderr });
    });
  });
}

/**
 * Runs `git -c core.quotepath=off <args>` and collects its stdout.
 *
 * Never throws for a non-zero exit: the caller reads `code` and `stderr` and words the error (or
 * uses {@link gitText} / {@link gitFailure}).
 * @param args git arguments after the global options, e.g. `['--git-dir=/r/.git', 'ls-tree', …]`.
 * @throws IssuelocError when git cannot be started, or prints more than `options.maxBytes` (git is
 *   then stopped).
 */
export async function runGit(args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const max = options.maxBytes ?? MAX_GIT_OUTPUT_BYTES;
  const chunks: Buffer[] = [];
  let bytes = 0;
  const exit = await run(args, options, (chunk) => {
    bytes += chunk.length;
    if (bytes > max) throw new IssuelocError(`git ${subcommand(args)} in ${repoOf(args, options)} printed more than ${max} bytes`);
    chunks.push(chunk);
  });
  return { code: exit.code ?? 1, stdout: Buffer.concat(chunks), stderr: exit.stderr };
}

/**
 * {@link runGit}, failing unless git exits with status 0; stdout as UTF-8 text.
 * @throws IssuelocError as {@link runGit}, and {@link gitFailure} for a non-zero exit.
 */
export async function gitText(args: readonly string[], options: GitOptions = {}): Promise<string> {
  const res = await runGit(args, options);
  if (res.code !== 0) throw gitFailure(args, res, options);
  return res.stdout.toString('utf8');
}

/**
 * Runs git, streaming stdout to `onChunk` (no bound: the consumer keeps what it needs).
 *
 * @returns when git has exited with status 0 and all stdout has been handed to `onChunk`.
 * @throws IssuelocError when git cannot be started, and {@link gitFailure} for a non-zero exit
 *   (so a stream is never silently truncated); whatever `onChunk` throws (git is then killed).
 */
export async function streamGit(args: readonly string[], onChunk: (chunk: Buffer) => void, options: GitOptions = {}): Promise<void> {
  const exit = await run(args, options, onChunk);
  if (exit.code !== 0) throw gitFailure(args, exit, options);
}
