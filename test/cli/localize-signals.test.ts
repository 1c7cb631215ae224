// localize on a tiny repository: a stack trace in the issue lifts the frame's function, and
// --explain / --json name the signal.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { execInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

/** Every temporary folder of this file (repositories, caches) lives here, removed at the end. */
const scratch = tempDir('issueloc-localize-signals-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

test('a traceback frame lifts its function to the top and is explained', async () => {
  const dir = mkdtempSync(join(scratch, 'sig-'));
  const git = (...a: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...a]);
  git('init', '-q');
  mkdirSync(join(dir, 'shop'));
  writeFileSync(join(dir, 'shop/cart.py'), 'def total(items):\n    return sum(i.price for i in items)\n\ndef discount(total, rate):\n    return total * rate\n');
  writeFileSync(join(dir, 'shop/report.py'), 'def price_report(items):\n    """Price of every item, total price and discount price."""\n    return [i.price for i in items]\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  const issue = 'Crash in the shop\nWrong price and discount price in the report\nTraceback (most recent call last):\n' +
    '  File "/srv/app/shop/cart.py", line 5, in discount\n    return total * rate\nTypeError: unsupported operand';
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const out = JSON.parse(execFileSync(process.execPath, [...BASELINE_WASM_ARGS, bin, 'localize', '--repo', dir, '--issue', issue, '--json', '--no-progress', '--cache-dir', cache], { encoding: 'utf8' }));
  assert.equal(out.functions[0].id, 'shop/cart.py:discount');
  assert.ok(out.functions[0].signals.includes('frameFunction'), JSON.stringify(out.functions[0]));
  const at = out.functions[0].signals.indexOf('frameFunction');
  assert.equal(out.functions[0].evidence[at], 'File "/srv/app/shop/cart.py", line 5, in discount', 'what fired the signal, aligned with it');
  assert.equal(out.functions[0].evidence.length, out.functions[0].signals.length);
  // the next runs through the CLI's main in-process (execInProcess): the process is not under test
  const plain = JSON.parse((await execInProcess(['localize', '--repo', dir, '--issue', issue, '--json', '--no-progress', '--cache-dir', cache, '--no-signals'])).stdout);
  assert.equal(plain.functions[0].signals, undefined);
  const text = (await execInProcess(['localize', '--repo', dir, '--issue', issue, '--explain', '--no-progress', '--cache-dir', cache, '--level', 'function'])).stdout;
  assert.match(text, /signals/);
  assert.match(text, /frameFunction \(File "\/srv\/app\/shop\/cart\.py", line 5, in discount\)/);
  assert.match(text, /stack frames: +\/srv\/app\/shop\/cart\.py:5:discount/, 'the evidence behind the signal names');
});
