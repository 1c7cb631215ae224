// The package as users get it: `npm pack`, the tarball unpacked into node_modules of a fresh
// folder (no network: its dependencies are links to this checkout's installed ones, only those
// package.json declares), then `issueloc localize --model default` from there on a repository
// built here.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const work = tempDir('issueloc-package-');
after(() => cleanup(work));

interface Manifest {
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * Packs this checkout (its built dist/; --ignore-scripts: no rebuild) and unpacks the tarball as
 * `<consumer>/node_modules/issueloc`; returns the unpacked package folder and the tarball's file list.
 */
function packAndUnpack(consumer: string): { pkg: string; files: string[] } {
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  const modules = join(consumer, 'node_modules');
  mkdirSync(modules, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', modules]);
  const pkg = join(modules, 'issueloc');
  renameSync(join(modules, 'package'), pkg);
  // the declared dependencies, from this checkout's node_modules (theirs resolve from there)
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Manifest;
  const declared: [string, boolean][] = [
    ...Object.keys(manifest.dependencies ?? {}).map((n): [string, boolean] => [n, true]),
    ...Object.keys({ ...manifest.optionalDependencies, ...manifest.peerDependencies }).map((n): [string, boolean] => [n, false]),
  ];
  for (const [name, required] of declared) {
    const installed = join(root, 'node_modules', name);
    if (!existsSync(installed)) {
      assert.ok(!required, `dependency ${name} is not installed in ${root}`);
      continue;
    }
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(installed, join(modules, name), 'dir');
  }
  return { pkg, files: packed.files.map((f) => f.path) };
}

test('the packed package ships the built-in model, and `localize --model default` ranks from an install', () => {
  const consumer = join(work, 'consumer');
  const { pkg, files } = packAndUnpack(consumer);
  assert.ok(files.includes('src/ltr/default-model.json'), 'the tarball holds the built-in model');
  assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('dist/test/')), 'no tests in the tarball');

  const repo = join(work, 'repo');
  commitFiles(repo, {
    'shop/cart.py': 'def total(items):\n    return sum(i.price for i in items)\n\n\ndef discount(total, rate):\n    return total * rate\n',
    'shop/report.py': 'def price_report(items):\n    """Price of every item."""\n    return [i.price for i in items]\n',
    'shop/users.py': 'def login(name, password):\n    return name == password\n',
  }, 'shop: cart, report, users');
  commitFiles(repo, { 'shop/cart.py': 'def total(items):\n    return sum(i.price * i.count for i in items)\n\n\ndef discount(total, rate):\n    return total * rate\n' }, 'cart: count items');

  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Manifest;
  const bin = join(pkg, manifest.bin.issueloc);
  const r = spawnSync(process.execPath, [bin, 'localize', '--repo', repo, '--issue', 'The discount rate is applied twice to the cart total',
    '--model', 'default', '--json', '--no-progress', '--cache-dir', join(work, 'cache')], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { files: { id: string }[]; functions: { id: string }[] };
  assert.equal(out.files[0].id, 'shop/cart.py', r.stdout);
  assert.equal(out.functions[0].id, 'shop/cart.py:discount', r.stdout);
});
