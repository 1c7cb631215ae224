// A plain repository's layout read from its files says what git says of it, and anything less
// plain is left to git (undefined).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainRepoLayout, type RepoLayout } from '../../src/repo/git-dir.js';
import { cleanup, commitFiles, git, tempDir } from './git-fixture.js';

const dir = tempDir('issueloc-git-dir-');
after(() => cleanup(dir));
const work = join(dir, 'work');
commitFiles(work, { 'a.py': 'x = 1\n' });
commitFiles(work, { 'b.py': 'y = 2\n' });

/** git's answer for `path`, as GitRepo.open asks it. */
function gitSays(path: string): RepoLayout {
  const [gitDir, bare, shallow] = git(path, 'rev-parse', '--absolute-git-dir', '--is-bare-repository', '--is-shallow-repository').split('\n');
  return { gitDir, workTree: bare === 'true' ? null : git(path, 'rev-parse', '--show-toplevel'), isBare: bare === 'true', isShallow: shallow === 'true' };
}

test('a clone\'s top, a link to it, a bare clone and a bare mirror without config: the layout git gives, no git process', () => {
  const bare = join(dir, 'bare.git');
  git(dir, 'clone', '-q', '--bare', work, bare);
  const mirror = join(dir, 'mirror');
  git(dir, 'clone', '-q', '--mirror', work, mirror);
  rmSync(join(mirror, 'config'));
  const link = join(dir, 'link');
  symlinkSync(work, link);
  for (const path of [work, link, bare, mirror, `${work}/`]) {
    const plain = plainRepoLayout(path);
    assert.ok(plain, `${path} read from its files`);
    assert.deepEqual(plain, gitSays(path), path);
  }
});

test('layouts git must answer: a folder inside the work tree, the .git folder, a linked work tree, a shallow clone, core.worktree, a git environment', () => {
  mkdirSync(join(work, 'sub'), { recursive: true });
  const linked = join(dir, 'linked');
  git(work, 'worktree', 'add', '-q', linked);
  const shallow = join(dir, 'shallow');
  git(dir, 'clone', '-q', '--depth', '1', `file://${work}`, shallow);
  const moved = join(dir, 'moved');
  commitFiles(moved, { 'c.py': 'z = 3\n' });
  git(moved, 'config', 'core.worktree', moved);
  for (const path of [join(work, 'sub'), join(work, '.git'), linked, shallow, moved, join(dir, 'nothing')]) {
    assert.equal(plainRepoLayout(path), undefined, path);
  }
  process.env.GIT_CONFIG_GLOBAL = join(dir, 'gitconfig');
  writeFileSync(process.env.GIT_CONFIG_GLOBAL, '[core]\n\tbare = true\n');
  try {
    assert.equal(plainRepoLayout(work), undefined, 'GIT_CONFIG_GLOBAL set');
  } finally {
    delete process.env.GIT_CONFIG_GLOBAL;
  }
  assert.ok(plainRepoLayout(work), 'and without it');
});
