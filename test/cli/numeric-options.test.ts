// Numeric options of every command are parsed in one place: NaN, empty, negative, fractional
// and huge values are refused with one line naming the option (exit 2); `--top` above the
// number of items means all of them, not a crash (issue 12, item 10).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { parseNumberOption } from '../../src/util/number-option.js';
import { topK } from '../../src/retrieve/bm25f.js';
import { IssuelocError } from '../../src/errors.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { runInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

/** Every temporary folder of this file (repositories, caches) lives here, removed at the end. */
const scratch = tempDir('issueloc-numeric-options-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('localize --top 100000000: every item, no "Invalid typed array length"', () => {
  const repo = fixtureRepo([{ id: 'A', message: 'init', files: { 'parser.py': 'def parse_header(line):\n    return line\n\ndef parse_body(text):\n    return text\n' } }]);
  const cache = mkdtempSync(join(scratch, 'cache-'));
  try {
    for (const extra of [[], ['--model', 'default']]) {
      const r = run(['localize', '--repo', repo.dir, '--cache-dir', cache, '--issue', 'parse header body', '--top', '100000000', '--json', '--no-progress', ...extra]);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual((JSON.parse(r.out).functions as { id: string }[]).map((f) => f.id).sort(), ['parser.py:parse_body', 'parser.py:parse_header'], extra.join(' '));
    }
  } finally {
    repo.remove();
  }
});

test('topK with k above the number of documents keeps them all', () => {
  assert.deepEqual(topK(new Float32Array([0.5, 0, 2]), 5e9).map((h) => h.doc), [2, 0]);
  assert.deepEqual(topK(new Float32Array([1]), Number.POSITIVE_INFINITY).map((h) => h.doc), [0]);
  assert.deepEqual(topK(new Float32Array([1]), Number.NaN), []);
});

test('bad numbers are refused with the option named, before any work', async () => {
  const dir = mkdtempSync(join(scratch, 'none-'));
  const cases: [string[], RegExp][] = [
    [['localize', '--top', '0'], /^issueloc: --top takes a positive whole number, got '0'$/],
    [['localize', '--top', '-3'], /--top takes a positive whole number/],
    [['localize', '--top', '1.5'], /--top takes a positive whole number/],
    [['localize', '--top', 'NaN'], /--top takes a positive whole number/],
    [['localize', '--top', 'Infinity'], /--top takes a positive whole number/],
    [['localize', '--top', ''], /--top takes a positive whole number, got ''/],
    [['localize', '--top', '1e300'], /--top takes a positive whole number up to 9007199254740991/],
    [['localize', '--max-body-words', '-1', '--issue', 'parse'], /--max-body-words takes a whole number ≥ 0/],
    [['localize', '--max-body-words', '2.5', '--issue', 'parse'], /--max-body-words takes a whole number ≥ 0/],
    [['localize', '--max-file-bytes', '', '--issue', 'parse'], /--max-file-bytes takes a positive whole number/],
    [['localize', '--k1', 'NaN', '--issue', 'parse'], /--k1 takes a number ≥ 0/],
    [['localize', '--b', '2', '--issue', 'parse'], /--b takes a number from 0 to 1, got '2'/],
    [['localize', '--title-weight', '-1', '--issue', 'parse'], /--title-weight takes a number ≥ 0/],
    [['localize', '--weights', 'body=NaN', '--issue', 'parse'], /--weights body takes a number ≥ 0/],
    [['index', '--max-body-words', 'lots'], /--max-body-words takes a whole number ≥ 0/],
    [['eval', '--dataset', 'd', '-o', join(dir, 'o'), '--workers', '0'], /--workers takes a whole number from 1 to 64/],
    [['eval', '--dataset', 'd', '-o', join(dir, 'o'), '--run-depth', '-1'], /--run-depth takes a positive whole number/],
    [['eval', '--dataset', 'd', '-o', join(dir, 'o'), '--limit', '0.5'], /--limit takes a positive whole number/],
    [['train', '--dataset', 'd', '-o', join(dir, 'm'), '--tree-depth', '1000'], /--tree-depth takes a whole number from 1 to 30/],
    [['train', '--dataset', 'd', '-o', join(dir, 'm'), '--bags', '0'], /--bags takes a whole number from 1 to 1000/],
    [['train', '--dataset', 'd', '-o', join(dir, 'm'), '--learning-rate', '0'], /--learning-rate takes a positive number/],
    [['export-training', '--dataset', 'd', '--repo', dir, '-o', join(dir, 'x'), '--filter-top', '-1'], /--filter-top takes a whole number ≥ 0/],
  ];
  // the first through the executable, the others through the same main in one worker thread
  for (const [i, [args, message]] of cases.entries()) {
    const r = i === 0 ? run([...args, '--repo', dir]) : await runInProcess([...args, '--repo', dir]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err.trim(), message, args.join(' '));
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
  }
});

test('parseNumberOption: bounds and their wording', () => {
  assert.equal(parseNumberOption('7', '--n', { min: 1, whole: true }), 7);
  assert.equal(parseNumberOption(' 0.25 ', '--x', { min: 0, max: 1 }), 0.25);
  const refused = (v: string, b: Parameters<typeof parseNumberOption>[2]) => {
    try {
      parseNumberOption(v, '--x', b);
    } catch (e) {
      assert.ok(e instanceof IssuelocError && e.exitCode === 2);
      return e.message;
    }
    assert.fail(`${v} accepted`);
  };
  assert.equal(refused('0', { min: 0, aboveMin: true }), "--x takes a positive number, got '0'");
  assert.equal(refused('5', { min: 0, max: 1, aboveMin: true }), "--x takes a number > 0 and ≤ 1, got '5'");
  assert.equal(refused('1', { min: 2, whole: true }), "--x takes a whole number ≥ 2, got '1'");
  assert.equal(refused('0x', {}), "--x takes a number, got '0x'");
});
