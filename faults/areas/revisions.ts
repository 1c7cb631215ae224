/**
 * Revisions (issue 31 F4, F5, F16) against a real `issueloc serve` on 127.0.0.1 and the CLI: a
 * commit-message search (`:/regex`) with back-references, which makes git's search exponential,
 * must be refused from HTTP callers and batch enqueue, and bounded in time on the command line,
 * with no git process left running; a range (`^HEAD`, `A..B`) is refused up front; after a
 * history rewrite and gc an old commit is refused in its full form as in its short one; a removed
 * repository is reported as removed; the warm pool holds a bounded number of entries (each has a
 * `git cat-file` process) under a small memory budget.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { commitFiles, git } from '../../test/repo/git-fixture.js';
import { cliEnv } from '../cli.js';
import { localizeArgs } from '../common.js';
import { SHOP_FILES, SHOP_ISSUE } from '../fixtures.js';
import { BIN, CLI_NODE_ARGS, STARTUP_SLACK_S } from '../interface.js';
import { expectExit, firstLine, wrong, type Failure, type Probe, type ProbeContext } from '../probe.js';

/** A commit-message search that takes git minutes on a message of 60 `a`s (back-references). */
const EVIL_SEARCH = ':/(a*)*(a*)*(a*)*\\1\\2\\3c';
/** The server's request timeout in the message-search probe (seconds): short, so main's 504 shows. */
const SHORT_TIMEOUT_S = 3;
/** The server's request timeout elsewhere (seconds): index builds on a loaded machine. */
const TIMEOUT_S = 60;
/** Time `issueloc serve` may take to print its address (it loads fastify and the MCP SDK), besides the start-up slack. */
const SERVE_START_S = 2 * STARTUP_SLACK_S;
/** The time limit of `git rev-parse` on the command line (REV_PARSE_TIMEOUT_MS, src/repo/git.ts). */
const REV_PARSE_LIMIT_S = 30;

/** Revisions naming several commits. */
const RANGES = ['^HEAD', 'HEAD..HEAD', 'HEAD~1...HEAD', 'HEAD^@', 'HEAD^!'];

/** The shop repository plus commits whose messages are long runs of `a` (the search's victims). */
function revisionRepo(ctx: ProbeContext): { dir: string; commits: string[] } {
  const dir = join(ctx.dir('repo'), 'repo');
  const commits = [commitFiles(dir, SHOP_FILES, 'init')];
  for (let k = 0; k < 3; k++) commits.push(commitFiles(dir, { [`notes/n${k}.txt`]: `note ${k}\n` }, 'a'.repeat(60)));
  return { dir, commits };
}

/** A running `issueloc serve` (its own process group, so its git children can be counted). */
class Server {
  private constructor(readonly proc: ChildProcess, readonly url: string, private readonly err: () => string, readonly timeoutS: number) {}

