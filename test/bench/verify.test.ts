// bench:verify on the tiny regressions of test/fixtures/regressions/ (committed data, a repository
// the test builds from test/fixtures/data/tinyq.fi): within tolerance it passes; drift, a missing
// input, another dataset version and a failing bench each give their exit code and lines.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, benchOutputOf, readRegression } from '../../bench/lib/regressions.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { git } from '../repo/fixture-repo.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'regressions');
let work: string;
let mirrors: string;

before(() => {
  work = tempDir('issueloc-verify-');
  mirrors = join(work, 'mirrors');
  const repo = join(mirrors, 'acme+tinyq', 'repo');
  mkdirSync(repo, { recursive: true });
  git(repo, ['init', '-q', '--bare']);
  git(repo, ['fast-import', '--quiet'], readFileSync(join(ROOT, 'test', 'fixtures', 'data', 'tinyq.fi'), 'utf8'));
  git(repo, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
});
after(() => cleanup(work));

/** Runs bench/verify from the checkout's root with the test's folders; exit code and output. */
function verify(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'bench', 'verify.js'), '--mirrors', mirrors,
    '--cache-dir', join(work, 'cache'), '--features-cache', join(work, 'features'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The fields of a regression file the tests change. */
interface RegressionFile { command: string[]; dataset: { path: string; sha256: string }; datasets?: { path: string; sha256: string }[]; evaluated: number; expected: Record<string, Record<string, number>> }

/** A copy of the fixture regression `name` changed by `edit`, in a folder of its own; returns that folder. */
function edited(name: string, edit: (reg: RegressionFile) => void): string {
  const dir = tempDir('issueloc-regressions-');
  const reg = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as RegressionFile;
  edit(reg);
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(reg));
  return dir;
}

test('both tiny regressions (bench/swebench-lite and bench/locbench --model default) pass: exit 0, one ok line each', () => {
  const r = verify('--regressions', FIXTURES, '--all');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^tinyq-lexical: ok: 7 values of 1 row within ±0\.01, 4 issues/m);
  assert.match(r.out, /^tinyq-model: ok: 63 values of 9 rows within ±0\.01, 4 issues/m);
  assert.equal(r.out.trim().split('\n').length, 2);
});

test('drift beyond the tolerance exits 1 with one line per metric; a move within it is no drift', () => {
  const dir = edited('tinyq-lexical', (reg) => {
    reg.expected.issueloc['file Acc@1'] = 100;         // measured 75
    reg.expected.issueloc['function Acc@10'] = 99.995; // measured 100: within ±0.01
    reg.expected.issueloc['module Acc@5'] = 99.9;      // measured 100: beyond
  });
  try {
    const r = verify('--regressions', dir, 'tinyq-lexical');
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(r.out.trim().split('\n'), [
      'tinyq-lexical: issueloc: file Acc@1: expected 100, got 75 (-25)',
      'tinyq-lexical: issueloc: module Acc@5: expected 99.9, got 100 (+0.1)',
      `tinyq-lexical: DRIFT: 2 of 8 values beyond ±0.01 (${join(dir, 'tinyq-lexical.json')})`,
    ]);
  } finally {
    cleanup(dir);
  }
});

test('another issue count, or a row the bench no longer prints, is drift', () => {
  const dir = edited('tinyq-model', (reg) => {
    reg.evaluated = 5;
    reg.expected['a row that is gone'] = { 'file Acc@5': 1 };
  });
  try {
    const r = verify('--regressions', dir, 'tinyq-model');
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^tinyq-model: issues evaluated: expected 5, got 4$/m);
    assert.match(r.out, /^tinyq-model: a row that is gone: not in the output \(rows: plain BM25/m);
  } finally {
    cleanup(dir);
  }
});

test('missing repositories, another dataset version or a missing dataset exit 2 with one line, before running anything', () => {
  const empty = join(work, 'no-mirrors');
  mkdirSync(empty, { recursive: true });
  const r1 = verify('--regressions', FIXTURES, 'tinyq-lexical', '--mirrors', empty);
  assert.equal(r1.code, 2);
  assert.equal(r1.out, '');
  assert.match(r1.err, new RegExp(`^bench:verify: tinyq-lexical: 1 of 1 repositories not under ${empty}: acme/tinyq \\(set --mirrors DIR or ISSUELOC_MIRRORS\\)\n$`));

  const other = edited('tinyq-lexical', (reg) => { reg.dataset.sha256 = '0'.repeat(64); });
  const gone = edited('tinyq-lexical', (reg) => { reg.dataset.path = 'DATA/no/such.jsonl'; });
  try {
    const r2 = verify('--regressions', other, 'tinyq-lexical');
    assert.equal(r2.code, 2);
    assert.match(r2.err, /^bench:verify: tinyq-lexical: dataset \S+tinyq\.jsonl has sha256 bce30d48\w+, the regression expects 0{64} \(another version of the data set\)\n$/);
    const r3 = verify('--regressions', gone, 'tinyq-lexical', '--data', join(work, 'data'));
    assert.equal(r3.code, 2);
    assert.match(r3.err, /^bench:verify: tinyq-lexical: dataset DATA\/no\/such\.jsonl not found \(\S+\/data\/no\/such\.jsonl; set --data DIR or ISSUELOC_DATA\)\n$/);
  } finally {
    cleanup(other);
    cleanup(gone);
  }
});

