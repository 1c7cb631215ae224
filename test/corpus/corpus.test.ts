import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { GitRepo } from '../../src/repo/git.js';
import { buildCorpus, type BlobUnitCache } from '../../src/corpus/corpus.js';
import type { CodeUnit } from '../../src/corpus/types.js';
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

class MapCache implements BlobUnitCache {
  readonly map = new Map<string, CodeUnit[]>();
  gets = 0;
  get(blob: string) {
    this.gets++;
    return this.map.get(blob);
  }
  set(blob: string, units: CodeUnit[]) {
    this.map.set(blob, units);
  }
}

test('buildCorpus: source files cut into units; every other file counted by reason', async () => {
  const repo = await GitRepo.open(work);
  const progress: [number, number][] = [];
  const corpus = await buildCorpus(repo, head, { maxFileBytes: 2000, onProgress: (d, t) => progress.push([d, t]) });
  assert.equal(corpus.commit, head);
  assert.deepEqual(corpus.files.map((f) => `${f.path} ${f.language}`), [
    'src/app.py python', 'src/copy.py python', 'src/latin.py python', 'src/util.go go',
  ]);
  assert.deepEqual(corpus.skipped, { binary: 1, tooLarge: 1, missing: 1, nonSource: 2, otherLanguages: 0, vendored: 0, tests: 1, symlinks: 1, submodules: 1 });
  assert.equal(corpus.decodedAsWindows1252, 1);
  assert.deepEqual(corpus.units.map((u) => `${u.id} ${u.startLine}-${u.endLine}`), [
    'src/app.py 1-7', 'src/app.py:App 1-3', 'src/app.py:App.run 2-3', 'src/app.py:main 6-7',
    'src/copy.py 1-7', 'src/copy.py:App 1-3', 'src/copy.py:App.run 2-3', 'src/copy.py:main 6-7',
    'src/latin.py 1-3', 'src/latin.py:f 2-3',
    'src/util.go 1-3', 'src/util.go:Util.Do 3-3',
  ]);
  assert.ok(corpus.units.filter((u) => u.path === 'src/copy.py').every((u) => u.id.startsWith('src/copy.py')));
  assert.equal(corpus.units.find((u) => u.id === 'src/latin.py:f')!.text, 'def f():\n    return "é"');
  assert.deepEqual(progress[progress.length - 1], [6, 6]);
  await repo.close();
});

test('buildCorpus: includeTests keeps test files; the default cap is 1 MiB', async () => {
  const repo = await GitRepo.open(work);
  const corpus = await buildCorpus(repo, head, { includeTests: true });
  assert.ok(corpus.files.some((f) => f.path === 'tests/test_app.py'));
  assert.ok(corpus.files.some((f) => f.path === 'src/huge.py'));
  assert.equal(corpus.skipped.tests, 0);
  assert.equal(corpus.skipped.tooLarge, 0);
  await repo.close();
});

test('buildCorpus: cached blobs are not parsed again; a changed commit parses only what changed', async () => {
  const repo = await GitRepo.open(work);
  const cache = new MapCache();
  const cold = await buildCorpus(repo, head, { cache });
  assert.equal(cold.cachedFiles, 0);
  const warm = await buildCorpus(repo, head, { cache });
  assert.equal(warm.cachedFiles, warm.files.length);
  assert.deepEqual(warm.units, cold.units);

  const nearby = await buildCorpus(repo, next, { cache });
  assert.deepEqual(nearby.files.map((f) => f.path), [...warm.files.map((f) => f.path), 'src/moved.py'].sort());
  assert.equal(nearby.cachedFiles, nearby.files.length - 1, 'only util.go is parsed');
  assert.deepEqual(nearby.units.filter((u) => u.path === 'src/moved.py').map((u) => u.id),
    ['src/moved.py', 'src/moved.py:App', 'src/moved.py:App.run', 'src/moved.py:main']);
  assert.ok(nearby.units.some((u) => u.id === 'src/util.go:Top'));
  await repo.close();
});

test('buildCorpus: an unknown commit is an error naming it', async () => {
  const repo = await GitRepo.open(work);
  await assert.rejects(buildCorpus(repo, 'f'.repeat(40)), /cannot list the files of f{40} in /);
  await repo.close();
});
