import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { GitRepo } from '../../src/repo/git.js';
import { listFiles } from '../../src/repo/tree-diff.js';
import { TreeFileLister, parseTree } from '../../src/repo/tree-objects.js';
import { fixtureRepo } from './fixture-repo.js';

const repo = fixtureRepo([
  { id: 'A', message: 'a', files: { 'a.py': '1', 'src/deep/x/y.py': '2', 'src/b.java': '3', 'docs/é.md': '4' } },
  { id: 'B', parents: ['A'], message: 'b', files: { 'src/deep/x/y.py': null, 'src/deep/z.py': '5' } },
]);
after(() => repo.remove());

test('TreeFileLister lists the same files as git ls-tree -r, across commits sharing trees', async () => {
  const g = await GitRepo.open(repo.dir);
  try {
    const lister = new TreeFileLister(g);
    for (const id of ['A', 'B', 'A']) {
      assert.deepEqual((await lister.files(repo.sha(id))).sort(), (await listFiles(repo.dir, repo.sha(id))).sort(), id);
    }
    assert.deepEqual((await lister.files(repo.sha('B'))).sort(), ['a.py', 'docs/é.md', 'src/b.java', 'src/deep/z.py']);
    await assert.rejects(lister.files('0'.repeat(40)), /commit 0{40} is missing/);
  } finally {
    await g.close();
  }
});

test('parseTree keeps files and subtrees, skips symlinks and submodules, rejects truncated data', () => {
  const id = Buffer.alloc(20, 0xab);
  const entry = (mode: string, name: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), id]);
  const node = parseTree(Buffer.concat([entry('100644', 'a.py'), entry('40000', 'src'), entry('120000', 'link'), entry('160000', 'sub'), entry('100755', 'run.sh')]), 20);
  assert.deepEqual(node.files, [['a.py', 'ab'.repeat(20)], ['run.sh', 'ab'.repeat(20)]]);
  assert.deepEqual(node.trees, [['src', 'ab'.repeat(20)]]);
  assert.throws(() => parseTree(entry('100644', 'a.py').subarray(0, 30), 20), /truncated tree object/);
});
