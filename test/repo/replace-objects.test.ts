// A ranking is a function of the base commit, not of the cache: a replacement object
// (`git replace`) added after a commit was indexed changes nothing a fresh cache would rank
// differently, because every git issueloc runs reads the commit's own objects.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitFiles, git, tempDir, cleanup } from './git-fixture.js';
import { openLocalizer } from '../../src/index.js';
import { GitRepo } from '../../src/repo/git.js';

let root: string, work: string, base: string;
const ISSUE = 'the quaternion rotation is wrong';

before(() => {
  root = tempDir('issueloc-replace-objects-');
  work = join(root, 'repo');
  commitFiles(work, { 'pkg/geometry.py': 'def rotate_vector(v):\n    return v\n', 'pkg/algebra.py': 'def quaternion_rotation(q):\n    return q\n' }, 'first');
  base = commitFiles(work, { 'pkg/colors.py': 'def color_name(rgb):\n    return rgb\n' }, 'second');
});
after(() => cleanup(root));

async function functionsAt(cacheDir: string): Promise<string[]> {
  const localizer = await openLocalizer({ repo: work, cacheDir, model: 'none' });
  try {
    return (await localizer.localize(ISSUE, { rev: base, top: 3 })).functions.map((f) => f.id);
  } finally {
    await localizer.close();
  }
}

test('a blob replaced after indexing: a fresh cache ranks the commit as the kept index does', async () => {
  const kept = await functionsAt(join(root, 'cache-a'));
  assert.equal(kept[0], 'pkg/algebra.py:quaternion_rotation');
  const blob = git(work, 'rev-parse', `${base}:pkg/colors.py`);
  const other = commitFiles(join(root, 'other'), { 'x.py': 'def quaternion_rotation_fix(q):\n    """quaternion rotation"""\n    return q\n' });
  git(work, 'fetch', '-q', join(root, 'other'), other);
  git(work, 'replace', blob, git(work, 'rev-parse', `${other}:x.py`));
  assert.deepEqual(await functionsAt(join(root, 'cache-b')), kept);
  assert.deepEqual(await functionsAt(join(root, 'cache-a')), kept);
});

test('a graft file (info/grafts) changes no commit\'s parents git reads for issueloc', async () => {
  const dir = join(root, 'grafted');
  commitFiles(dir, { 'a.py': 'x = 1\n' }, 'one');
  const two = commitFiles(dir, { 'b.py': 'y = 2\n' }, 'two');
  const three = commitFiles(dir, { 'c.py': 'z = 3\n' }, 'three');
  mkdirSync(join(dir, '.git', 'info'), { recursive: true });
  writeFileSync(join(dir, '.git', 'info', 'grafts'), `${three}\n`);
  // git itself now sees `three` as a root commit
  assert.equal(git(dir, 'rev-list', '--count', three), '1');
  const repo = await GitRepo.open(dir);
  const res = await repo.exec(['rev-list', '--count', three]);
  assert.equal(res.stdout.toString('utf8').trim(), '3');
  assert.equal(res.stderr.trim(), '');
  assert.equal((await repo.exec(['rev-parse', `${three}^`])).stdout.toString('utf8').trim(), two);
});
