// Paths with a newline, a tab and a quote in them go through every git call whole:
// `dataset build --functions`, `index` and `localize` on a repository that holds such files.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from './git-fixture.js';
import { runInProcess } from '../cli/in-process.js';
import { GitRepo } from '../../src/repo/git.js';
import { goldForCommit } from '../../src/dataset/gold.js';
import { LogParser, type LogCommit } from '../../src/repo/log-parse.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));
const dir = tempDir('issueloc-odd-paths-');
after(() => cleanup(dir));

const NEWLINE = 'pkg/line\nbreak.py';
const TAB_QUOTE = 'pkg/tab\tand "quote".py';
const PLAIN = 'pkg/plain.py';
const py = (fn: string, v: string) => `def ${fn}(items):\n    total = 0\n    for i in items:\n        total += i * ${v}\n    return total\n`;

const work = join(dir, 'repo');
const base = commitFiles(work, { [NEWLINE]: py('ledger_sum', '1'), [TAB_QUOTE]: py('basket_price', '2'), [PLAIN]: py('other', '3') });
const fix = commitFiles(work, { [NEWLINE]: py('ledger_sum', '10'), [TAB_QUOTE]: py('basket_price', '20') }, '[ODD-1] fix ledger sum and basket price');
const cache = join(dir, 'cache');

function run(args: string[]): { out: string; err: string; code: number } {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, ...args, '--no-progress'], { encoding: 'utf8' });
  return { out: r.stdout, err: r.stderr, code: r.status ?? -1 };
}

test('goldForCommit reads the files of a commit whose paths hold a newline, a tab and a quote', async () => {
  const repo = await GitRepo.open(work);
  try {
    const gold = await goldForCommit(repo, fix);
    assert.equal(gold.parent, base);
    assert.deepEqual(gold.files.sort(), [NEWLINE, TAB_QUOTE].sort());
    assert.deepEqual(gold.functions.sort(), [`${NEWLINE}:ledger_sum`, `${TAB_QUOTE}:basket_price`].sort());
    const obj = await repo.readFileAt(base, NEWLINE);
    assert.equal(obj?.data.toString('utf8'), py('ledger_sum', '1'));
    assert.equal(await repo.readFileAt(base, 'pkg/absent\n.py'), null);
  } finally {
    await repo.close();
  }
});

test('dataset build --functions, index and localize work on such a repository', async () => {
  const issues = join(dir, 'issues.jsonl');
  writeFileSync(issues, `${JSON.stringify({ key: 'ODD-1', summary: 'ledger sum is wrong', type: 'Bug', status: 'Closed', resolution: 'Fixed', created: 'Wed, 13 Apr 2011 02:34:34 +0000', resolved: null, description_html: '<p>x</p>' })}\n`);
  const out = join(dir, 'odd.jsonl');
  const built = run(['dataset', 'build', '--repo', work, '--issues', issues, '--key', 'ODD', '--functions', '-o', out]);
  assert.equal(built.code, 0, built.err);
  const [record] = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { positives: string[]; positiveFunctions: string[] });
  assert.deepEqual(record.positives.sort(), [NEWLINE, TAB_QUOTE].sort());
  assert.deepEqual(record.positiveFunctions.sort(), [`${NEWLINE}:ledger_sum`, `${TAB_QUOTE}:basket_price`].sort());

  // the executable built the dataset; index and localize through the CLI's main in-process
  const indexed = await runInProcess(['index', '--repo', work, '--cache-dir', cache, '--json', '--no-progress']);
  assert.equal(indexed.code, 0, indexed.err);
  assert.equal((JSON.parse(indexed.out) as { files: number }).files, 3);

  const found = await runInProcess(['localize', '--repo', work, '--cache-dir', cache, '--issue', 'ledger_sum gives a wrong total; basket_price too', '--json', '--no-progress']);
  assert.equal(found.code, 0, found.err);
  const ids = (JSON.parse(found.out) as { functions: { id: string }[] }).functions.map((f) => f.id);
  assert.deepEqual(ids.slice(0, 2).sort(), [`${NEWLINE}:ledger_sum`, `${TAB_QUOTE}:basket_price`].sort());
  const table = await runInProcess(['localize', '--repo', work, '--cache-dir', cache, '--issue', 'ledger_sum gives a wrong total', '--no-progress']);
  assert.equal(table.code, 0, table.err);
});

test('the log parser keeps a path that starts like a commit header', () => {
  const commits: LogCommit[] = [];
  const parser = new LogParser((c) => commits.push(c));
  const sha = 'a'.repeat(40);
  parser.push(Buffer.from(`\x01${sha} \x021700000000\x02msg\n\x03\0\nM\0\x01odd\nname.py\0A\0\n\x01x.py\0`));
  parser.end();
  assert.deepEqual(commits.map((c) => c.changes), [[{ status: 'M', path: '\x01odd\nname.py' }, { status: 'A', path: '\n\x01x.py' }]]);
});

test('a path after -- names that one file, even with glob characters (literal pathspecs)', async () => {
  const globs = join(dir, 'globs');
  const first = commitFiles(globs, { 'x[1].py': 'a = 1\n', 'x1.py': 'b = 1\n' });
  const second = commitFiles(globs, { 'x[1].py': 'a = 2\n', 'x1.py': 'b = 2\n' });
  const repo = await GitRepo.open(globs);
  try {
    const res = await repo.exec(['diff', '--name-only', '-z', first, second, '--', 'x[1].py']);
    assert.deepEqual(res.stdout.toString('utf8').split('\0').filter(Boolean), ['x[1].py']);
  } finally {
    await repo.close();
  }
});