  static async start(ctx: ProbeContext, repo: string, extra: string[] = [], timeoutS = TIMEOUT_S): Promise<Server> {
    const args = [...CLI_NODE_ARGS, BIN, 'serve', '--repo', `shop=${repo}`, '--port', '0', '--timeout', String(timeoutS), '--no-warm', '--cache-dir', join(ctx.dir('cache'), 'c'), ...extra];
    const proc = spawn(process.execPath, args, { env: cliEnv(ctx.home), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const killGroup = () => { try { process.kill(-proc.pid!, 'SIGKILL'); } catch { /* gone */ } };
    ctx.shared.onRemove(killGroup); // also when it never prints its address
    proc.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
    const startMs = await ctx.boundMs(SERVE_START_S);
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start within ${Math.round(startMs / 1000)} s: ${err}`)), startMs);
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /on (http:\/\/[\d.:]+)/.exec(out);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      });
      proc.on('exit', () => { clearTimeout(timer); reject(new Error(`serve exited: ${err}`)); });
    });
    return new Server(proc, url, () => err, timeoutS);
  }

  get stderr(): string { return this.err(); }

  /** POST /v1/localize; the status and the body's error (or the body). */
  async localize(rev: string | undefined, boundS = this.timeoutS + STARTUP_SLACK_S): Promise<{ status: number; text: string; ms: number }> {
    const t0 = performance.now();
    const res = await fetch(`${this.url}/v1/localize`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ repository: 'shop', issue: SHOP_ISSUE, ...(rev === undefined ? {} : { rev }) }),
      signal: AbortSignal.timeout(boundS * 1000),
    });
    return { status: res.status, text: await res.text(), ms: performance.now() - t0 };
  }

  /** The git processes in the server's process group (command lines). */
  gits(): string[] {
    return gitsInGroup(this.proc.pid!);
  }

  /** SIGTERM, then wait at most `boundS` for the exit. @returns whether it exited. */
  async stop(boundS: number): Promise<boolean> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return true;
    const exited = new Promise<boolean>((r) => { this.proc.once('exit', () => r(true)); setTimeout(() => r(false), boundS * 1000).unref(); });
    this.proc.kill('SIGTERM');
    return exited;
  }

  /** Kills the whole group (the server and whatever git it left). */
  kill(): void {
    try { process.kill(-this.proc.pid!, 'SIGKILL'); } catch { /* gone */ }
  }
}

/** Command lines of the git processes of process group `pgid`. */
function gitsInGroup(pgid: number): string[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pgid=,args=', '-e'], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return out.split('\n').map((l) => l.trim()).filter((l) => l.startsWith(`${pgid} `) && /\bgit\b/.test(l) && !/\bps\b/.test(l)).map((l) => l.slice(String(pgid).length + 1));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** git children still running `rev-parse` of the search after up to `waitMs`. */
async function lingering(server: Server, waitMs: number): Promise<string[]> {
  const until = performance.now() + waitMs;
  for (;;) {
    const left = server.gits().filter((l) => l.includes('rev-parse'));
    if (left.length === 0 || performance.now() > until) return left;
    await sleep(200);
  }
}

async function remoteMessageSearch(ctx: ProbeContext): Promise<void> {
  const { dir } = revisionRepo(ctx);
  const server = await Server.start(ctx, dir, [], SHORT_TIMEOUT_S);
  try {
    await ctx.attempt(`POST /v1/localize rev ${EVIL_SEARCH}`, async () => {
      const r = await server.localize(EVIL_SEARCH);
      const left = await lingering(server, 2000);
      if (r.status !== 400) return { kind: r.status >= 500 ? 'hang' : 'wrong', detail: `answered ${r.status} after ${Math.round(r.ms)} ms (expected 400, the search refused): ${r.text.slice(0, 200)}${left.length ? `; ${left.length} git rev-parse still running 2 s later` : ''}` } as Failure;
      if (left.length > 0) return { kind: 'hang', detail: `${left.length} git rev-parse still running 2 s after the answer` };
      return undefined;
    });
    await ctx.attempt(`POST /v1/localize rev HEAD^{/…} (a message search too)`, async () => {
      const r = await server.localize('HEAD^{/(a*)*(a*)*(a*)*\\1\\2\\3c}');
      const left = await lingering(server, 2000);
      if (r.status !== 400) return { kind: r.status >= 500 ? 'hang' : 'wrong', detail: `answered ${r.status} after ${Math.round(r.ms)} ms (expected 400): ${r.text.slice(0, 200)}` } as Failure;
      return left.length > 0 ? { kind: 'hang', detail: `${left.length} git rev-parse still running 2 s after the answer` } : undefined;
    });
    await ctx.attempt('SIGTERM: the server exits, no git left running', async () => {
      const exited = await server.stop(SHORT_TIMEOUT_S + STARTUP_SLACK_S);
      await sleep(500);
      const left = server.gits();
      if (!exited) return { kind: 'hang', detail: `no exit within ${SHORT_TIMEOUT_S + STARTUP_SLACK_S} s of SIGTERM` };
      return left.length > 0 ? { kind: 'hang', detail: `${left.length} git process(es) outlive the server: ${left[0].slice(0, 120)}` } : undefined;
    });
  } finally {
    server.kill();
  }
}

async function cliMessageSearch(ctx: ProbeContext): Promise<void> {
  const { dir } = revisionRepo(ctx);
  const boundS = REV_PARSE_LIMIT_S + 2 * STARTUP_SLACK_S; // node's start and git's first calls on a loaded machine
  await ctx.attempt(`localize --rev ${EVIL_SEARCH}: bounded`, async () => {
    const r = await ctx.cli(localizeArgs(dir, join(ctx.dir('cache'), 'c'), SHOP_ISSUE, ['--rev', EVIL_SEARCH]), boundS);
    return expectExit(r, [2]) ?? (/took longer than/.test(r.stderr) ? undefined : wrong(r, `no time limit named: ${firstLine(r.stderr)}`));
  });
  await ctx.attempt(`batch enqueue index --rev ${EVIL_SEARCH}: refused`, async () => {
    const r = await ctx.cli(['batch', 'enqueue', 'index', '--repo', dir, '--rev', EVIL_SEARCH, '--results', join(ctx.dir('results'), 'r')], 5);
    return expectExit(r, [2]) ?? (/searches commit messages/.test(r.stderr) ? undefined : wrong(r, `not refused as a message search: ${firstLine(r.stderr)}`));
  });
}

async function ranges(ctx: ProbeContext): Promise<void> {
  const { dir } = revisionRepo(ctx);
  const server = await Server.start(ctx, dir);
  try {
    for (const rev of RANGES) {
      await ctx.attempt(`POST /v1/localize rev ${rev}`, async () => {
        const r = await server.localize(rev);
        if (r.status !== 400 || !r.text.includes('range')) return { kind: 'wrong', detail: `answered ${r.status} (expected 400 naming a range): ${r.text.slice(0, 200)}` };
        return undefined;
      });
    }
  } finally {
    server.kill();
  }
  for (const rev of ['^HEAD', 'HEAD..HEAD']) {
    await ctx.attempt(`localize --rev ${rev}`, async () => {
      const r = await ctx.cli(localizeArgs(dir, join(ctx.dir('cache'), 'c'), SHOP_ISSUE, ['--rev', rev]), 10);
      return expectExit(r, [2]) ?? (r.stderr.includes('range') ? undefined : wrong(r, `not refused as a range: ${firstLine(r.stderr)}`));
    });
    await ctx.attempt(`batch enqueue index --rev ${rev}`, async () => {
      const r = await ctx.cli(['batch', 'enqueue', 'index', '--repo', dir, '--rev', rev, '--results', join(ctx.dir('results'), 'r')], 10);
      return expectExit(r, [2]) ?? (r.stderr.includes('range') ? undefined : wrong(r, `not refused as a range: ${firstLine(r.stderr)}`));
    });
  }
}

async function rewrittenHistory(ctx: ProbeContext): Promise<void> {
  const { dir, commits } = revisionRepo(ctx);
  const old = commits[commits.length - 1];
  const server = await Server.start(ctx, dir);
  try {
    const first = await server.localize(old);
    if (first.status !== 200) {
      ctx.record('warm the old commit', { kind: 'probe', detail: `answered ${first.status}: ${first.text.slice(0, 200)}` });
      return;
    }
    // the last commit rewritten, then every trace of the old one dropped
    git(dir, 'commit', '-q', '--amend', '-m', 'rewritten');
    git(dir, 'reflog', 'expire', '--expire=now', '--all');
    git(dir, 'gc', '-q', '--prune=now');
    for (const rev of [old, old.slice(0, 12)]) {
      await ctx.attempt(`after rewrite + gc: rev ${rev.length === 40 ? 'full' : 'short'} ${rev.slice(0, 12)}`, async () => {
        const r = await server.localize(rev);
        return r.status === 400 ? undefined : { kind: 'wrong', detail: `answered ${r.status} for a commit git no longer has (expected 400): ${r.text.slice(0, 160)}` };
      });
    }
  } finally {
    server.kill();
  }
}

async function removedRepository(ctx: ProbeContext): Promise<void> {
  const { dir } = revisionRepo(ctx);
  const server = await Server.start(ctx, dir);
  try {
    const first = await server.localize(undefined);
    if (first.status !== 200) {
      ctx.record('warm the default commit', { kind: 'probe', detail: `answered ${first.status}: ${first.text.slice(0, 200)}` });
      return;
    }
    rmSync(dir, { recursive: true, force: true });
    for (const rev of [undefined, 'HEAD']) {
      await ctx.attempt(`repository removed: rev ${rev ?? '(default)'}`, async () => {
        const r = await server.localize(rev);
        if (r.status < 400 || r.status >= 500 || !/gone|removed/.test(r.text)) return { kind: 'wrong', detail: `answered ${r.status} (expected 4xx saying the repository is gone): ${r.text.slice(0, 160)}` };
        return r.text.includes(dir) ? { kind: 'wrong', detail: `the answer names the server's path: ${r.text.slice(0, 160)}` } : undefined;
      });
    }
  } finally {
    server.kill();
  }
}

