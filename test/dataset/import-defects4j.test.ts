// `issueloc dataset import --from defects4j`: a fixture in Defects4J's and Quatrain's layouts, the repository built here.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBugReports } from '../../src/dataset/import/defects4j.js';
import type { DatasetRecord } from '../../src/dataset/record.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { jsonl, run, runIn, write } from './cli-run.js';

const dir = tempDir('issueloc-import-d4j-');
after(() => cleanup(dir));


const JAVA = 'package p;\n\npublic class A {\n    int f(int x) {\n        return x;\n    }\n\n    int g() {\n        return 1;\n    }\n}\n';
const HEADER = 'bug.id,revision.id.buggy,revision.id.fixed,report.id,report.url\n';

test('readBugReports: Quatrain lines by id, "None" text empty, other lines skipped', () => {
  const r = readBugReports('Cli-1$$Title one$$Body $$ with marks\nnot a report\nCli-2$$T$$None\n');
  assert.deepEqual([...r], [['Cli-1', { title: 'Title one', body: 'Body $$ with marks' }], ['Cli-2', { title: 'T', body: '' }]]);
});

test('import --from defects4j: fix = the fixed revision, base its first parent, leakage check, drops by reason', () => {
  const mirrors = join(dir, 'mirrors');
  const work = join(mirrors, 'apache+commons-cli', 'repo');
  const base = commitFiles(work, { 'src/java/p/A.java': JAVA, 'src/test/p/ATest.java': 'class ATest {}\n' });
  const fix = commitFiles(work, { 'src/java/p/A.java': JAVA.replace('return x;', 'return x + 1;'), 'src/test/p/ATest.java': 'class ATest { }\n' }, 'fix');
  const testOnly = commitFiles(work, { 'src/test/p/ATest.java': 'class ATest { int t; }\n' }, 'tests');
  const d4j = join(dir, 'd4j');
  const csv = (project: string, rows: string[]): void => write(join(d4j, 'framework', 'projects', project, 'active-bugs.csv'), HEADER + rows.join('\n') + '\n');
  csv('Cli', [
    `1,${base},${fix},CLI-13,https://issues.apache.org/jira/browse/CLI-13`,
    `2,${base},${'deadbeef'.repeat(5)},CLI-51,https://x`,
    `3,${base},${fix},CLI-1,https://x`,
    `4,${fix},${testOnly},CLI-2,https://x`,
  ]);
  // Defects4J's patch turns the fixed revision back into the buggy one
  write(join(d4j, 'framework', 'projects', 'Cli', 'patches', '1.src.patch'),
    git(work, 'diff', fix, base, '--', 'src/java/p/A.java') + '\n');
  csv('Lang', [`1,${base},${fix},LANG-1,https://x`]);
  csv('Codec', [`1,${base},${fix},CODEC-1,https://x`]);
  csv('Foo', [`1,${base},${fix},FOO-1,https://x`]);
  write(join(d4j, 'framework', 'projects', 'lib', 'README'), 'not a project\n');
  write(join(d4j, 'data', 'BugReport', 'Cli_bugreport.txt'), 'Cli-1$$f gives x$$f(1) should give 2\nCli-2$$t$$b\nCli-4$$t$$b\n');
  write(join(d4j, 'data', 'BugReport', 'Lang_bugreport.txt'), 'Lang-1$$t$$b\n');
  write(join(d4j, 'data', 'BugReport', 'Codec_bugreport.txt'), 'Codec-1$$t$$b\n');
  write(join(d4j, 'data', 'BugReport', 'Foo_bugreport.txt'), 'Foo-1$$t$$b\n');

  const out = join(dir, 'd4j.jsonl');
  const r = run(['dataset', 'import', '--from', 'defects4j', '--input', d4j, '--mirrors', mirrors, '-o', out]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /rows 7 .*in dataset 1 /);
  const [rec, ...more] = jsonl(out) as unknown as DatasetRecord[];
  assert.equal(more.length, 0);
  assert.deepEqual([rec.issue.id, rec.issue.title, rec.issue.body, rec.repo], ['Cli-1', 'f gives x', 'f(1) should give 2', 'apache/commons-cli']);
  assert.deepEqual([rec.commits, rec.aprioriCommit, rec.positives, rec.changesTests], [[fix], base, ['src/java/p/A.java'], true]);
  assert.equal(rec.positiveFunctions.length, 1);
  assert.match(rec.positiveFunctions[0], /^src\/java\/p\/A\.java:.*\bf$/);
  assert.deepEqual(rec.provenance.givenFunctions, rec.positiveFunctions);
  assert.match(r.out, /gold functions vs the source's own: 1 records · given 1, ours 1, both 1/);
  assert.deepEqual([rec.provenance.source, rec.provenance.sourceId, rec.provenance.buggyRevision, rec.provenance.reportId], ['defects4j', 'Cli-1', base, 'CLI-13']);
  const dropped = jsonl(join(dir, 'd4j.dropped.jsonl'));
  assert.deepEqual(dropped.map((d) => [d.id, d.reason]).sort(), [
    ['Cli-2', 'fix-commit-missing'],
    ['Cli-3', 'empty-issue'],
    ['Cli-4', 'no-positive'],
    ['Codec-1', 'repo-not-available'],
    ['Foo-1', 'unknown-project'],
    ['Lang-1', 'excluded-repository'],
  ]);
  const meta = JSON.parse(readFileSync(join(dir, 'd4j.meta.json'), 'utf8'));
  assert.deepEqual([meta.from, meta.counts.rows, meta.dropReasons['excluded-repository']], ['defects4j', 7, 1]);
});

test('import --from defects4j: a folder without active-bugs.csv is refused with exit 2, nothing written', async () => {
  const other = join(dir, 'other');
  write(join(other, 'framework', 'projects', 'X', 'active-bugs.csv'), 'id,patch\n1,x\n');
  // refusals: through the CLI's main in-process (the import itself ran as a process)
  const r = await runIn(['dataset', 'import', '--from', 'defects4j', '--input', other, '--mirrors', dir, '-o', join(dir, 'x.jsonl')]);
  assert.equal(r.code, 2);
  assert.match(r.err, /^issueloc: .*no Defects4J active-bugs\.csv rows found/);
  const none = await runIn(['dataset', 'import', '--from', 'defects4j', '--input', join(dir, 'missing'), '--mirrors', dir, '-o', join(dir, 'x.jsonl')]);
  assert.equal(none.code, 2);
  assert.match(none.err, /^issueloc: .*no Defects4J projects folder/);
  assert.equal(existsSync(join(dir, 'x.jsonl')), false);
});
