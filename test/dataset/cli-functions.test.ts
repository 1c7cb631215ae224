// `issueloc dataset build --functions / --only-with-tests` end to end, on a tiny repository.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { datasetStats } from '../../src/dataset/stats.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));

const A = (run: string, extra = ''): string =>
  ['package p;', 'class A {', '    int run() {', `        return ${run};`, '    }', '    int other() {', '        return 2;', '    }', extra, '}', ''].join('\n');
const B = (v: string): string => ['package p;', 'class B {', '    int b() {', `        return ${v};`, '    }', '}', ''].join('\n');

const repo = fixtureRepo([
  { id: 'I', message: 'init', files: { 'src/main/java/p/A.java': A('1'), 'src/main/java/p/B.java': B('0'), 'src/test/java/p/ATest.java': 'class ATest {}' } },
  // edits A.run, adds A.fresh (new: not a positive function) and changes a test
  {
    id: 'F1', parents: ['I'], message: '[MNG-1] fix run',
    files: { 'src/main/java/p/A.java': A('11', '    int fresh() { return 3; }'), 'src/test/java/p/ATest.java': 'class ATest { int t; }' },
  },
  // edits B.b only: no test change
  { id: 'F2', parents: ['F1'], message: '[MNG-2] fix b', files: { 'src/main/java/p/B.java': B('1') } },
]);
const dir = mkdtempSync(join(tmpdir(), 'issueloc-cli-functions-'));
after(() => {
  repo.remove();
  rmSync(dir, { recursive: true, force: true });
});
const issue = (key: string) => JSON.stringify({ key, summary: `s ${key}`, type: 'Bug', status: 'Closed', resolution: 'Fixed', created: 'Wed, 13 Apr 2011 02:34:34 +0000', resolved: null, description_html: '<p>x</p>' });
const issuesFile = join(dir, 'issues.jsonl');
writeFileSync(issuesFile, `${issue('MNG-1')}\n${issue('MNG-2')}\n`);

function run(args: string[]): { out: string; err: string; code: number } {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, ...args], { encoding: 'utf8' });
  return { out: r.stdout, err: r.stderr, code: r.status ?? -1 };
}
/** {@link run} through the CLI's main in the file's worker thread (runInProcess), for runs whose process is not under test. */
const runIn = (args: string[]) => runInProcess([...args]);
const jsonl = (f: string): Record<string, unknown>[] => readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const build = (out: string, ...extra: string[]) => runIn(['dataset', 'build', '--repo', repo.dir, '--issues', issuesFile, '--key', 'MNG', '-o', join(dir, out), '--no-progress', ...extra]);

test('dataset build --functions: existing functions the fixing commit edits, new ones left out; stats show them', async () => {
  const r = await build('fn.jsonl', '--functions');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /positive functions 2 · records without any 0/);
  const records = jsonl(join(dir, 'fn.jsonl')) as { issue: { id: string }; positiveFunctions: string[]; positiveModules: string[]; changesTests: boolean }[];
  assert.deepEqual(
    records.map((x) => [x.issue.id, x.positiveFunctions, x.changesTests]),
    [
      ['MNG-1', ['src/main/java/p/A.java:A.run'], true],
      ['MNG-2', ['src/main/java/p/B.java:B.b'], false],
    ],
  );
  assert.deepEqual(records[0].positiveModules, ['src/main/java/p/A.java:A']);
  const meta = JSON.parse(readFileSync(join(dir, 'fn.meta.json'), 'utf8'));
  assert.deepEqual(meta.functions, { recordsWithoutFunctions: 0, positiveFunctions: 2, unreadableCommits: [] });
  const stats = datasetStats(join(dir, 'fn.jsonl'));
  assert.deepEqual(stats.functions, { min: 1, max: 1, mean: 1, median: 1 });
  assert.equal(stats.withoutFunctions, 0);
  assert.match(run(['dataset', 'stats', join(dir, 'fn.jsonl')]).out, /functions min/);
  // without --functions the list stays empty and the table has no function columns
  assert.equal((await build('files.jsonl')).code, 0);
  assert.deepEqual(jsonl(join(dir, 'files.jsonl')).map((x) => x.positiveFunctions), [[], []]);
  assert.doesNotMatch((await runIn(['dataset', 'stats', join(dir, 'files.jsonl')])).out, /functions min/);
});

test('dataset build --only-with-tests keeps issues whose commit changes tests; the others are dropped with the reason', async () => {
  for (const extra of [['--functions'], []]) {
    const r = await build('tests.jsonl', '--only-with-tests', ...extra);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /dropped: no-test-change 1/);
    const records = jsonl(join(dir, 'tests.jsonl')) as { issue: { id: string }; positiveFunctions: string[] }[];
    assert.deepEqual(records.map((x) => x.issue.id), ['MNG-1']);
    assert.deepEqual(records[0].positiveFunctions, extra.length ? ['src/main/java/p/A.java:A.run'] : []);
    const dropped = jsonl(join(dir, 'tests.dropped.jsonl'));
    assert.deepEqual(dropped.map((d) => [d.id, d.reason, d.commits]), [['MNG-2', 'no-test-change', [repo.sha('F2')]]]);
    const meta = JSON.parse(readFileSync(join(dir, 'tests.meta.json'), 'utf8'));
    assert.deepEqual([meta.counts.inDataset, meta.counts.samples, meta.onlyWithTests], [1, 1, true]);
    const stats = datasetStats(join(dir, 'tests.jsonl'));
    assert.deepEqual([stats.linked, stats.inDataset, stats.dropReasons?.['no-test-change']], [2, 1, 1]);
  }
});
