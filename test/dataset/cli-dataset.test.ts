import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { datasetStats } from '../../src/dataset/stats.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));
const repo = fixtureRepo([
  { id: 'A', message: 'init', files: { 'src/A.java': 'class A {}', 'src/B.java': 'class B {}', 'src/C.java': 'class C {}' } },
  { id: 'B', parents: ['A'], message: '[MNG-1] fix A', files: { 'src/A.java': 'class A { int a; }' } },
  { id: 'C', parents: ['B'], message: '[MNG-2] fix B and C', files: { 'src/B.java': 'class B { int b; }', 'src/C.java': null } },
  { id: 'D', parents: ['C'], message: '[MNG-77] unknown issue', files: { 'src/B.java': 'class B { int d; }' } },
]);
const dir = mkdtempSync(join(tmpdir(), 'issueloc-cli-dataset-'));
after(() => {
  repo.remove();
  rmSync(dir, { recursive: true, force: true });
});
const line = (key: string, resolution = 'Fixed') => JSON.stringify({ key, summary: `s ${key}`, type: 'Bug', status: 'Closed', resolution, created: 'Wed, 13 Apr 2011 02:34:34 +0000', resolved: null, description_html: '<p>x</p>' });
const issuesFile = join(dir, 'issues.jsonl');
writeFileSync(issuesFile, [line('MNG-1'), line('MNG-2'), line('MNG-3', 'Duplicate')].join('\n') + '\n');

/** Runs the `issueloc` executable; returns stdout, stderr and the exit code. */
function run(args: string[]): { out: string; err: string; code: number } {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, ...args], { encoding: 'utf8' });
  return { out: r.stdout, err: r.stderr, code: r.status ?? -1 };
}
/** {@link run} through the CLI's main in the file's worker thread (runInProcess), for runs whose process is not under test. */
const runIn = (args: string[]) => runInProcess([...args]);

test('dataset build writes records, dropped issues and counts; dataset stats prints Table 2', async () => {
  const outFile = join(dir, 'ds.jsonl');
  const { out, code } = run(['dataset', 'build', '--repo', repo.dir, '--issues', issuesFile, '--key', 'MNG', '-o', outFile, '--no-progress']);
  assert.equal(code, 0);
  assert.match(out, /max linkable 2 · linked 2 · in dataset 2/);
  const records = readFileSync(outFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(records.map((r) => [r.issue.id, r.positives]), [['MNG-1', ['src/A.java']], ['MNG-2', ['src/B.java', 'src/C.java']]]);
  const dropped = readFileSync(join(dir, 'ds.dropped.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(dropped.map((d) => [d.id, d.reason]), [['MNG-3', 'not-linkable']]);
  const stats = datasetStats(outFile);
  assert.deepEqual([stats.unknownIssues, stats.maxLinkable, stats.linked, stats.inDataset], [1, 2, 2, 2]);
  assert.deepEqual(stats.files, { min: 3, max: 3, mean: 3, median: 3 });
  assert.deepEqual(stats.positives, { min: 1, max: 2, mean: 1.5, median: 1.5 });
  const table = run(['dataset', 'stats', outFile]);
  assert.match(table.out, /unknown issues/);
  assert.match(table.out, /│ 1\s+│ 2\s+│ 2\s+│ 2\s+│/);
  const json = await runIn(['dataset', 'stats', outFile, '--json']);
  assert.equal(JSON.parse(json.out).positives.mean, 1.5);
});

test('dataset build: a corrupt issue line is named, or skipped and counted; a failed build writes nothing', async () => {
  const bad = join(dir, 'bad.jsonl');
  writeFileSync(bad, `${line('MNG-1')}\n{not json\n${line('MNG-2')}\n`);
  const outFile = join(dir, 'bad-out.jsonl');
  const failed = await runIn(['dataset', 'build', '--repo', repo.dir, '--issues', bad, '--key', 'MNG', '-o', outFile, '--no-progress']);
  assert.equal(failed.code, 2);
  assert.match(failed.err, new RegExp(`^issueloc: ${bad}:2: not valid JSON`));
  assert.equal(existsSync(outFile), false);
  const ok = await runIn(['dataset', 'build', '--repo', repo.dir, '--issues', bad, '--key', 'MNG', '-o', outFile, '--skip-invalid', '--no-progress']);
  assert.match(ok.out, /1 invalid records skipped/);
  assert.equal(JSON.parse(readFileSync(join(dir, 'bad-out.meta.json'), 'utf8')).counts.invalidIssueRecords, 1);
  // an existing output stays as it was when a later build fails (here: not a repository)
  const before = readFileSync(outFile, 'utf8');
  assert.match(run(['dataset', 'build', '--repo', dir, '--issues', bad, '--key', 'MNG', '-o', outFile, '--skip-invalid', '--no-progress']).err, /not a git repository/);
  assert.equal(readFileSync(outFile, 'utf8'), before);
  assert.match(run(['dataset', 'build', '--repo', repo.dir, '--issues', issuesFile, '-o', outFile, '--no-progress']).err, /pass --key KEY, --github or --link-pattern/);
});

test('dataset stats names a corrupt dataset line', async () => {
  const f = join(dir, 'corrupt.jsonl');
  writeFileSync(f, '{"issue":{"id":"x"},"positives":[],"candidates":1}\n{"issue":{}}\n');
  const r = await runIn(['dataset', 'stats', f]);
  assert.equal(r.code, 2);
  assert.match(r.err, new RegExp(`${f}:2: not a dataset record`));
});
