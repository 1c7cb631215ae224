// The package's executable: `node bin/issueloc.js` in a fresh clone (and the `issueloc` that `npm link` installs) runs bin/issueloc.js directly, so it
// must keep its executable bit in git and reach the compiled CLI.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, tempDir } from '../repo/git-fixture.js';

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

test('`issueloc --version` prints package.json\'s version', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const out = execFileSync(process.execPath, [join(root, 'bin/issueloc.js'), '--version'], { encoding: 'utf8' });
  assert.equal(out.trim(), pkg.version);
});

test('the version is read at run time from the package.json next to the build, not compiled in', () => {
  // a copy of the package laid out as installed (bin/, dist/src/, package.json) with another version
  const copy = tempDir('issueloc-version-');
  after(() => cleanup(copy));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...pkg, version: '9.8.7-test.1' }));
  cpSync(join(root, 'bin'), join(copy, 'bin'), { recursive: true });
  cpSync(join(root, 'dist/src'), join(copy, 'dist/src'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const out = execFileSync(process.execPath, [join(copy, 'bin/issueloc.js'), '--version'], { encoding: 'utf8' });
  assert.equal(out.trim(), '9.8.7-test.1');
});
