/**
 * A throw-away `redis-server` for tests: on a free port of 127.0.0.1, in a temp dir, with no
 * persistence (`--save '' --appendonly no`). Where redis-server is not installed the test is
 * skipped with a message naming the package, except under CI (CI or ISSUELOC_REQUIRE_REDIS
 * set, as `.ci/run` does): there a missing server fails the test.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

/** A running server: its URL (database 0) and how to stop it. */
export interface TestRedis { url: string; port: number; stop: () => Promise<void> }

/** A free TCP port of 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether redis-server can be run here. */
export function haveRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
}

/**
 * Starts a server, or returns null after `t.skip` where none is installed (not under CI).
 * @throws under CI when redis-server is missing; when it does not come up within 10 s.
 */
export async function startRedis(t: TestContext): Promise<TestRedis | null> {
  if (!haveRedisServer()) {
    const message = 'redis-server is not installed (Debian package redis-server); the batch queue tests need it';
    if (process.env.CI || process.env.ISSUELOC_REQUIRE_REDIS) throw new Error(message);
    t.skip(message);
    return null;
  }
  return launchRedis();
}

/** Starts a server (redis-server must be installed). @throws when it does not come up within 10 s. */
export async function launchRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 10 s: ${log.slice(-500)}`)), 10_000);
    child.stdout!.on('data', (d: Buffer) => {
      log += d.toString();
      if (/Ready to accept connections/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${log.slice(-500)}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    url: `redis://127.0.0.1:${port}/0`, port,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
