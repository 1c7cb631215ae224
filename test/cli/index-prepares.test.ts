// Issue 29 item 5: `issueloc index` also prepares what the first query needs (the history signals
// of the commit), so the first `localize` after it writes nothing more to the cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { runInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');

function run(args: string[]) {
  const env = { ...process.env };
  delete env.ISSUELOC_CACHE_DIR;
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8', timeout: 120_000, env });
  return { code: r.status, out: String(r.stdout), err: String(r.stderr) };
}

/** ISSUELOC_CACHE_DIR unset for an in-process run, as {@link run} unsets it. */
const NO_CACHE_ENV = { ISSUELOC_CACHE_DIR: undefined };

const filesUnder = (dir: string) => existsSync(dir)
  ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name)).sort()
  : [];

test('index prepares the history signals: the first localize after it adds no cache file; --no-history leaves them out', async () => {
  const dir = tempDir('issueloc-index-prepares-');
  try {
    const work = join(dir, 'repo');
    commitFiles(work, { 'a.py': 'class Parser:\n    def parse_header(self, text):\n        return text.split(":")\n' });
    commitFiles(work, { 'b.py': 'def render_table(rows):\n    return "\\n".join(rows)\n' }, 'Fix render crash on empty rows');
    const cache = join(dir, 'cache');
    const indexed = run(['index', '--repo', work, '--cache-dir', cache, '--no-progress']);
    assert.equal(indexed.code, 0, indexed.err);
    const history = filesUnder(join(cache, 'history'));
    assert.ok(history.some((f) => f.endsWith('.m100.bin')), `commit history stored: ${history.join(', ')}`);
    assert.ok(history.some((f) => f.includes('.cochange-')), 'co-changes stored');
    const before = filesUnder(cache);
    // the next runs through the CLI's main in-process (runInProcess): the process is not under test
    const r = await runInProcess(['localize', '--repo', work, '--cache-dir', cache, '--issue', 'render table crash on empty rows', '--json', '--no-progress'], NO_CACHE_ENV);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(filesUnder(cache).filter((f) => !f.endsWith('usage.json')), before.filter((f) => !f.endsWith('usage.json')));

    const bare = join(dir, 'cache2');
    assert.equal((await runInProcess(['index', '--repo', work, '--cache-dir', bare, '--no-progress', '--no-history'], NO_CACHE_ENV)).code, 0);
    assert.deepEqual(filesUnder(join(bare, 'history')), []);
  } finally {
    cleanup(dir);
  }
});
