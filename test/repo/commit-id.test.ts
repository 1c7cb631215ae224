// A commit's SHA or prefix read from the object store's files (no git process) names what
// `git rev-parse REV^{commit}` names, loose and packed; an ambiguous prefix, a ref of that name,
// a tree, a tag or a missing object is left to git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { commitOfHexRevision } from '../../src/repo/commit-id.js';
import { GitRepo } from '../../src/repo/git.js';
import { cleanup, commitFiles, git, tempDir } from './git-fixture.js';

/** Two objects of `ids` sharing their first 4 digits: that prefix, or undefined. */
function sharedPrefix(ids: string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id.slice(0, 4))) return id.slice(0, 4);
    seen.add(id.slice(0, 4));
  }
  return undefined;
}

test('a SHA or prefix from the files: loose and packed objects as git resolves them; git answers for the rest', async () => {
  const dir = tempDir('issueloc-commit-id-');
  try {
    const work = join(dir, 'repo');
    const first = commitFiles(work, { 'a.py': 'def f():\n    return 1\n' });
    const second = commitFiles(work, { 'b.py': 'def g():\n    return 2\n' });
    const gitDir = join(work, '.git');
    const tree = git(work, 'rev-parse', `${second}^{tree}`);
    git(work, 'tag', '-a', '-m', 'release', 'v1', first);
    const tag = git(work, 'rev-parse', 'v1');
    // enough objects that two ids share their first 4 digits (an ambiguous prefix)
    commitFiles(work, Object.fromEntries(Array.from({ length: 1500 }, (_, k) => [`data/b${k}.txt`, `blob ${k}\n`])));
    const all = git(work, 'rev-list', '--objects', '--all').split('\n').map((l) => l.slice(0, 40));
    const ambiguous = sharedPrefix([...all, tag].sort());
    assert.ok(ambiguous, 'two objects share a 4-digit prefix');

    const check = (what: string) => {
      assert.equal(commitOfHexRevision(gitDir, first), first, `${what}: full id`);
      assert.equal(commitOfHexRevision(gitDir, second.slice(0, 7)), second, `${what}: 7-digit prefix`);
      assert.equal(commitOfHexRevision(gitDir, tree), undefined, `${what}: a tree`);
      assert.equal(commitOfHexRevision(gitDir, tag), undefined, `${what}: a tag object (git peels it)`);
      assert.ok(git(work, 'rev-parse', `--disambiguate=${ambiguous}`).split('\n').length >= 2, `${what}: the prefix is ambiguous`);
      assert.equal(commitOfHexRevision(gitDir, ambiguous!), undefined, `${what}: ambiguous prefix`);
      assert.equal(commitOfHexRevision(gitDir, `${first.slice(0, 39)}${first[39] === '0' ? '1' : '0'}`), undefined, `${what}: no such object`);
      assert.equal(commitOfHexRevision(gitDir, 'HEAD'), undefined, `${what}: not hexadecimal`);
      assert.equal(commitOfHexRevision(gitDir, first.toUpperCase()), undefined, `${what}: upper case left to git`);
    };
    check('loose');
    // a branch named like a prefix: git takes the ref
    const named = first.slice(0, 8);
    git(work, 'branch', named, second);
    assert.equal(commitOfHexRevision(gitDir, named), undefined, 'a loose ref of that name');
    assert.equal(commitOfHexRevision(gitDir, first), first, 'a full id is never a ref name');
    // every object packed, none left loose, the refs packed
    git(work, 'gc', '-q', '--prune=now');
    assert.equal(git(work, 'count-objects', '-v').match(/^count: (\d+)/m)?.[1], '0', 'no loose object left');
    assert.equal(commitOfHexRevision(gitDir, named), undefined, 'a packed ref of that name');
    git(work, 'branch', '-D', named);
    check('packed');
    assert.equal(commitOfHexRevision(gitDir, named), first, 'the ref removed: the object again');

    const repo = await GitRepo.open(work);
    try {
      assert.equal(await repo.resolveCommit(ambiguous!).catch(() => 'refused'), 'refused');
      assert.equal(await repo.resolveCommit(tag), first, 'git peels the tag');
      assert.equal(await repo.resolveCommit(second.slice(0, 10)), second);
      // other object stores (alternates): left to git
      writeFileSync(join(gitDir, 'objects/info/alternates'), `${join(dir, 'elsewhere')}\n`);
      assert.equal(commitOfHexRevision(gitDir, first), undefined, 'alternates');
      assert.equal(await repo.resolveCommit(first), first);
    } finally {
      await repo.close();
    }
    // asked again after a history rewrite and gc: the pack read then is gone, and so is the commit
    rmSync(join(gitDir, 'objects/info/alternates'));
    assert.equal(commitOfHexRevision(gitDir, second), second, 'before the rewrite');
    git(work, 'reset', '-q', '--hard', first);
    git(work, 'reflog', 'expire', '--expire=now', '--all');
    git(work, 'gc', '-q', '--prune=now');
    assert.equal(commitOfHexRevision(gitDir, second), undefined, 'gone after gc');
    assert.equal(commitOfHexRevision(gitDir, first), first, 'kept');
  } finally {
    cleanup(dir);
  }
});
