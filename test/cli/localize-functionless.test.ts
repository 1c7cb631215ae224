// Files with no function (top-level code only) rank at the file level in every output mode: the
// table and --json show the same items and exit 0 when anything ranks (issue 12, item 7); an
// empty repository is named (item 16).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

/** `issueloc ARGS… --no-progress` by the executable. */
function run(args: string[]) {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args, '--no-progress'], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
/** The same through the CLI's main in-process (runInProcess), for runs whose process is not under test. */
const runIn = (args: string[]) => runInProcess([...args, '--no-progress']);

const FILES = {
  'app/settings.py': 'DEFAULT_TIMEOUT = 30\nRETRY_LIMIT = 5\nDEFAULT_HOST = "localhost"\n',
  'app/client.py': 'def connect(host):\n    return open_socket(host)\n',
};

test('only a function-less file matches: the table shows it like --json does, exit 0', async () => {
  const dir = tempDir('issueloc-bare-cli-');
  try {
    commitFiles(join(dir, 'repo'), FILES);
    const base = ['localize', '--repo', join(dir, 'repo'), '--cache-dir', join(dir, 'cache'), '--issue', 'RETRY_LIMIT is too low'];
    const json = run([...base, '--json']);
    assert.equal(json.code, 0, json.err);
    const out = JSON.parse(json.out);
    assert.deepEqual(out.files.map((f: { id: string }) => f.id), ['app/settings.py']);
    assert.deepEqual(out.functions, []);
    assert.deepEqual(out.modules, []);
    const table = await runIn(base);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /app\/settings\.py/);
    assert.match(table.out, /functions\n\(no function matched\)/);
    assert.equal(table.err, '');
    // a level where nothing ranks: exit 1 in both modes, and where to look instead
    for (const mode of [[], ['--json']]) {
      const fn = await runIn([...base, '--level', 'function', ...mode]);
      assert.equal(fn.code, 1, `${mode}: ${fn.err}`);
      assert.equal(fn.err, 'issueloc: no function matched; files did (--level file)\n');
    }
    assert.deepEqual(JSON.parse((await runIn([...base, '--level', 'function', '--json'])).out).functions, []);
    // a word only a function-less file holds occurs in the code: not "no word of the issue occurs"
    const none = await runIn([...base.slice(0, -1), 'zebra giraffe']);
    assert.equal(none.code, 1);
    assert.match(none.err, /no word of the issue occurs in the indexed code/);
  } finally {
    cleanup(dir);
  }
});

test('an empty repository: one line naming it, exit 2', () => {
  const dir = tempDir('issueloc-empty-cli-');
  try {
    git(dir, 'init', '-q');
    const r = run(['localize', '--repo', dir, '--cache-dir', join(dir, '.cache'), '--issue', 'parse header']);
    assert.equal(r.code, 2);
    assert.equal(r.err, `issueloc: repository ${dir} has no commits yet\n`);
    assert.equal(r.out, '');
  } finally {
    cleanup(dir);
  }
});
