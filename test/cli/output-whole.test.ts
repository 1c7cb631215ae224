// Every byte of a command's output reaches a slow reader: a pipe holds 64 KiB, and an exit
// before stdout drained cut `--json` there (issue 12, item 1).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

/** Every temporary folder of this file (repositories, caches) lives here, removed at the end. */
const scratch = tempDir('issueloc-output-whole-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliett', 'kilo', 'lima',
  'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango', 'uniform', 'victor', 'whiskey', 'xray'];

/** 120 files of 2 functions, each holding every word of the issue: 100 items a level, ~85 KB of JSON. */
function bigRepo() {
  const files: Record<string, string> = {};
  for (let i = 0; i < 120; i++) {
    const fn = (k: number) => `def handle_${WORDS.join('_')}_${k}():\n    return "${WORDS.join(' ')}"\n\n`;
    files[`package_with_a_long_name/subpackage_number_${i}/module_of_handlers_${i}.py`] = fn(1) + fn(2);
  }
  return fixtureRepo([{ id: 'A', message: 'init', files }]);
}

/** Runs the CLI with stdout into a pipe whose reader starts reading after `delay` seconds. */
function throughSlowPipe(args: string[], delay: number): { out: string; code: number; err: string } {
  const dir = mkdtempSync(join(scratch, 'pipe-'));
  const codeFile = join(dir, 'code');
  const r = spawnSync('sh', ['-c', `{ "$0" "$@"; echo $? > '${codeFile}'; } | (sleep ${delay}; cat)`, process.execPath, ...BASELINE_WASM_ARGS, bin, ...args], {
    encoding: 'utf8', maxBuffer: 64 << 20, timeout: 120_000,
  });
  return { out: r.stdout, code: Number(readFileSync(codeFile, 'utf8')), err: r.stderr };
}

test('localize --json through a pipe read only after 1.5 s: the whole object', () => {
  const repo = bigRepo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  try {
    const args = ['localize', '--repo', repo.dir, '--cache-dir', cache, '--issue', WORDS.join(' '), '--level', 'all', '--top', '100', '--json', '--no-progress'];
    const r = throughSlowPipe(args, 1.5);
    assert.equal(r.code, 0, r.err);
    assert.ok(r.out.length > 80_000, `output of ${r.out.length} bytes: make the fixture bigger`);
    const json = JSON.parse(r.out) as { files: unknown[]; modules: unknown[]; functions: unknown[] };
    assert.equal(json.files.length, 100);
    assert.equal(json.functions.length, 100);
    // table mode too
    const table = throughSlowPipe(args.filter((a) => a !== '--json'), 1.5);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /\n\s*functions\n[\s\S]*│ 100 /);
  } finally {
    repo.remove();
  }
});
