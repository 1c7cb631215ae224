// Text output cannot be driven by what a repository ships: a file name with an ANSI escape
// sequence, a newline or a right-to-left override is printed escaped in the tables (one row per
// item, no control character reaches the terminal); `--json` keeps the name as it is.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { printable } from '../../src/cli/table-layout.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));
const dir = tempDir('issueloc-table-escapes-');
after(() => cleanup(dir));

const ESCAPE = 'pkg/x\x1b[2J\x1b]0;pwned\x07.py';
const NEWLINE = 'pkg/line\nbreak.py';
const RLO = 'pkg/gnp.\u202eexe.py';
const py = (fn: string) => `def ${fn}(items):\n    return sorted(items)\n`;

test('printable: control characters and bidi overrides become escapes, other text stays', () => {
  assert.equal(printable('a\nb\tc\rd'), 'a\\nb\\tc\\rd');
  assert.equal(printable('x\x1b[31mred\x7f\x9b'), 'x\\x1b[31mred\\x7f\\x9b');
  assert.equal(printable('gnp.\u202eexe'), 'gnp.\\u202eexe');
  assert.equal(printable('src/ünïcode/файл.py …'), 'src/ünïcode/файл.py …');
});

test('localize tables escape control characters of file names; --json keeps them', () => {
  const work = join(dir, 'repo');
  commitFiles(work, { [ESCAPE]: py('ledger_total'), [NEWLINE]: py('ledger_balance'), [RLO]: py('ledger_audit') });
  const args = ['localize', '--repo', work, '--cache-dir', join(dir, 'cache'), '--issue', 'ledger total balance audit', '--explain', '--no-progress'];
  const table = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, ...args], { encoding: 'utf8' });
  assert.equal(table.status, 0, table.stderr);
  assert.doesNotMatch(table.stdout, /[\x00-\x09\x0b-\x1f\x7f\u202e]/, `raw control characters in:\n${table.stdout}`);
  assert.ok(table.stdout.includes('pkg/x\\x1b[2J\\x1b]0;pwned\\x07.py:ledger_total'), table.stdout);
  assert.ok(table.stdout.includes('pkg/gnp.\\u202eexe.py:ledger_audit'), table.stdout);
  // the newline name stays on one row of the table
  assert.match(table.stdout, /│ pkg\/line\\nbreak\.py:ledger_balance +│/, table.stdout);
  const json = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, ...args, '--json'], { encoding: 'utf8' });
  assert.equal(json.status, 0, json.stderr);
  const ids = (JSON.parse(json.stdout) as { functions: { id: string }[] }).functions.map((f) => f.id).sort();
  assert.deepEqual(ids, [`${ESCAPE}:ledger_total`, `${NEWLINE}:ledger_balance`, `${RLO}:ledger_audit`].sort());
});
