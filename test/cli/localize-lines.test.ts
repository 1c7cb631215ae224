// localize on a tiny repository: every item carries its lines (table and --json), and
// --json --explain adds what the issue was read as, as --explain prints it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { execInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const scratch = tempDir('issueloc-localize-lines-');
after(() => cleanup(scratch));

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');

const CART = [
  'import math',            // 1
  '',                       // 2
  'class Cart:',            // 3
  '    rate = 0.1',         // 4
  '',                       // 5
  '    def total(self, items):', // 6
  '        return sum(i.price for i in items)', // 7
  '',                       // 8
  '    def discount(self, total):', // 9
  '        """Discount price of the cart."""', // 10
  '        return total * self.rate', // 11
  '',                       // 12
  'def rounding(price):',   // 13
  '    return math.floor(price)', // 14
  '',
].join('\n');

function repo(): string {
  const dir = mkdtempSync(join(scratch, 'repo-'));
  const git = (...a: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...a]);
  git('init', '-q');
  mkdirSync(join(dir, 'shop'));
  writeFileSync(join(dir, 'shop/cart.py'), CART);
  git('add', '.');
  git('commit', '-qm', 'init');
  return dir;
}

test('items carry their lines: a function its own, a module its functions\', a file its best function\'s', async () => {
  const dir = repo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const args = ['localize', '--repo', dir, '--issue', 'Wrong discount price in shop/cart.py', '--no-progress', '--cache-dir', cache, '--model', 'none'];
  const out = JSON.parse(execFileSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args, '--json'], { encoding: 'utf8' }));
  const fn = out.functions.find((f: { id: string }) => f.id === 'shop/cart.py:Cart.discount');
  assert.deepEqual([fn.startLine, fn.endLine], [9, 11]);
  const mod = out.modules.find((m: { id: string }) => m.id === 'shop/cart.py:Cart');
  assert.deepEqual([mod.startLine, mod.endLine], [6, 11], 'from the first method to the last');
  assert.equal(out.files[0].id, 'shop/cart.py');
  const best = out.functions[0];
  assert.deepEqual([out.files[0].startLine, out.files[0].endLine], [best.startLine, best.endLine], 'the file\'s best function');
  assert.equal(out.issue, undefined, 'no issue reading without --explain');
  // through the CLI's main in-process (execInProcess): the process is not under test
  const text = (await execInProcess([...args, '--level', 'function'], { COLUMNS: '120' })).stdout;
  assert.match(text, /│ lines\s+│/);
  assert.match(text, /shop\/cart\.py:Cart\.discount\s+│ 9-11\s+│/);
});

test('--json --explain adds what the issue was read as', async () => {
  const dir = repo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const issue = 'Wrong discount\nTraceback (most recent call last):\n  File "/srv/shop/cart.py", line 11, in discount\nSee `Cart.discount` and shop/cart.py';
  const out = JSON.parse((await execInProcess(['localize', '--repo', dir, '--issue', issue, '--json', '--explain', '--no-progress', '--cache-dir', cache])).stdout);
  assert.deepEqual(out.issue.frames.map((f: { file: string; line: number }) => [f.file, f.line]), [['/srv/shop/cart.py', 11]]);
  assert.ok(out.issue.paths.includes('shop/cart.py'), JSON.stringify(out.issue));
  assert.ok(out.issue.namesInCode.includes('Cart.discount'), JSON.stringify(out.issue));
});
