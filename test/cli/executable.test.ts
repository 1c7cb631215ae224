// The package's executable: `npx issueloc` in a fresh clone runs bin/issueloc.js directly, so it
// must keep its executable bit in git and reach the compiled CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

test('bin/issueloc.js is the package bin, executable, and runs the CLI', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const bin = join(root, pkg.bin.issueloc);
  assert.equal(pkg.bin.issueloc, 'bin/issueloc.js');
  assert.ok((statSync(bin).mode & 0o111) !== 0, `${bin} is not executable`);
  const out = execFileSync(bin, ['--help'], { encoding: 'utf8' });
  assert.match(out, /Usage: issueloc/);
  assert.match(out, /localize/);
});
