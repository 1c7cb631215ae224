// `issueloc dataset import --from polybench`: the committed synthetic rows (test/fixtures/data/polybench-tasks.jsonl) over a repository built here.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { polybenchFunction } from '../../src/dataset/import/polybench.js';
import type { DatasetRecord } from '../../src/dataset/record.js';
import { fixtureData } from '../fixtures/data.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { jsonl, run, write } from './cli-run.js';

const dir = tempDir('issueloc-import-polybench-');
after(() => cleanup(dir));

const TASKS = fixtureData('polybench-tasks.jsonl');
const mirrors = join(dir, 'mirrors');

/** acme/widgets at the fixture's base commit (dates and author fixed: the same commit id every time). */
const base = commitFiles(join(mirrors, 'acme+widgets', 'repo'), {
  'src/pkg/a.py': 'def f(x):\n    return x\n\n\ndef g():\n    return 1\n',
  'src/main/java/p/A.java': 'package p;\n\npublic class A {\n    public int run() {\n        return 1;\n    }\n}\n',
  'lib/b.js': 'export function h(x) {\n  return x;\n}\n',
  'tests/test_a.py': 'def test_f():\n    pass\n',
  'README.md': '# widgets\n',
}, 'base');

test('the benchmark node ids as function ids: classes and modules are no functions, Windows separators turn to /', () => {
  assert.equal(polybenchFunction('k/src/ops/core.py->module->class_definition:Map->function_definition:call'), 'k/src/ops/core.py:Map.call');
  assert.equal(polybenchFunction('a\\B.java->program->class_declaration:B->constructor_declaration:B'), 'a/B.java:B.B');
  assert.equal(polybenchFunction('k/src/ops/core.py->module->class_definition:Map'), null);
  assert.equal(polybenchFunction('k/x.js->program'), null);
  assert.equal(polybenchFunction(''), null);
});

test('import --from polybench: records at the named base, given functions and agreement, drops by reason, corrupt lines exit 2', () => {
  assert.equal(base, '4cf5e12f48597fa52cb56049e3bdd222a3d97774', 'the fixture names the commit this build gives');
  const input = join(dir, 'tasks.jsonl');
  copyFileSync(TASKS, input);
  write(input, `${readFileSync(TASKS, 'utf8')}{not json\n`);
  const out = join(dir, 'pb.jsonl');
  const args = ['dataset', 'import', '--from', 'polybench', '--input', input, '--mirrors', mirrors, '-o', out];
  const failed = run(args);
  assert.equal(failed.code, 2);
  assert.match(failed.err, /^issueloc: .*tasks\.jsonl:10: not valid JSON/);
  assert.equal(existsSync(out), false);

  const r = run([...args, '--skip-invalid']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /rows 10 \(1 invalid rows skipped\) · in dataset 2 /);
  assert.match(r.out, /\nby language: Java 1 kept \/ 1 dropped, JavaScript 0 kept \/ 2 dropped, Python 1 kept \/ 1 dropped, TypeScript 0 kept \/ 1 dropped\n/);
  assert.match(r.out, /gold functions vs the source's own: 2 records · given 2, ours 2, both 2 · given found by ours 100\.0 %/);
  const [py, java, ...more] = jsonl(out) as unknown as DatasetRecord[];
  assert.equal(more.length, 0);
  assert.deepEqual([py.issue.id, py.issue.title, py.issue.body.trim()], ['acme__widgets-1', 'Add an offset to f', 'f should add one to its argument.']);
  assert.doesNotMatch(JSON.stringify(py.issue), /hints/);
  assert.deepEqual([py.repo, py.commits, py.aprioriCommit, py.changesTests, py.candidates], ['acme/widgets', [], base, true, 3]);
  assert.deepEqual(py.positives, ['src/pkg/a.py']); // the added file is no gold file
  assert.deepEqual(py.positiveFunctions, ['src/pkg/a.py:f']);
  assert.deepEqual(py.provenance.givenFunctions, ['src/pkg/a.py:f']); // added.py's node left out with its file
  assert.deepEqual([py.provenance.source, py.provenance.sourceId, py.provenance.language], ['polybench', 'acme__widgets-1', 'Python']);
  assert.deepEqual([java.issue.title, java.positives, java.changesTests], ['Run returns 2', ['src/main/java/p/A.java'], false]);
  assert.deepEqual(java.provenance.givenFunctions, ['src/main/java/p/A.java:A.run']);
  assert.equal(java.positiveFunctions.length, 1);
  assert.match(java.positiveFunctions[0], /^src\/main\/java\/p\/A\.java:.*run$/);
  const dropped = jsonl(join(dir, 'pb.dropped.jsonl'));
  assert.deepEqual(dropped.map((d) => [d.id, d.reason]), [
    ['acme__widgets-3', 'base-commit-missing'],
    ['acme__widgets-4', 'empty-issue'],
    ['acme__widgets-5', 'no-positive'],
    ['google__gson-6', 'excluded-repository'],
    ['acme__missing-7', 'repo-not-available'],
    ['swe__bench-8', 'other-format'],
    ['line-9', 'other-format'],
  ]);
  const meta = JSON.parse(readFileSync(join(dir, 'pb.meta.json'), 'utf8'));
  assert.deepEqual([meta.from, meta.counts.dropped, meta.agreement.identicalRecords], ['polybench', 7, 2]);
  assert.deepEqual(meta.byLanguage.Java, { records: 1, dropped: 1, dropReasons: { 'excluded-repository': 1 } });
  assert.equal(dropped[0].language, 'JavaScript');
});

test('import --from polybench: the artifact folder (data/tasks.jsonl) reads as its file; another format or no file is refused with exit 2', () => {
  const artifact = join(dir, 'artifact');
  write(join(artifact, 'data', 'tasks.jsonl'), readFileSync(TASKS, 'utf8'));
  const out = join(dir, 'folder.jsonl');
  const r = run(['dataset', 'import', '--from', 'polybench', '--input', artifact, '--mirrors', mirrors, '-o', out]);
  assert.equal(r.code, 0, r.err);
  assert.equal(jsonl(out).length, 2);

  const other = join(dir, 'denchmark-like.jsonl');
  write(other, '{"BR":{"BR_id":"1"},"commit":{"commit_id":"abc"}}\n{"instance_id":"a","repo":"o/r","patch":""}\n');
  const wrong = run(['dataset', 'import', '--from', 'polybench', '--input', other, '--mirrors', mirrors, '-o', join(dir, 'x.jsonl')]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.err, /^issueloc: .*denchmark-like\.jsonl: none of its 2 rows is a SWE-PolyBench task/);
  const missing = run(['dataset', 'import', '--from', 'polybench', '--input', join(dir, 'nope.jsonl'), '--mirrors', mirrors, '-o', join(dir, 'x.jsonl')]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^issueloc: cannot read .*nope\.jsonl/);
  const empty = run(['dataset', 'import', '--from', 'polybench', '--input', join(dir, 'mirrors'), '--mirrors', mirrors, '-o', join(dir, 'x.jsonl')]);
  assert.equal(empty.code, 2);
  assert.match(empty.err, /a folder without data\/tasks\.jsonl/);
  assert.equal(existsSync(join(dir, 'x.jsonl')), false);
});
