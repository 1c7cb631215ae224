// Branch and tag names read from the ref files (no git process) name what `git rev-parse` names:
// loose and packed refs, annotated tags (and tags of tags) peeled, git's order of rules when two
// refs share a name, a ref moved between two calls; anything less plain is left to git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { refIdOf } from '../../src/repo/named-ref.js';
import { GitRepo } from '../../src/repo/git.js';
import { cleanup, commitFiles, git, tempDir } from './git-fixture.js';

/** What git itself resolves `rev` to (its commit), or `error`. */
function gitCommit(work: string, rev: string): string {
  try {
    return git(work, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`).trim();
  } catch {
    return 'error';
  }
}

test('branch and tag names from the ref files answer as git does, read afresh at each call', async () => {
  const dir = tempDir('issueloc-named-ref-');
  try {
    const work = join(dir, 'repo');
    const first = commitFiles(work, { 'a.py': 'def f():\n    return 1\n' });
    const gitDir = join(work, '.git');
    git(work, 'branch', 'feature');
    git(work, 'tag', 'light');
    git(work, 'tag', '-a', '-m', 'annotated', 'v1.0');
    git(work, 'tag', '-a', '-m', 'tag of a tag', 'v1.0-outer', 'v1.0');
    git(work, 'tag', 'a-tree', `${first}^{tree}`);
    // a tag and a branch of one name: git's rules take refs/tags/ first
    git(work, 'tag', 'dup');
    const second = commitFiles(work, { 'b.py': 'def g():\n    return 2\n' });
    git(work, 'branch', 'dup');
    git(work, 'branch', 'abcd'); // a name that looks like an object id prefix: the ref wins
    git(work, 'update-ref', 'refs/remotes/origin/main', second);
    git(work, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    const names = ['ORIG_HEAD', 'main', 'feature', 'light', 'v1.0', 'v1.0-outer', 'dup', 'abcd', 'origin', 'origin/main', 'refs/heads/feature', 'heads/feature', 'tags/v1.0', 'nothing', 'a-tree'];
    const repo = await GitRepo.open(work);
    try {
      const check = async (state: string) => {
        for (const name of names) {
          const expected = gitCommit(work, name);
          const got = await repo.resolveCommit(name).catch(() => 'error');
          assert.equal(got, expected, `${name} (${state})`);
        }
      };
      await check('loose refs');
      for (const name of ['main', 'feature', 'v1.0', 'origin', 'abcd', 'tags/v1.0']) assert.match(String(refIdOf(gitDir, name)), /^[0-9a-f]{40}$/, `${name}: read from the files`);
      assert.equal(refIdOf(gitDir, 'nothing'), null);
      assert.equal(refIdOf(gitDir, 'main~1'), undefined, 'revision syntax: git');
      writeFileSync(join(gitDir, 'ORIG_HEAD'), `${first}\n`);
      assert.equal(refIdOf(gitDir, 'ORIG_HEAD'), undefined, 'a file of the git directory: git');
      git(work, 'pack-refs', '--all');
      await check('packed refs');
      // a ref updated after packing: its loose file is newer than its packed line
      const third = commitFiles(work, { 'c.py': 'def h():\n    return 3\n' });
      git(work, 'update-ref', 'refs/heads/feature', third);
      git(work, 'tag', '-f', '-a', '-m', 'moved', 'v1.0', third);
      await check('loose over packed');
      assert.equal(await repo.resolveCommit('feature'), third, 'moved between two calls');
      git(work, 'update-ref', 'refs/heads/feature', first);
      assert.equal(await repo.resolveCommit('feature'), first, 'moved back');
      git(work, 'pack-refs', '--all');
      await check('packed again (packed-refs replaced)');
      assert.equal(await repo.resolveCommit('feature'), first, 'packed');
      git(work, 'update-ref', '-d', 'refs/heads/feature');
      await assert.rejects(repo.resolveCommit('feature'), /unknown revision 'feature'/, 'deleted');
      // a dangling symbolic ref: left to git; a folder where a ref would be: no ref there
      git(work, 'symbolic-ref', 'refs/heads/dangling', 'refs/heads/none');
      assert.equal(refIdOf(gitDir, 'dangling'), undefined);
      mkdirSync(join(gitDir, 'refs', 'tags', 'folder', 'x'), { recursive: true });
      assert.equal(refIdOf(gitDir, 'folder'), null);
      names.push('dangling', 'folder', 'broken');
      // a malformed loose ref: git decides
      writeFileSync(join(gitDir, 'refs', 'heads', 'broken'), 'not an id\n');
      assert.equal(refIdOf(gitDir, 'broken'), undefined);
      await check('odd refs beside');
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(dir);
  }
});
