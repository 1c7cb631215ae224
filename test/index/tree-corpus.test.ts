// What the code index takes from a commit's tree (indexCommit, the one corpus builder): source
// files cut into units, every other file counted by reason, blobs parsed once across commits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import type { CodeIndex } from '../../src/index/code-index.js';
import { UnitSourceReader } from '../../src/embed/unit-source.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';

const APP = 'class App:\n    def run(self):\n        return 1\n\n\ndef main():\n    App().run()\n';

let root: string;
let work: string;
let head: string;
let next: string;

before(() => {
  root = tempDir();
  work = join(root, 'work');
  commitFiles(work, {
    'src/app.py': APP,
    'src/copy.py': APP, // same blob at another path
    'src/util.go': 'package src\n\nfunc (u *Util) Do() {}\n',
    'src/latin.py': Buffer.from('# caf\xe9\ndef f():\n    return "\xe9"\n', 'latin1'),
    'src/logo.py': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0a]),
    'src/huge.py': `x = "${'a'.repeat(3000)}"\n`,
    'src/gone.py': 'def gone(): pass\n',
    'tests/test_app.py': 'def test_run():\n    assert True\n',
    'README.md': '# app\n',
    'setup.cfg': '[metadata]\n',
    'src/link.py': { symlink: 'app.py' },
  });
  const first = git(work, 'rev-parse', 'HEAD');
  git(work, 'update-index', '--add', '--cacheinfo', `160000,${first},vendor/sub`);
  git(work, 'commit', '-q', '-m', 'submodule');
  head = git(work, 'rev-parse', 'HEAD');
  next = commitFiles(work, { 'src/util.go': 'package src\n\nfunc Top() {}\n', 'src/moved.py': APP });
  const gone = git(work, 'rev-parse', 'HEAD:src/gone.py');
  rmSync(join(work, '.git', 'objects', gone.slice(0, 2), gone.slice(2)));
});
after(() => cleanup(root));

const cacheDir = () => mkdtempSync(join(root, 'cache-')); // under root: removed with it
const unitIds = (ci: CodeIndex) => ci.units.map((u) => `${u.path}:${u.qualifiedName} ${u.startLine}-${u.endLine}`);

test('indexCommit: source files cut into units; every other file counted by reason', async () => {
  const repo = await GitRepo.open(work);
  const progress: [number, number][] = [];
  const { codeIndex } = await indexCommit(repo, head, { cacheDir: cacheDir(), settings: { maxFileBytes: 2000 }, onProgress: (d, t) => progress.push([d, t]) });
  assert.equal(codeIndex.commit, head);
  assert.deepEqual(codeIndex.filePaths, ['src/app.py', 'src/copy.py', 'src/latin.py', 'src/util.go']);
  assert.deepEqual(codeIndex.stats.skipped, { binary: 1, tooLarge: 1, missing: 1, nonSource: 2, otherLanguages: 0, vendored: 0, tests: 1, buildOutput: 0, symlinks: 1, submodules: 1 });
  assert.deepEqual(unitIds(codeIndex), [
    'src/app.py:App.run 2-3', 'src/app.py:main 6-7', 'src/copy.py:App.run 2-3', 'src/copy.py:main 6-7',
    'src/latin.py:f 2-3', 'src/util.go:Util.Do 3-3',
  ]);
  const texts = await new UnitSourceReader(repo, head).texts(codeIndex.units.filter((u) => u.path === 'src/latin.py'));
  assert.deepEqual(texts, ['def f():\n    return "é"'], 'not UTF-8: read as windows-1252');
  assert.deepEqual(progress[progress.length - 1], [6, 6]);
  await repo.close();
});

test('indexCommit: includeTests keeps test files; the default cap is 1 MiB', async () => {
  const repo = await GitRepo.open(work);
  const { codeIndex } = await indexCommit(repo, head, { cacheDir: cacheDir(), settings: { includeTests: true } });
  assert.ok(codeIndex.filePaths.includes('tests/test_app.py'));
  assert.ok(codeIndex.filePaths.includes('src/huge.py'));
  assert.equal(codeIndex.stats.skipped.tests, 0);
  assert.equal(codeIndex.stats.skipped.tooLarge, 0);
  await repo.close();
});

test('indexCommit: cached blobs are not parsed again; a changed commit parses only what changed', async () => {
  const repo = await GitRepo.open(work);
  const dir = cacheDir();
  const warned: string[] = [];
  const onWarning = (m: string) => warned.push(m);
  const cold = await indexCommit(repo, head, { cacheDir: dir, onWarning });
  assert.equal(cold.codeIndex.stats.cachedBlobs, 0);
  // a blob missing from the object store: one warning, and the index is not saved, so the next
  // call builds it again, every other blob from the blob cache
  assert.deepEqual(warned.map((w) => w.replace(/[0-9a-f]{12}/g, 'X')), [
    `1 file of X could not be read from git (missing from its object store, as in a partial clone): answered without it; the index of X is not saved (built again next time); fetch them with \`git -C ${repo.path} fetch --refetch --no-filter\`, or clone without --filter`,
  ]);
  const warm = await indexCommit(repo, head, { cacheDir: dir, onWarning });
  assert.equal(warm.built, true);
  assert.equal(warm.codeIndex.stats.parsedBlobs, 1, 'only the missing blob asked of git again');
  assert.deepEqual(unitIds(warm.codeIndex), unitIds(cold.codeIndex));
  const nearby = await indexCommit(repo, next, { cacheDir: dir, onWarning });
  assert.deepEqual(nearby.codeIndex.filePaths, [...cold.codeIndex.filePaths, 'src/moved.py'].sort());
  assert.equal(nearby.codeIndex.stats.parsedBlobs, 2, 'util.go, and gone.py whose blob is missing (tried again)');
  assert.equal(nearby.codeIndex.stats.cachedBlobs, 6, 'app.py, copy.py and moved.py (one blob), latin.py, logo.py (binary), huge.py');
  assert.deepEqual(unitIds(nearby.codeIndex).filter((u) => u.startsWith('src/moved.py')), ['src/moved.py:App.run 2-3', 'src/moved.py:main 6-7']);
  assert.ok(nearby.codeIndex.units.some((u) => u.qualifiedName === 'Top'));
  await repo.close();
});

test('indexCommit: an unknown commit is an error naming it', async () => {
  const repo = await GitRepo.open(work);
  await assert.rejects(indexCommit(repo, 'f'.repeat(40), { cacheDir: cacheDir() }), /cannot list the files of f{40} in /);
  await repo.close();
});

test('indexCommit: Rust test-only items give no units, unless includeTests (their own blob cache entries)', async () => {
  const dir = join(root, 'rust');
  const commit = commitFiles(dir, { 'src/lib.rs': 'pub fn parse() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses() {}\n}\n' });
  const repo = await GitRepo.open(dir);
  const cache = cacheDir();
  const plain = await indexCommit(repo, commit, { cacheDir: cache });
  assert.deepEqual(unitIds(plain.codeIndex), ['src/lib.rs:parse 1-1']);
  const withTests = await indexCommit(repo, commit, { cacheDir: cache, settings: { includeTests: true } });
  assert.deepEqual(unitIds(withTests.codeIndex), ['src/lib.rs:parse 1-1', 'src/lib.rs:tests.parses 5-6']);
  await repo.close();
});
