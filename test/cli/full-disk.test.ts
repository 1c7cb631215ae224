// Issue 31 F10: a full disk under the cache and a full standard output are one line naming the
// path or "standard output", exit 2 (was: "internal error", exit 3; a file-size limit killed the
// process with SIGXFSZ). A real ENOSPC needs a full file system; /dev/full gives it for stdout, and
// a file-size limit (`ulimit -f`, EFBIG) gives the same failed write under the cache folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
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