/** Distinct revisions asked of the warm pool, and its bound on open entries in the probe. */
const POOL_REVISIONS = 12;

async function warmPoolBound(ctx: ProbeContext): Promise<void> {
  const dir = join(ctx.dir('repo'), 'repo');
  const commits = [commitFiles(dir, SHOP_FILES, 'init')];
  for (let k = 1; k < POOL_REVISIONS; k++) commits.push(commitFiles(dir, { [`notes/n${k}.txt`]: `note ${k}\n` }, `note ${k}`));
  // 8 MiB: a handful of entries at the real cost of one (about 1.5 MB of memory and a git process)
  const server = await Server.start(ctx, dir, ['--memory-budget', '8M', '--workers', '0']);
  try {
    for (const c of commits) {
      const r = await server.localize(c);
      if (r.status !== 200) {
        ctx.record(`localize at ${c.slice(0, 12)}`, { kind: 'probe', detail: `answered ${r.status}: ${r.text.slice(0, 200)}` });
        return;
      }
    }
    await ctx.attempt(`${POOL_REVISIONS} revisions under --memory-budget 8M: git cat-file processes`, async () => {
      await sleep(500);
      const catFiles = server.gits().filter((l) => l.includes('cat-file'));
      // one per warm entry, plus the pool's own for resolving revisions
      return catFiles.length > 7 ? { kind: 'hang', detail: `${catFiles.length} git cat-file processes for ${POOL_REVISIONS} revisions under an 8 MiB budget: the pool's estimate never reaches it` } : undefined;
    });
  } finally {
    server.kill();
  }
}

