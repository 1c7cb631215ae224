// `issueloc dataset import --from denchmark|swebench-dev`: fixtures written here in the sources' layouts, repositories built here.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { excludedRepository } from '../../src/dataset/import/excluded.js';
import { readBugDescription } from '../../src/dataset/import/swebench-dev.js';
import { functionAgreement } from '../../src/dataset/import/agreement.js';
import { denchmarkText } from '../../src/dataset/import/denchmark.js';
import type { DatasetRecord } from '../../src/dataset/record.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { jsonl, run, runIn, write } from './cli-run.js';

const dir = tempDir('issueloc-import-training-');
after(() => cleanup(dir));


const A_PY = 'def f(x):\n    return x\n\n\ndef g():\n    return 1\n';
const OLD_PY = 'def k():\n    return 0\n';

/** A Denchmark simplejson report (the fields the importer reads, Windows separators as Denchmark writes them). */
function report(id: string, commit: string, files: Record<string, unknown>, title = `Bug ${id}`, body = 'it breaks'): unknown {
  return {
    BR: { BR_id: id, BR_author: 'a', BRopenT: '2020-01-02T03:04:05Z', BRcloseT: '2020-01-03T03:04:05Z', BR_text: { BRsummary: title, BRdescription: body }, comments: {} },
    commit: { commit_id: commit, commit_author: 'a', commitT: '2020-01-03 03:04:05+00:00', changed_files: files },
  };
}
const file = (kind: string, oldName: string, newName: string, methods: string[] = []) => ({
  file_change_type: kind, file_Nmethod: methods.length, file_old_name: oldName, file_new_name: newName,
  hunks: Object.fromEntries(methods.map((m, k) => [`hunk_${k}`, { Ismethod: 1, added_lines: '2', deleted_lines: '2', method_info: { method_name: m, method_params: '', method_startline: '1', method_endline: '2' } }])),
});

