// bench/language-folds on the tiny repository of test/fixtures/data/tinyq.fi, mirrored twice
// (acme/tinyq and acme/tinyq2, two issues each), so that leave-repositories-out folds exist.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../bench/lib/regressions.js';
import { issueLanguage } from '../../bench/lib/issue-language.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { git } from '../repo/fixture-repo.js';

let work: string;
let mirrors: string;
let data: string;

before(() => {
  work = tempDir('issueloc-language-folds-');
  mirrors = join(work, 'mirrors');
  for (const name of ['acme+tinyq', 'acme+tinyq2']) {
    const repo = join(mirrors, name, 'repo');
    mkdirSync(repo, { recursive: true });
    git(repo, ['init', '-q', '--bare']);
    git(repo, ['fast-import', '--quiet'], readFileSync(join(ROOT, 'test', 'fixtures', 'data', 'tinyq.fi'), 'utf8'));
    git(repo, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  }
  const rows = readFileSync(join(ROOT, 'test', 'fixtures', 'data', 'tinyq.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { repo: string });
  rows.forEach((r, i) => { if (i % 2 === 1) r.repo = 'acme/tinyq2'; });
  data = join(work, 'tinyq2.jsonl');
  writeFileSync(data, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
});
after(() => cleanup(work));

function bench(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'bench', 'language-folds.js'), '--mirrors', mirrors,
    '--cache-dir', join(work, 'cache'), '--features-cache', join(work, 'features'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('issue language: the language of most gold files, short names as the multi-language data set', () => {
  assert.equal(issueLanguage(['a.py', 'b.js', 'c.js']), 'js');
  assert.equal(issueLanguage(['src/x.cc', 'src/x.h', 'src/y.cc']), 'cpp');
  assert.equal(issueLanguage(['README.md']), 'other');
});

test('folds of repositories: rows per system and language, the fold model and an ablation; features and BM25 cached', () => {
  const r = bench('--data', data, '--folds', '2', '--without', 'language', '--json');
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out) as { evaluated: number; systems: string[]; folds: { repos: string[] }[]; rows: { system: string; group: string; issues: number; values: number[] }[] };
  assert.equal(out.evaluated, 4);
  assert.deepEqual(out.systems, ['plain BM25 (whole source files)', 'lexical pipeline', 'model default', 'fold model', 'fold model without language']);
  assert.deepEqual(out.folds.map((f) => f.repos), [['acme/tinyq'], ['acme/tinyq2']]);
  assert.deepEqual([...new Set(out.rows.map((x) => x.group))], ['all', 'python']);
  for (const row of out.rows) {
    assert.equal(row.issues, 4);
    assert.ok(row.values.slice(0, 4).every((v) => v >= 0 && v <= 100) && row.values[4] >= 0 && row.values[4] <= 1, JSON.stringify(row));
  }
  assert.equal(readdirSync(join(work, 'features', 'bm25')).length, 4);
  const again = bench('--data', data, '--folds', '2', '--json');
  assert.equal(again.code, 0, again.err);
  const first = out.rows.find((x) => x.system === 'model default' && x.group === 'all')!;
  assert.deepEqual((JSON.parse(again.out) as typeof out).rows.find((x) => x.system === 'model default' && x.group === 'all'), first, 'from the caches, the same');
});

test('one repository gives no folds; an unknown group and a missing --data are usage errors: one line, exit 2', () => {
  const one = bench('--data', join(ROOT, 'test', 'fixtures', 'data', 'tinyq.jsonl'), '--json');
  assert.equal(one.code, 2);
  assert.match(one.err, /^language-folds: 1 fold: leave-repositories-out folds need issues of 2 repositories or more\n$/);
  const unknown = bench('--data', data, '--without', 'no-such-group');
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /^language-folds: --without: unknown feature or group 'no-such-group' \(groups: lexical, file, .*module-files.*\)\n$/);
  assert.equal(bench().code, 2);
});
