import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { renameSync } from 'node:fs';
import { GitRepo } from '../../src/repo/git.js';
import { liveGitProcesses, runGit } from '../../src/repo/git-process.js';
import { LOCAL_REVISIONS, REMOTE_REVISIONS, revisionProblem } from '../../src/repo/revision.js';
import { cleanup, commitFiles, tempDir } from './git-fixture.js';

/** A commit-message search that takes git minutes on a message of 60 `a`s. */
const EVIL = ':/(a*)*(a*)*(a*)*\\1\\2\\3c';

test('revisionProblem refuses ranges everywhere and message searches from remote callers', () => {
  for (const rev of ['^HEAD', '^main', 'A..B', 'A...B', 'HEAD^@', 'HEAD^!', 'HEAD^-', 'HEAD^-2']) {
    assert.match(revisionProblem(rev, LOCAL_REVISIONS) ?? '', /names a range of commits/, rev);
  }
  for (const rev of [':/fix', 'HEAD^{/fix}', EVIL]) {
    assert.equal(revisionProblem(rev, LOCAL_REVISIONS), undefined, rev);
    assert.match(revisionProblem(rev, REMOTE_REVISIONS) ?? '', /searches commit messages/, rev);
  }
  for (const rev of ['HEAD', 'HEAD~2', 'HEAD^2', 'HEAD^{commit}', 'v1.0', 'a1b2c3d', 'main@{1}']) {
    assert.equal(revisionProblem(rev, REMOTE_REVISIONS), undefined, rev);
  }
  assert.match(revisionProblem('x'.repeat(300), REMOTE_REVISIONS) ?? '', /longer than 256/);
});

describe('GitRepo.resolveCommit checks and bounds', () => {
  let root: string;
  let work: string;
  let head: string;
  before(() => {
    root = tempDir();
    work = join(root, 'work');
    commitFiles(work, { 'a.py': 'x = 1\n' }, 'first');
    head = commitFiles(work, { 'b.py': 'y = 1\n' }, 'a'.repeat(60));
  });
  after(() => cleanup(root));

  test('^HEAD is refused as a range, not resolved to ^<sha>', async () => {
    const repo = await GitRepo.open(work);
    try {
      await assert.rejects(repo.resolveCommit('^HEAD'), { message: `revision '^HEAD' names a range of commits, not one commit in ${work}` });
      await assert.rejects(repo.resolveCommit(':/first', { rules: REMOTE_REVISIONS }), /searches commit messages/);
      assert.equal(await repo.resolveCommit('HEAD'), head);
    } finally {
      await repo.close();
    }
  });

  test('a git past its time limit is killed and the call fails naming the limit', async () => {
    const repo = await GitRepo.open(work);
    try {
      await assert.rejects(repo.resolveCommit(EVIL, { timeoutMs: 300 }), /git rev-parse in .* took longer than 300 ms: stopped/);
      await assert.rejects(runGit(['-C', work, 'rev-parse', '--verify', EVIL], { timeoutMs: 300 }), /took longer than 300 ms/);
      assert.equal(liveGitProcesses(), 0); // no rev-parse left running
    } finally {
      await repo.close();
    }
  });

  test('hasCommit of a commit in the object store\'s files starts no git; any other id is asked of git', async () => {
    const repo = await GitRepo.open(work);
    const path = process.env.PATH;
    try {
      process.env.PATH = join(root, 'no-git-here'); // a git process would not start
      assert.equal(await repo.hasCommit(head), true);
      await assert.rejects(repo.hasCommit('0'.repeat(40)));
    } finally {
      process.env.PATH = path;
      await repo.close();
    }
  });

  test('hasCommit asks git; a removed repository is reported as gone', async () => {
    const repo = await GitRepo.open(work);
    try {
      assert.equal(await repo.hasCommit(head), true);
      assert.equal(await repo.hasCommit('0'.repeat(40)), false);
      renameSync(work, `${work}-moved`);
      await assert.rejects(repo.resolveCommit('HEAD'), { message: `${work} is gone: the repository's folder was removed or moved` });
      await assert.rejects(repo.hasCommit(head), /is gone/);
    } finally {
      renameSync(`${work}-moved`, work);
      await repo.close();
    }
  });
});
