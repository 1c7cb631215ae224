/**
 * Running the built CLI as a user would (`node bin/issueloc.js …`) with every wait bounded: a run
 * past its time bound or its memory bound is killed (SIGKILL) and reported as such.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, CLI_NODE_ARGS, MEMORY_BOUND_MB } from './interface.js';

/** How one run ended. */
export interface RunResult {
  args: readonly string[];
  /** Exit code, or null when ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall-clock milliseconds from spawn to exit. */
  ms: number;
  /** Killed by us at its time bound. */
  timedOut: boolean;
  /** Killed by us above its memory bound. */
  overMemory: boolean;
  /** Killed by us on purpose (`killAfterMs`). */
  killedOnPurpose: boolean;
  /** Highest resident set size seen (MB; 0 when /proc is not there). */
  peakRssMb: number;
  /** Time bound of the run (ms). */
  boundMs: number;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Environment of the run (see {@link cliEnv}). */
  env: NodeJS.ProcessEnv;
  /** Kill the run after this many milliseconds and report it as timed out. */
  timeoutMs: number;
  cwd?: string;
  /** Bytes written to stdin (stdin is /dev/null otherwise). */
  input?: string | Buffer;
  /** Kill -9 the run after this many milliseconds, on purpose (not a failure). */
  killAfterMs?: number;
  /** Kill -9 the run `afterMs` milliseconds after `path` appears (polled every 10 ms), on purpose. */
  killWhen?: { path: string; afterMs: number };
  /** Memory bound (MB, default {@link MEMORY_BOUND_MB}). */
  maxRssMb?: number;
  /** Extra node options before the script (e.g. `--max-old-space-size=512`). */
  nodeArgs?: string[];
}

/** Captured output is cut beyond this (a run printing more is reported by its checks). */
const MAX_CAPTURE = 64 << 20;

/**
 * The environment of every run: no user configuration (a temporary HOME and XDG cache folder),
 * none of issueloc's environment variables, no API key, English messages.
 */
export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', TMPDIR: process.env.TMPDIR ?? tmpdir(),
  };
  return { ...env, ...extra };
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs `issueloc <args>`; never rejects (a failure to spawn is an exit code null with the reason on stderr). */
export function runCli(args: readonly string[], opts: RunOptions): Promise<RunResult> {
  return runCommand(process.execPath, [...CLI_NODE_ARGS, ...(opts.nodeArgs ?? []), BIN, ...args], args, opts);
}

function runCommand(cmd: string, argv: string[], args: readonly string[], opts: RunOptions): Promise<RunResult> {
  const t0 = performance.now();
  return new Promise((resolveRun) => {
    const child = spawn(cmd, argv, { cwd: opts.cwd, env: opts.env, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    child.stdout!.on('data', (d: Buffer) => { if (outBytes < MAX_CAPTURE) out.push(d); outBytes += d.length; });
    child.stderr!.on('data', (d: Buffer) => { if (errBytes < MAX_CAPTURE) err.push(d); errBytes += d.length; });
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => { /* the run may stop reading early (EPIPE) */ });
      child.stdin!.end(opts.input);
    }
    let timedOut = false;
    let overMemory = false;
    let killedOnPurpose = false;
    let peak = 0;
    const kill = () => { try { child.kill('SIGKILL'); } catch { /* gone */ } };
    const timer = setTimeout(() => { timedOut = true; kill(); }, opts.timeoutMs);
    const killNow = () => { killedOnPurpose = true; kill(); };
    const purpose = opts.killAfterMs !== undefined ? setTimeout(killNow, opts.killAfterMs) : undefined;
    let anchorTimer: NodeJS.Timeout | undefined;
    const anchor = opts.killWhen ? setInterval(() => {
      if (!existsSync(opts.killWhen!.path)) return;
      clearInterval(anchor);
      anchorTimer = setTimeout(killNow, opts.killWhen!.afterMs);
    }, 10) : undefined;
    const maxRss = opts.maxRssMb ?? MEMORY_BOUND_MB;
    const watch = setInterval(() => {
      if (child.pid === undefined) return;
      const mb = rssMb(child.pid);
      peak = Math.max(peak, mb);
      if (mb > maxRss) { overMemory = true; kill(); }
    }, 100);
    let spawnError = '';
    child.on('error', (e) => { spawnError = `spawn failed: ${e.message}\n`; });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (purpose) clearTimeout(purpose);
      if (anchor) clearInterval(anchor);
      if (anchorTimer) clearTimeout(anchorTimer);
      clearInterval(watch);
      resolveRun({
        args, code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: spawnError + Buffer.concat(err).toString('utf8'),
        ms: performance.now() - t0, timedOut: timedOut && !killedOnPurpose, overMemory, killedOnPurpose, peakRssMb: Math.round(peak),
        boundMs: opts.timeoutMs,
      });
    });
  });
}

/**
 * Runs `issueloc <args>` with stdout into a pipe whose reader waits `sleepS` seconds before reading
 * (`issueloc … | (sleep 2; cat)`), as a shell user or a benchmark driver does.
 * @returns the run, `stdout` being what the reader got.
 */
export async function runThroughSlowPipe(args: readonly string[], opts: RunOptions & { sleepS: number }): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-pipe-'));
  const outFile = join(dir, 'out');
  const rcFile = join(dir, 'rc');
  try {
    const script = '{ "$@"; echo $? > "$FAULTS_RC"; } | (sleep "$FAULTS_SLEEP"; cat > "$FAULTS_OUT")';
    const r = await runCommand('sh', ['-c', script, 'sh', process.execPath, ...CLI_NODE_ARGS, BIN, ...args], args, {
      ...opts, env: { ...opts.env, FAULTS_RC: rcFile, FAULTS_OUT: outFile, FAULTS_SLEEP: String(opts.sleepS) },
      timeoutMs: opts.timeoutMs + opts.sleepS * 1000,
    });
    const code = existsSync(rcFile) ? Number(readFileSync(rcFile, 'utf8').trim()) : null;
    return { ...r, code: r.timedOut ? null : code, stdout: existsSync(outFile) ? readFileSync(outFile, 'utf8') : '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** stderr without warning lines, progress lines and the progress bar's carriage-return updates. */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').map((l) => l.replace(/^.*\r/, '').trimEnd()).filter((l) => l !== '' && !/^issueloc: (warning|progress): /.test(l));
}

/** The command line of a run, for failure details. */
export function shown(r: RunResult): string {
  const args = r.args.map((a) => (a.length > 60 ? `${JSON.stringify(a.slice(0, 40))}…` : /[\s"'$]/.test(a) ? JSON.stringify(a) : a));
  return `issueloc ${args.join(' ')}`;
}