export const revisionProbes: Probe[] = [
  { area: 'revisions', name: 'remote-message-search', quick: true, expect: `serve: \`rev: ":/regex"\` or \`X^{/regex}\` → 400 at once, no git rev-parse left running; after SIGTERM no git outlives the server`, run: remoteMessageSearch },
  { area: 'revisions', name: 'cli-message-search', quick: false, expect: 'localize --rev ":/evil regex": exit 2 naming the 30 s time limit of git rev-parse; batch enqueue: refused at once (exit 2)', run: cliMessageSearch },
  { area: 'revisions', name: 'ranges', quick: true, expect: '`^HEAD`, `A..B`, `A...B`, `X^@`, `X^!`: 400 from serve, exit 2 from localize and batch enqueue, each naming a range', run: ranges },
  { area: 'revisions', name: 'rewritten-history', quick: true, expect: 'after a history rewrite and gc, the old commit is refused (400) in its full form, warm, as in its short form', run: rewrittenHistory },
  { area: 'revisions', name: 'removed-repository', quick: true, expect: 'a configured repository removed while served: 4xx saying it is gone (no path), with and without rev', run: removedRepository },
  { area: 'revisions', name: 'warm-pool-bound', quick: false, expect: `${POOL_REVISIONS} distinct revisions under --memory-budget 8M: at most 7 git cat-file processes (entries evicted, their git closed)`, run: warmPoolBound },
];
