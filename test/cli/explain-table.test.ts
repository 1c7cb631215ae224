// `--explain` in table mode fits the terminal (100 columns off a terminal): evidence shortened,
// terms wrapped; `--json` keeps the evidence whole (issue 12, item 16).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { flexibleWidths, shorten, tableWidth, wrapWords } from '../../src/cli/table-layout.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { runInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

/** Every temporary folder of this file (repositories, caches) lives here, removed at the end. */
const scratch = tempDir('issueloc-explain-table-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

const VENV = '/home/someone/.virtualenvs/project-environment/lib/python3.11/site-packages';
const TRACEBACK = `Crash when parsing header values in handle_incoming_request_with_headers

Traceback (most recent call last):
  File "${VENV}/pkg/core.py", line 3, in dispatch
    return RequestHandler().handle_incoming_request_with_headers(request, request.headers)
  File "${VENV}/pkg/sub/handlers.py", line 3, in handle_incoming_request_with_headers
    return self.parse_header_values(headers)
  File "${VENV}/pkg/sub/handlers.py", line 6, in parse_header_values
    return [h.split(":") for h in headers]
AttributeError: 'NoneType' object has no attribute 'split'
`;

function repo() {
  return fixtureRepo([{
    id: 'A', message: 'init', files: {
      'pkg/sub/handlers.py': 'class RequestHandler:\n    def handle_incoming_request_with_headers(self, request, headers):\n        return self.parse_header_values(headers)\n\n    def parse_header_values(self, headers):\n        return [h.split(":") for h in headers]\n',
      'pkg/core.py': 'def dispatch(request):\n    return RequestHandler().handle_incoming_request_with_headers(request, request.headers)\n',
    },
  }]);
}

const width = (s: string) => Math.max(...s.split('\n').map((l) => [...l].length));

test('--explain table of a traceback: at most 100 columns off a terminal, evidence shortened; --json whole', async () => {
  const r = repo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  try {
    const env = { ...process.env };
    delete env.COLUMNS;
    const args = ['localize', '--repo', r.dir, '--cache-dir', cache, '--issue', TRACEBACK, '--explain', '--no-progress'];
    const table = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8', env });
    assert.equal(table.status, 0, table.stderr);
    assert.ok(width(table.stdout) <= 100, `table ${width(table.stdout)} columns wide:\n${table.stdout}`);
    assert.match(table.stdout, /frameFile \(File "\/home\/someone\/[^\n]*…[^\n]*handlers\.py", line/);
    assert.match(table.stdout, /pkg\/sub\/handlers\.py:RequestHandler\.parse_header_values/, 'ids are whole');
    // the notes under an item (lines, terms, evidence) widen the id column, never the score's
    for (const header of table.stdout.split('\n').filter((l) => l.startsWith('│ # │'))) assert.match(header, /^│ # │ score │ /, table.stdout);
    // $COLUMNS narrows it (down to what the ids need: they are never cut); this run and the next
    // through the CLI's main in-process (runInProcess): the process is not under test
    const narrow = await runInProcess(args, { COLUMNS: '90' });
    assert.ok(width(narrow.out) <= 90, `table ${width(narrow.out)} columns wide at COLUMNS=90:\n${narrow.out}`);
    const json = await runInProcess([...args, '--json'], { COLUMNS: undefined });
    assert.equal(json.code, 0, json.err);
    const out = JSON.parse(json.out) as { files: { id: string; evidence?: string[] }[] };
    const evidence = out.files.find((f) => f.id === 'pkg/sub/handlers.py')?.evidence ?? [];
    assert.ok(evidence.some((e) => e.includes(`${VENV}/pkg/sub/handlers.py`)), `whole evidence in --json: ${JSON.stringify(evidence)}`);
  } finally {
    r.remove();
  }
});

test('table layout helpers: shorten keeps both ends, wrapWords breaks at spaces, widths share the room', () => {
  assert.equal(shorten('short'), 'short');
  const s = shorten(`${VENV}/pkg/sub/handlers.py`, 40);
  assert.equal([...s].length, 40);
  assert.ok(s.startsWith('/home/someone') && s.endsWith('/pkg/sub/handlers.py') && s.includes('…'), s);
  assert.equal(wrapWords('alpha beta gamma delta', 11), 'alpha beta\ngamma delta');
  assert.equal(wrapWords('abcdefghij', 4), 'abcd\nefgh\nij');
  const rows = [['#', 'id', 'terms'], ['1', 'a/b.py', 'x '.repeat(60).trim()]];
  // 3 columns: 10 characters of borders and padding, 1 + 6 fixed: 23 left of 40
  assert.equal(flexibleWidths(rows, [{ col: 2, min: 10 }], 40).get(2), 23);
  assert.equal(flexibleWidths(rows, [{ col: 2, min: 10 }], 20).get(2), 10, 'never below min');
  assert.equal(flexibleWidths(rows, [{ col: 2, min: 10 }], 500).get(2), 119, 'never above its natural width');
  assert.equal(tableWidth({ isTTY: true, columns: 132 }, {}), 132);
  assert.equal(tableWidth({ isTTY: false }, { COLUMNS: '90' }), 90);
  assert.equal(tableWidth({ isTTY: false }, {}), 100);
});
