// `issueloc dataset import` end to end: tiny repositories built here, slices of the real data sets (test/fixtures/data).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { datasetStats } from '../../src/dataset/stats.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { fixtureData } from '../fixtures/data.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));
const dir = tempDir('issueloc-cli-import-');
after(() => cleanup(dir));

function run(args: string[]): { out: string; err: string; code: number } {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, BIN, ...args, '--no-progress'], { encoding: 'utf8' });
  return { out: r.stdout, err: r.stderr, code: r.status ?? -1 };
}
/** {@link run} through the CLI's main in the file's worker thread (runInProcess), for runs whose process is not under test. */
const runIn = (args: string[]) => runInProcess([...args, '--no-progress']);
const jsonl = (f: string): Record<string, unknown>[] => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const writeJsonl = (name: string, rows: unknown[], extra = ''): string => {
  const p = join(dir, name);
  writeFileSync(p, rows.map((r) => JSON.stringify(r)).join('\n') + '\n' + extra);
  return p;
};
/** The first `n` lines of a committed data slice, as objects. */
const slice = (file: string, n: number): Record<string, unknown>[] =>
  readFileSync(fixtureData(file), 'utf8').split('\n').slice(0, n).map((l) => JSON.parse(l));

const A_PY = 'def f(x):\n    return x\n\n\ndef g():\n    return 1\n';

test('import --from swebench --mirrors: gold functions, drop reasons with codes, invalid rows; stats reads it', async () => {
  const mirrors = join(dir, 'mirrors');
  const work = join(mirrors, 'o+r', 'repo');
  const base = commitFiles(work, { 'pkg/a.py': A_PY, 'tests/test_a.py': 'def test_f():\n    pass\n' });
  commitFiles(work, { 'pkg/a.py': A_PY.replace('return x', 'return x + 1') });
  const editPatch = git(work, 'diff', 'HEAD~1', 'HEAD') + '\n';
  commitFiles(work, { 'pkg/a.py': A_PY.replace('return x', 'return x + 1') + '\n\ndef h():\n    return 2\n' });
  const addPatch = git(work, 'diff', 'HEAD~1', 'HEAD') + '\n';
  const row = (id: string, repo: string, commit: string, patch: string) => ({
    instance_id: id, repo, base_commit: commit, problem_statement: `Title ${id}\nbody`, patch, test_patch: 'x', created_at: '2020-01-02T03:04:05Z',
  });
  // a patch saved with CRLF line ends, holding a pure rename: positives are the text-diff files
  const renamePatch = 'diff --git a/pkg/b.py b/pkg/c.py\nsimilarity index 100%\nrename from pkg/b.py\nrename to pkg/c.py\n';
  const input = writeJsonl('swe.jsonl', [
    row('o__r-1', 'o/r', base, (editPatch + renamePatch).replace(/\n/g, '\r\n')),
    row('o__r-2', 'o/r', base, addPatch),
    row('o__r-3', 'o/r', '0'.repeat(40), editPatch),
    row('x__y-1', 'x/y', base, editPatch),
  ], '{not json\n');
  const out = join(dir, 'swe.dataset.jsonl');
  const failed = run(['dataset', 'import', '--from', 'swebench', '--input', input, '--mirrors', mirrors, '-o', out]);
  assert.equal(failed.code, 2);
  assert.match(failed.err, /swe\.jsonl:5: not valid JSON/);
  assert.equal(existsSync(out), false);

  const r = await runIn(['dataset', 'import', '--from', 'swebench', '--input', input, '--mirrors', mirrors, '-o', out, '--skip-invalid']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /rows 5 \(1 invalid rows skipped\) · in dataset 1 · positive functions 1 .* · pure renames 1 \(not positives\)/);
  const records = jsonl(out) as { issue: { id: string; title: string }; positiveFunctions: string[]; positives: string[]; aprioriCommit: string; candidates: number; provenance: { repoPath: string; pureRenames: unknown } }[];
  assert.equal(records.length, 1);
  assert.deepEqual([records[0].issue.id, records[0].issue.title, records[0].positives, records[0].positiveFunctions], ['o__r-1', 'Title o__r-1', ['pkg/a.py'], ['pkg/a.py:f']]);
  assert.equal(records[0].aprioriCommit, base);
  assert.equal(records[0].candidates, 1);
  assert.equal(records[0].provenance.repoPath, work);
  assert.deepEqual(records[0].provenance.pureRenames, [{ from: 'pkg/b.py', to: 'pkg/c.py' }]);
  const dropped = jsonl(join(dir, 'swe.dataset.dropped.jsonl'));
  assert.deepEqual(dropped.map((d) => [d.id, d.reason]), [
    ['o__r-2', 'no-function-edited'],
    ['o__r-3', 'base-commit-missing'],
    ['x__y-1', 'repo-not-available'],
  ]);
  assert.match(String(dropped[2].origin), /swe\.jsonl:4$/);
  const meta = JSON.parse(readFileSync(join(dir, 'swe.dataset.meta.json'), 'utf8'));
  assert.equal(meta.tool, 'issueloc dataset import');
  assert.deepEqual(meta.counts, { rows: 5, invalidRows: 1, inDataset: 1, samples: 1, dropped: 3, recordsWithoutFunctions: 0, positiveFunctions: 1, changesTests: 1, pureRenames: 1 });
  const stats = datasetStats(out);
  assert.deepEqual([stats.inDataset, stats.unknownIssues, stats.linked, stats.variant], [1, null, null, 'swebench']);
  assert.deepEqual(stats.dropReasons, { 'no-function-edited': 1, 'base-commit-missing': 1, 'repo-not-available': 1 });
  assert.deepEqual(stats.functions, { min: 1, max: 1, mean: 1, median: 1 });

  // --repo for rows of two repositories is refused, and nothing is written
  const two = join(dir, 'two.jsonl');
  const refused = await runIn(['dataset', 'import', '--from', 'swebench', '--input', input, '--repo', work, '-o', two, '--skip-invalid']);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /rows name more than one repository \(o\/r, x\/y\); use --mirrors DIR/);
  assert.equal(existsSync(two), false);
});