test('import --from denchmark: Windows paths, renames, binary and test files, drops by reason, agreement; eval reads the records', async () => {
  const mirrors = join(dir, 'mirrors');
  const work = join(mirrors, 'o+r', 'repo');
  const base = commitFiles(work, {
    'src/pkg/a.py': A_PY, 'src/pkg/old.py': OLD_PY, 'tests/test_a.py': 'def test_f():\n    pass\n', 'img.bin': Buffer.from([0, 1, 2, 0, 255]),
  });
  git(work, 'mv', 'src/pkg/old.py', 'src/pkg/new.py');
  const fix = commitFiles(work, {
    'src/pkg/a.py': A_PY.replace('return x', 'return x + 1'), 'src/pkg/new.py': OLD_PY.replace('0', '1'), 'src/pkg/added.py': 'def n():\n    pass\n',
    'tests/test_a.py': 'def test_f():\n    assert True\n', 'img.bin': Buffer.from([0, 9, 9, 0, 255]),
  }, 'fix #1');
  const root = join(dir, 'dench', 'JSonSet', 'simplejson');
  const put = (repo: string, name: string, value: unknown): void => write(join(root, repo, name), JSON.stringify(value));
  put('o+r', '1.json', report('1', fix, {
    file_0: file('MODIFY', 'src\\pkg\\a.py', 'src\\pkg\\a.py', ['f']),
    file_1: file('RENAME', 'src\\pkg\\old.py', 'src\\pkg\\new.py', ['k']),
    file_2: file('ADD', 'None', 'src\\pkg\\added.py'),
    file_3: file('MODIFY', 'img.bin', 'img.bin'),
    file_4: file('MODIFY', 'tests\\test_a.py', 'tests\\test_a.py', ['test_f']),
  }, 'Crash in <denchmark-code>f</denchmark-code>', '<denchmark-h:h2>Bug</denchmark-h> see <denchmark-link:https://x.org/y></denchmark-link>'));
  put('o+r', '2.json', report('2', 'deadbeef'.repeat(5), { file_0: file('MODIFY', 'src\\pkg\\a.py', 'src\\pkg\\a.py') }));
  put('o+r', '3.json', report('3', fix, { file_0: file('MODIFY', 'src\\pkg\\a.py', 'src\\pkg\\a.py') }, '', ' \n '));
  put('o+r', '4.json', { instance_id: 'x', patch: '' });
  put('o+r', '5.json', report('5', fix, { file_0: file('MODIFY', 'README.md', 'README.md') }));
  put('o+r', '6.json', report('6', fix, { file_0: file('MODIFY', 'src\\pkg\\a.py', 'src\\pkg\\a.py', ['f']) }));
  put('google+gson', '7.json', report('7', fix, { file_0: file('MODIFY', 'src\\pkg\\a.py', 'src\\pkg\\a.py') }));
  put('x+y', '8.json', report('8', fix, { file_0: file('MODIFY', 'src\\pkg\\a.py', 'src\\pkg\\a.py') }));
  write(join(root, 'o+r', '9.json'), '{not json');

  const out = join(dir, 'dench.jsonl');
  const args = ['dataset', 'import', '--from', 'denchmark', '--input', join(dir, 'dench'), '--mirrors', mirrors, '-o', out];
  const failed = run(args);
  assert.equal(failed.code, 2);
  assert.match(failed.err, /^issueloc: .*9\.json: not valid JSON/);
  assert.equal(existsSync(out), false);

  // the executable refused the invalid row; the other runs of the file through the CLI's main in-process
  const r = await runIn([...args, '--skip-invalid']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /rows 9 \(1 invalid rows skipped\) · in dataset 2 /);
  assert.match(r.out, /gold functions vs the source's own: 2 records · given 3, ours 3, both 3 · given found by ours 100\.0 %/);
  const [rec, ...more] = jsonl(out) as unknown as DatasetRecord[];
  assert.deepEqual(more.map((m) => [m.issue.id, m.positives]), [['o__r-6', ['src/pkg/a.py']]]);
  assert.equal(rec.issue.id, 'o__r-1');
  assert.equal(rec.issue.title, 'Crash in f');
  assert.equal(rec.issue.body, 'Bug see https://x.org/y');
  assert.deepEqual([rec.repo, rec.commits, rec.aprioriCommit, rec.candidates, rec.changesTests], ['o/r', [fix], base, 2, true]);
  assert.deepEqual(rec.positives, ['src/pkg/a.py', 'src/pkg/old.py']); // the rename's old name; no test, binary or added file
  assert.deepEqual(rec.positiveFunctions, ['src/pkg/a.py:f', 'src/pkg/old.py:k']);
  assert.deepEqual(rec.provenance.givenFunctions, ['src/pkg/a.py:f', 'src/pkg/old.py:k']);
  assert.deepEqual([rec.provenance.source, rec.provenance.sourceId, rec.provenance.addedFiles], ['denchmark', 'o+r/1.json', ['src/pkg/added.py']]);
  const dropped = jsonl(join(dir, 'dench.dropped.jsonl'));
  assert.deepEqual(dropped.map((d) => [d.id, d.reason]).sort(), [
    ['google__gson-7', 'excluded-repository'],
    ['o__r-2', 'fix-commit-missing'],
    ['o__r-3', 'empty-issue'],
    ['o__r-4', 'other-format'],
    ['o__r-5', 'no-positive'],
    ['x__y-8', 'repo-not-available'],
  ]);
  const meta = JSON.parse(readFileSync(join(dir, 'dench.meta.json'), 'utf8'));
  assert.equal(meta.from, 'denchmark');
  assert.equal(meta.agreement.identicalRecords, 2);

  // the records are what eval reads: one issue ranked at its a-priori state
  const evalOut = join(dir, 'eval');
  const e = await runIn(['eval', '--dataset', out, '--mirrors', mirrors, '-o', evalOut, '--retrievers', 'bm25f', '--json']);
  assert.equal(e.code, 0, e.err);
  assert.match(e.out, /"o__r-1"/);
});

test('import --from denchmark: another format or an unreadable folder is refused with exit 2', async () => {
  const swe = join(dir, 'swe.jsonl');
  write(swe, '{"instance_id":"a","patch":""}\n');
  const asFile = await runIn(['dataset', 'import', '--from', 'denchmark', '--input', swe, '--mirrors', dir, '-o', join(dir, 'x.jsonl')]);
  assert.equal(asFile.code, 2);
  assert.match(asFile.err, /^issueloc: cannot read .*swe\.jsonl: not a folder/);
  const other = join(dir, 'other');
  write(join(other, 'a+b', '1.json'), '{"instance_id":"a"}');
  const wrong = await runIn(['dataset', 'import', '--from', 'denchmark', '--input', other, '--mirrors', dir, '-o', join(dir, 'x.jsonl')]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.err, /none of its 1 JSON files is a Denchmark report/);
  assert.equal(existsSync(join(dir, 'x.jsonl')), false);
});

test('import --from swebench-dev: base found from the buggy/ files, hints never in the issue, drops by reason', async () => {
  const mirrors = join(dir, 'dev-mirrors');
  const work = join(mirrors, 'o+dev', 'repo');
  commitFiles(work, { 'pkg/a.py': 'def f(x):\n    return 0\n' });
  const base = commitFiles(work, { 'pkg/a.py': A_PY, 'tests/test_a.py': 'def test_f():\n    pass\n' });
  commitFiles(work, { 'pkg/a.py': A_PY.replace('return x', 'return x + 1') });
  const patch = git(work, 'diff', 'HEAD~1', 'HEAD') + '\n';
  commitFiles(work, { 'pkg/a.py': A_PY.replace('return x', 'return x + 2') }); // newer than the pull request
  const created = git(work, 'log', '-1', '--format=%cI', base);
  const pr = (project: string, n: string, description: string, withPatch = true): void => {
    const p = join(dir, 'dev', 'projects', project, `PR${n}`);
    write(join(p, 'bug_description.txt'), description);
    if (withPatch) write(join(p, 'changes.patch'), patch);
    write(join(p, 'test_changes.patch'), 'diff --git a/tests/test_a.py b/tests/test_a.py\n');
    write(join(p, 'buggy', 'a.py'), A_PY);
  };
  pr('o__dev', '1', `f is wrong\nIt returns x.\n\n\nHints:\nchange f to add one\n\nCreated at: ${created}\nVersion: 1.0\n`);
  pr('o__dev', '2', `\n\nHints:\nonly hints\n\nCreated at: ${created}\nVersion: 1.0\n`);
  pr('o__dev', '3', 'no patch here\n', false);
  pr('sympy__sympy', '4', `t\n\nCreated at: ${created}\nVersion: 1.0\n`);
  const out = join(dir, 'dev.jsonl');
  const r = await runIn(['dataset', 'import', '--from', 'swebench-dev', '--input', join(dir, 'dev'), '--mirrors', mirrors, '-o', out]);
  assert.equal(r.code, 0, r.err);
  const [rec, ...more] = jsonl(out) as unknown as DatasetRecord[];
  assert.equal(more.length, 0);
  assert.deepEqual([rec.issue.id, rec.issue.title, rec.issue.body, rec.aprioriCommit, rec.positives, rec.positiveFunctions, rec.changesTests],
    ['o__dev-1', 'f is wrong', 'It returns x.', base, ['pkg/a.py'], ['pkg/a.py:f'], true]);
  assert.doesNotMatch(JSON.stringify(rec.issue), /add one/);
  assert.deepEqual([rec.provenance.source, rec.provenance.sourceId], ['swebench-dev', 'o__dev/PR1']);
  assert.deepEqual(jsonl(join(dir, 'dev.dropped.jsonl')).map((d) => [d.id, d.reason]).sort(), [
    ['o__dev-2', 'empty-issue'], ['o__dev-3', 'other-format'], ['sympy__sympy-4', 'excluded-repository'],
  ]);
});

test('leakage list: SWE-bench, Multi-SWE-bench (jackson-* by prefix) and held-out repositories, case-insensitive', () => {
  for (const r of ['django/django', 'Mockito/Mockito', 'FasterXML/jackson-module-kotlin', 'nlohmann/json', 'apache/commons-lang', 'apache/wicket', 'tokio-rs/tokio']) {
    assert.notEqual(excludedRepository(r), null, r);
  }
  for (const r of ['deepforge-dev/deepforge', 'marshmallow-code/marshmallow', 'apache/commons-io']) assert.equal(excludedRepository(r), null, r);
});

test('bug_description.txt: the problem statement only; Denchmark tags; agreement by short names', () => {
  assert.deepEqual(readBugDescription('T\nbody\n\nHints:\nfix it\n\nCreated at: 2020-01-01T00:00:00Z\nVersion: 2.0\n'),
    { problemStatement: 'T\nbody', created: '2020-01-01T00:00:00Z', version: '2.0' });
  assert.equal(readBugDescription('T\n\nCreated at: x\nVersion: y\n').problemStatement, 'T');
  assert.equal(denchmarkText('<denchmark-link:https://a/b>text</denchmark-link>'), 'text');
  const rec = (ours: string[], given: string[]): DatasetRecord => ({
    issue: { id: 'i', title: '', body: '', bodyRaw: '', type: '', category: 'Other', created: null, resolved: null, labels: [] },
    commits: [], aprioriCommit: '', positives: [], positiveFunctions: ours, candidates: 0, variant: 'v', provenance: { givenFunctions: given },
  });
  assert.deepEqual(functionAgreement([rec(['a.js:A.fork', 'a.js:B.x'], ['a.js:this.logger.fork', 'a.cc:Foo::y'])]),
    { records: 1, given: 2, ours: 2, both: 1, givenFoundByOurs: 0.5, oursFoundInGiven: 0.5, identicalRecords: 0 });
});
