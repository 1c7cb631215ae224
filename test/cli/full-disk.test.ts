// Issue 31 F10: a full disk under the cache and a full standard output are one line naming the
// path or "standard output", exit 2 (was: "internal error", exit 3; a file-size limit killed the
// process with SIGXFSZ). A real ENOSPC needs a full file system; /dev/full gives it for stdout, and
// a file-size limit (`ulimit -f`, EFBIG) gives the same failed write under the cache folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
const long = Array.from({ length: 40 }, (_, i) => `def handler_${i}(request):\n    return parse_header(request, ${i})  # the header of the request\n`).join('');

function sh(script: string, args: string[]) {
  const r = spawnSync('/bin/sh', ['-c', script, 'sh', process.execPath, ...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, signal: r.signal, err: r.stderr };
}

test('stdout on /dev/full: one line naming standard output, exit 2', () => {
  const dir = tempDir('issueloc-full-');
  try {
    commitFiles(join(dir, 'repo'), { 'app.py': long });
    for (const extra of [['--json'], []]) {
      const r = sh('exec "$@" > /dev/full', ['localize', '--repo', join(dir, 'repo'), '--issue', 'parse header', '--cache-dir', join(dir, 'c'), '--no-progress', ...extra]);
      assert.equal(r.code, 2, r.err);
      assert.equal(r.err, 'issueloc: cannot write standard output: no space left on device (ENOSPC)\n');
    }
  } finally {
    cleanup(dir);
  }
});

test('cache writes past a file-size limit: one line naming the cache file, exit 2 (not SIGXFSZ)', () => {
  const dir = tempDir('issueloc-full-');
  try {
    commitFiles(join(dir, 'repo'), { 'app.py': long });
    const r = sh('ulimit -f 4; exec "$@" > /dev/null', ['index', '--repo', join(dir, 'repo'), '--cache-dir', join(dir, 'c'), '--no-progress']);
    assert.equal(r.signal, null);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, new RegExp(`^issueloc: cannot write ${join(dir, 'c')}/index/[^ ]+\\.bin: file too large \\(EFBIG\\)\\n$`));
  } finally {
    cleanup(dir);
  }
});

/** Files under `dir`, recursively (relative paths). */
function filesUnder(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath ?? d.path, d.name).slice(dir.length + 1)) : [];
}

/** The CLI with node:fs failing under `under` with `code` (test/util/fail-writes.ts). */
function withFailingWrites(under: string, code: string, args: string[]) {
  const preload = new URL('../util/fail-writes.js', import.meta.url).href;
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, '--import', preload, bin, ...args], {
    encoding: 'utf8', timeout: 120_000, env: { ...process.env, FAIL_WRITES_UNDER: under, FAIL_WRITES_CODE: code },
  });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

test('localize on a full, over-quota, read-only or forbidden cache: the answer from memory, one warning, exit 0, nothing half-written; index still fails', () => {
  const dir = tempDir('issueloc-full-');
  try {
    const repo = join(dir, 'repo');
    commitFiles(repo, { 'app.py': long, 'lib/util.py': 'def parse_header(request, n):\n    return request.headers[n]\n' });
    const args = (cache: string) => ['localize', '--repo', repo, '--issue', 'parse header of the request', '--cache-dir', cache, '--no-progress'];
    const fine = withFailingWrites(join(dir, 'elsewhere'), 'ENOSPC', args(join(dir, 'ok')));
    assert.equal(fine.code, 0, fine.err);
    assert.equal(fine.err, '');
    for (const code of ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES']) {
      const cache = join(dir, `c-${code}`);
      mkdirSync(cache);
      const r = withFailingWrites(cache, code, args(cache));
      assert.equal(r.signal, null);
      assert.equal(r.code, 0, `${code}: ${r.err}`);
      assert.equal(r.out, fine.out, `${code}: the answer of a writable cache`);
      const lines = r.err.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, `${code}: one warning, got ${r.err}`);
      assert.match(lines[0], new RegExp(`^issueloc: warning: cache folder .* cannot take the index of [0-9a-f]{12} \\(${code}\\): answered from memory, not saved`));
      assert.deepEqual(filesUnder(cache), [], `${code}: nothing written, nothing half-written`);
    }
    // `index` is asked to save: a full disk stays an error naming the file
    const cache = join(dir, 'c-index');
    rmSync(cache, { recursive: true, force: true });
    const r = withFailingWrites(cache, 'ENOSPC', ['index', '--repo', repo, '--cache-dir', cache, '--no-progress']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^issueloc: cannot write .*\.bin: injected failure \(ENOSPC\)\n$/);
    assert.ok(filesUnder(cache).every((f) => !f.includes('.tmp-') && !/^index\/.*\.bin$/.test(f)), `no index file, no temporary: ${filesUnder(cache).join(' ')}`);
  } finally {
    cleanup(dir);
  }
});

test('a blob git cannot give (missing from the object store): answered without it, one warning naming how many and how to fetch them, the index not saved until it is there', () => {
  const dir = tempDir('issueloc-missing-');
  try {
    const repo = join(dir, 'repo');
    commitFiles(repo, { 'app.py': long, 'lib/util.py': 'def parse_header(request, n):\n    return request.headers[n]\n', 'lib/other.py': 'def other():\n    return 2\n' });
    const blob = git(repo, 'rev-parse', 'HEAD:lib/util.py');
    const object = join(repo, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
    rmSync(object);
    const cache = join(dir, 'c');
    const args = ['localize', '--repo', repo, '--issue', 'parse header of the request', '--cache-dir', cache, '--no-progress', '--json'];
    for (const run of ['first', 'second']) {
      const r = sh('exec "$@"', args);
      assert.equal(r.code, 0, r.err);
      const lines = r.err.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1, `${run}: ${r.err}`);
      assert.match(lines[0], /^issueloc: warning: 1 file of [0-9a-f]{12} could not be read from git .*not saved.*git -C .* fetch --refetch --no-filter/);
      assert.deepEqual(filesUnder(join(cache, 'index')).filter((f) => f.endsWith('.bin')), [], `${run}: no index saved`);
    }
    // the blob back: the index is built whole and saved
    git(repo, 'hash-object', '-w', 'lib/util.py');
    const r = sh('exec "$@"', args);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '');
    assert.ok(filesUnder(join(cache, 'index')).some((f) => f.endsWith('.bin')), 'saved');
  } finally {
    cleanup(dir);
  }
});