test('import --from locbench: rows of repositories not mirrored are dropped by name (slice of Loc-Bench V1)', async () => {
  const empty = join(dir, 'no-mirrors');
  mkdirSync(empty);
  const rows = slice('locbench.jsonl', 2);
  const out = join(dir, 'loc.jsonl');
  const r = await runIn(['dataset', 'import', '--from', 'locbench', '--input', writeJsonl('loc-in.jsonl', rows), '--mirrors', empty, '-o', out]);
  assert.equal(r.code, 1); // no record
  assert.deepEqual(
    jsonl(join(dir, 'loc.dropped.jsonl')).map((d) => [d.id, d.reason, d.detail]),
    rows.map((x) => [x.instance_id, 'repo-not-available', `repository ${String(x.repo)} not available`]),
  );
  assert.equal(readFileSync(out, 'utf8'), '');
  assert.match(run(['dataset', 'import', '--from', 'locbench', '--input', out, '-o', out]).err, /exactly one of --repo PATH .* and --mirrors DIR/);
});

test('import --from tomcat --repo: first parent as a-priori state, function positives, unknown commit dropped', async () => {
  const [first, second] = slice('tomcat.jsonl', 2);
  const files = String(first.files).split(' '); // PageInfo.java, Validator.java
  const work = join(dir, 'tomcat');
  const javaOf = (cls: string, v: string) => `package org.apache.jasper.compiler;\nclass ${cls} {\n    int run() {\n        return ${v};\n    }\n}\n`;
  const parent = commitFiles(work, { [files[0]]: javaOf('PageInfo', '1'), [files[1]]: javaOf('Validator', '1') });
  const fix = commitFiles(work, { [files[0]]: javaOf('PageInfo', '2') }, 'Fix https://issues.apache.org/bugzilla/show_bug.cgi?id=56012');
  const input = writeJsonl('tomcat-in.jsonl', [{ ...first, commit: fix.slice(0, 7) }, second]);
  const out = join(dir, 'tomcat.jsonl');
  const r = await runIn(['dataset', 'import', '--from', 'tomcat', '--input', input, '--repo', work, '-o', out]);
  assert.equal(r.code, 0, r.err);
  const [rec] = jsonl(out) as { issue: { id: string; title: string }; commits: string[]; aprioriCommit: string; positives: string[]; positiveFunctions: string[]; changesTests: boolean; variant: string }[];
  assert.equal(rec.issue.id, '56012');
  assert.equal(rec.issue.title, 'wrong import statement generation while using the extends attribute of the page directive');
  assert.deepEqual([rec.commits, rec.aprioriCommit, rec.variant], [[fix], parent, 'ye2014']);
  assert.deepEqual(rec.positives, files); // Validator.java is listed by Ye et al. and exists at the parent
  assert.deepEqual(rec.positiveFunctions, [`${files[0]}:PageInfo.run`]);
  assert.equal(rec.changesTests, false);
  const dropped = jsonl(join(dir, 'tomcat.dropped.jsonl'));
  assert.deepEqual(dropped.map((d) => [d.id, d.reason]), [[String(second.bug_id), 'fix-commit-not-found']]);
  assert.match(String(dropped[0].detail), new RegExp(`fixing commit ${String(second.commit)} not found`));
  // the Tomcat set with --mirrors needs apache+tomcat/repo there
  assert.match(run(['dataset', 'import', '--from', 'tomcat', '--input', input, '--mirrors', dir, '-o', out]).err, /needs apache\/tomcat/);
});