test('a failing bench exits 3 with its last stderr line; usage errors and unknown names exit 2', () => {
  const dir = edited('tinyq-lexical', (reg) => { reg.command.push('--no-such-option'); });
  try {
    const r = verify('--regressions', dir, 'tinyq-lexical');
    assert.equal(r.code, 3);
    assert.match(r.err, /^bench:verify: tinyq-lexical: dist\/bench\/swebench-lite\.js exited with 2: .*no-such-option/m);
  } finally {
    cleanup(dir);
  }
  const unknown = verify('--regressions', FIXTURES, 'nope');
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /^bench:verify: no regression nope in \S+ \(there: tinyq-lexical, tinyq-model\)\n$/);
  assert.equal(verify('--regressions', FIXTURES).code, 2);
  assert.equal(verify('--regressions', FIXTURES, '--all', '--timeout', '0').code, 2);
});

test('--record writes the measured values into a regression that expects none yet', () => {
  const dir = edited('tinyq-lexical', (reg) => { reg.expected = {}; reg.evaluated = 1; });
  try {
    const path = join(dir, 'tinyq-lexical.json');
    const before = verify('--regressions', dir, 'tinyq-lexical');
    assert.equal(before.code, 2);
    assert.match(before.err, /expects no values yet \(bench:verify --record tinyq-lexical writes them\)/);
    const r = verify('--regressions', dir, 'tinyq-lexical', '--record');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^tinyq-lexical: recorded 4 issues into /);
    assert.deepEqual(readRegression(path).expected, readRegression(join(FIXTURES, 'tinyq-lexical.json')).expected);
    assert.equal(readRegression(path).evaluated, 4);
    assert.equal(verify('--regressions', dir, 'tinyq-lexical').code, 0);
  } finally {
    cleanup(dir);
  }
});

test('datasets under IMPORTS (--imports): an absent folder is one line, exit 2; a further dataset of another version too; present, the command reads them', () => {
  const imports = join(work, 'imports');
  mkdirSync(imports, { recursive: true });
  copyFileSync(join(ROOT, 'test', 'fixtures', 'data', 'tinyq.jsonl'), join(imports, 'tinyq.jsonl'));
  const fromImports = edited('tinyq-lexical', (reg) => {
    reg.dataset.path = 'IMPORTS/tinyq.jsonl';
    reg.command[reg.command.indexOf('--data') + 1] = 'IMPORTS/tinyq.jsonl';
  });
  const further = edited('tinyq-lexical', (reg) => { reg.datasets = [{ path: 'IMPORTS/tinyq.jsonl', sha256: '0'.repeat(64) }]; });
  try {
    const absent = verify('--regressions', fromImports, 'tinyq-lexical', '--imports', join(work, 'no-imports'));
    assert.equal(absent.code, 2);
    assert.equal(absent.out, '');
    assert.match(absent.err, /^bench:verify: tinyq-lexical: imported-sets folder \S+\/no-imports absent \(set --imports DIR or ISSUELOC_IMPORTS; [^\n]*\)\n$/);
    const other = verify('--regressions', further, 'tinyq-lexical', '--imports', imports);
    assert.equal(other.code, 2);
    assert.match(other.err, /^bench:verify: tinyq-lexical: dataset \S+\/imports\/tinyq\.jsonl has sha256 bce30d48\w+, the regression expects 0{64} /);
    const ok = verify('--regressions', fromImports, 'tinyq-lexical', '--imports', imports);
    assert.equal(ok.code, 0, ok.err);
    assert.match(ok.err, /running node \S+ --data \S+\/imports\/tinyq\.jsonl /);
  } finally {
    cleanup(fromImports);
    cleanup(further);
  }
});

test('a malformed regression file is refused naming the file and the field', () => {
  const dir = edited('tinyq-lexical', (reg) => { reg.command = ['python', 'x.py']; });
  try {
    assert.throws(() => readRegression(join(dir, 'tinyq-lexical.json')), /tinyq-lexical\.json: "command" must be \["node", SCRIPT, ARGS…\]/);
    const r = verify('--regressions', dir, '--all');
    assert.equal(r.code, 2);
    assert.match(r.err, /^bench:verify: \S+tinyq-lexical\.json: "command" must be/);
  } finally {
    cleanup(dir);
  }
});

test('bench/multi-swe output reads as rows: the system for all issues, `system [group]` per language or fold', () => {
  const out = benchOutputOf({
    evaluated: 3, keys: ['file Acc@1', 'MRR'], rows: [
      { system: 'model default', group: 'all', issues: 3, values: [33.3, 0.5] },
      { system: 'model default', group: 'cpp', issues: 1, values: [100, 1] },
    ],
  });
  assert.deepEqual([...out.rows.keys()], ['model default', 'model default [cpp]']);
  assert.deepEqual(out.rows.get('model default [cpp]'), { 'file Acc@1': 100, MRR: 1 });
  assert.throws(() => benchOutputOf({ evaluated: 1, keys: ['MRR'], rows: [{ system: 'x', values: [1] }] }), /does not match "keys"/);
});
