// Exit codes: 0 results, 1 nothing matched, 2 bad input, 3 internal failure (issue 12, item 9).
// An unexpected error (a bug) must not look like "nothing matched".
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram, main } from '../../src/cli/main.js';
import { IssuelocError } from '../../src/errors.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

/** Every temporary folder of this file lives here, removed at the end. */
const scratch = tempDir('issueloc-exit-codes-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

/** Runs `main` with one extra command `boom` that throws `error`; the code and what went to stderr. */
async function runThrowing(error: unknown, env: Record<string, string> = {}): Promise<{ code: number; err: string }> {
  const program = await buildProgram();
  program.command('boom').action(() => {
    throw error;
  });
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const write = process.stderr.write.bind(process.stderr);
  let err = '';
  process.stderr.write = ((s: string) => {
    err += s;
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await main(['node', 'issueloc', 'boom'], program), err };
  } finally {
    process.stderr.write = write;
    process.env = saved;
  }
}

test('an unexpected error exits 3 with one "internal error" line; the stack only with ISSUELOC_DEBUG', async () => {
  const bug = new TypeError('fileUnits.find is not a function');
  const r = await runThrowing(bug);
  assert.equal(r.code, 3);
  assert.equal(r.err, 'issueloc: internal error: fileUnits.find is not a function\n');
  const debug = await runThrowing(bug, { ISSUELOC_DEBUG: '1' });
  assert.equal(debug.code, 3);
  assert.match(debug.err, /^issueloc: internal error: fileUnits\.find is not a function\n(TypeError: .*\n)?\s+at /);
  const thrownString = await runThrowing('just a string');
  assert.deepEqual(thrownString, { code: 3, err: 'issueloc: internal error: just a string\n' });
});

test('bad input keeps its code and plain message', async () => {
  assert.deepEqual(await runThrowing(new IssuelocError('--top takes a positive whole number, got \'x\'')), { code: 2, err: 'issueloc: --top takes a positive whole number, got \'x\'\n' });
});

test('an error outside the command (an uncaught exception in a callback) exits 3 too', async () => {
  const dir = mkdtempSync(join(scratch, 'uncaught-'));
  const preload = join(dir, 'throw-later.mjs');
  // throws in a timer once the CLI is running (its handler registered)
  writeFileSync(preload, `const t = setInterval(() => {
  if (process.listenerCount('uncaughtException') === 0) return;
  clearInterval(t);
  throw new RangeError('Invalid typed array length: 5000000000');
}, 5);\n`);
  // the command waits for stdin, which stays open: only the uncaught error ends the run
  const child = spawn(process.execPath, ['--import', preload, bin, 'localize', '--repo', dir, '--issue-file', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code, signal] = (await once(child, 'close')) as [number | null, string | null];
  clearTimeout(kill);
  child.stdin.destroy();
  assert.equal(code, 3, `${err} (signal ${signal})`);
  assert.equal(err, 'issueloc: internal error: Invalid typed array length: 5000000000\n');
});

test('a file-system error on a path (an output folder under /proc, a file in the way) is bad input: exit 2, one line, no hang', () => {
  const dir = mkdtempSync(join(scratch, 'out-'));
  const file = join(dir, 'plain');
  writeFileSync(file, 'x');
  for (const [out, message] of [
    ['/proc/issueloc-x/results', /^issueloc: cannot mkdir \/proc\/issueloc-x: no such file or directory \(ENOENT\)\n$/],
    [join(file, 'results'), /^issueloc: cannot mkdir .*plain: not a directory \(ENOTDIR\)\n$/],
  ] as const) {
    const r = spawnSync(process.execPath, [bin, 'eval', '--dataset', join(dir, 'none.jsonl'), '--repo', dir, '-o', out, '--no-progress'], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
    assert.equal(r.status, 2, `${out}: ${r.stderr} (signal ${r.signal})`);
    assert.match(r.stderr, message);
  }
  // writeFileAtomic (every -o file) under /proc: an error, not an endless loop
  const script = `import('${join(root, 'dist/src/util/atomic-write.js')}').then((m) => { try { m.writeFileAtomic('/proc/issueloc-x/y.json', ['{}']); } catch (e) { console.log(e.code); } });`;
  const w = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
  assert.equal(w.stdout.trim(), 'ENOENT', `signal ${w.signal}`);
});

test('--help lists the exit codes', () => {
  const r = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /Exit codes: 0 results, 1 nothing matched, 2 bad input or usage, 3 internal failure/);
});
