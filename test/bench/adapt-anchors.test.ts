// Where the bench scripts adapt a model per repository: ancestors of every evaluated base commit,
// one per group of base commits with common ancestry (a history with several roots).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adaptAnchors } from '../../bench/lib/adapt-anchors.js';
import { GitRepo } from '../../src/repo/git.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';

test('adaptAnchors: the oldest base commit of a linear history; a second root gets its own anchor', async () => {
  const dir = tempDir();
  try {
    git(dir, 'init', '-q');
    const a = commitFiles(dir, { 'a.py': 'def a():\n    pass\n' }, 'first');
    const b = commitFiles(dir, { 'b.py': 'def b():\n    pass\n' }, 'second');
    const c = commitFiles(dir, { 'c.py': 'def c():\n    pass\n' }, 'third');
    git(dir, 'checkout', '-q', '--orphan', 'other');
    git(dir, 'rm', '-rfq', '.');
    const x = commitFiles(dir, { 'x.py': 'def x():\n    pass\n' }, 'unrelated root');
    const repo = await GitRepo.open(dir);
    try {
      assert.deepEqual(await adaptAnchors(repo, [c, b]), [{ at: b, bases: [c, b] }]);
      assert.deepEqual(await adaptAnchors(repo, [c, x, a]), [{ at: a, bases: [c, a] }, { at: x, bases: [x] }]);
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(dir);
  }
});
