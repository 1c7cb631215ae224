// HEAD read from the git directory's files (no git process) names what `git rev-parse HEAD`
// names, in every state the files can be in; anything less plain is left to git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { headCommitOf } from '../../src/repo/head-ref.js';
import { GitRepo } from '../../src/repo/git.js';
import { cleanup, commitFiles, git, tempDir } from './git-fixture.js';

test('HEAD from the files: a loose branch, a packed one, a detached HEAD, a moved branch; git answers for the rest', async () => {
  const dir = tempDir('issueloc-head-ref-');
  try {
    const work = join(dir, 'repo');
    const first = commitFiles(work, { 'a.py': 'def f():\n    return 1\n' });
    const gitDir = join(work, '.git');
    assert.equal(headCommitOf(gitDir), first, 'loose ref');
    const second = commitFiles(work, { 'b.py': 'def g():\n    return 2\n' });
    assert.equal(headCommitOf(gitDir), second, 'the branch moved: read afresh');
    git(work, 'pack-refs', '--all');
    assert.equal(headCommitOf(gitDir), second, 'packed ref');
    git(work, 'checkout', '-q', '--detach', first);
    assert.equal(headCommitOf(gitDir), first, 'detached HEAD');
    git(work, 'checkout', '-q', 'main');
    const repo = await GitRepo.open(work);
    try {
      assert.equal(await repo.resolveCommit('HEAD'), second);
      // a linked work tree: refs in the common directory, left to git (which still resolves it)
      git(work, 'worktree', 'add', '-q', '--detach', join(dir, 'linked'), first);
      const linked = await GitRepo.open(join(dir, 'linked'));
      try {
        assert.equal(headCommitOf(linked.gitDir), undefined);
        assert.equal(await linked.resolveCommit('HEAD'), first);
      } finally {
        await linked.close();
      }
    } finally {
      await repo.close();
    }
    // a bare clone (packed refs only)
    git(dir, 'clone', '-q', '--bare', work, join(dir, 'bare.git'));
    assert.equal(headCommitOf(join(dir, 'bare.git')), second);
    // an unborn branch: no id anywhere, left to git
    git(work, 'checkout', '-q', '--orphan', 'empty');
    assert.equal(headCommitOf(gitDir), undefined);
  } finally {
    cleanup(dir);
  }
});

test('HEAD from a packed-refs file of many refs: the line naming the branch exactly, wherever it is (a longer name sharing its start, a comment, CRLF endings)', () => {
  const dir = tempDir('issueloc-packed-refs-');
  try {
    const id = (n: number) => n.toString(16).padStart(40, '0');
    writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    const lines = ['# pack-refs with: peeled fully-peeled sorted', `${id(1)} refs/heads/main-old`, '# refs/heads/main in a comment'];
    for (let k = 0; k < 5000; k++) lines.push(`${id(100 + k)} refs/pull/${k}/head`);
    lines.push(`${id(7)} refs/heads/main`, `^${id(8)}`, `${id(9)} refs/heads/main`);
    writeFileSync(join(dir, 'packed-refs'), lines.join('\n') + '\n');
    assert.equal(headCommitOf(dir), id(7));
    writeFileSync(join(dir, 'packed-refs'), lines.join('\r\n'));
    assert.equal(headCommitOf(dir), id(7), 'CRLF endings, no final newline');
    writeFileSync(join(dir, 'packed-refs'), lines.slice(0, 3).join('\n'));
    assert.equal(headCommitOf(dir), undefined, 'not packed: git answers');
    writeFileSync(join(dir, 'packed-refs'), `xyz refs/heads/main\n${id(7)} refs/heads/main\n`);
    assert.equal(headCommitOf(dir), undefined, 'a malformed line naming it: git answers');
  } finally {
    cleanup(dir);
  }
});
