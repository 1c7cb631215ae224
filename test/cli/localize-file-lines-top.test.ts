// A file's lines are its best function's by the stage's scores, however deep that function ranks:
// the same at every --top, and present for every shown file that has functions (lexical and model).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const scratch = tempDir('issueloc-file-lines-top-');
after(() => cleanup(scratch));

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');

/** `n` functions that all name the words, so they fill the head of the function ranking. */
function crowded(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`def discount_price_${i}(cart):`, `    return cart.discount * cart.price * ${i}  # discount price`, '');
  return out.join('\n');
}

function repo(): string {
  const dir = mkdtempSync(join(scratch, 'repo-'));
  const git = (...a: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...a]);
  git('init', '-q');
  mkdirSync(join(dir, 'shop'));
  writeFileSync(join(dir, 'shop/pricing.py'), crowded(40));
  writeFileSync(join(dir, 'shop/rates.py'), crowded(30));
  writeFileSync(join(dir, 'shop/cart.py'), [
    'def total(items):', '    return sum(items)', '',
    'def apply_discount(cart):', '    return cart.total - cart.discount', '',
  ].join('\n'));
  writeFileSync(join(dir, 'shop/tax.py'), ['def vat(price):', '    return price * 0.2', ''].join('\n'));
  git('add', '.');
  git('commit', '-qm', 'init');
  return dir;
}

for (const model of ['none', 'default']) {
  test(`a file's lines do not depend on --top (--model ${model})`, () => {
    const dir = repo();
    const cache = mkdtempSync(join(scratch, 'cache-'));
    const linesAt = new Map<string, string>();
    for (const top of [1, 2, 3, 10]) {
      const args = ['localize', '--repo', dir, '--issue', 'Wrong discount price in the cart', '--no-progress', '--cache-dir', cache, '--top', String(top), '--json'];
      args.push('--model', model);
      const out = JSON.parse(execFileSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8' }));
      assert.ok(out.files.length > 0);
      for (const f of out.files as { id: string; startLine?: number; endLine?: number }[]) {
        assert.ok(f.startLine !== undefined && f.endLine !== undefined, `--top ${top}: ${f.id} has functions but no lines`);
        const lines = `${f.startLine}-${f.endLine}`;
        const before = linesAt.get(f.id);
        if (before !== undefined) assert.equal(lines, before, `--top ${top}: ${f.id}`);
        linesAt.set(f.id, lines);
      }
    }
    assert.ok(linesAt.has('shop/cart.py'), [...linesAt.keys()].join(' '));
    assert.equal(linesAt.get('shop/cart.py'), '4-5', 'its best function: apply_discount');
  });
}
