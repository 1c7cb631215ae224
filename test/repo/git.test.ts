import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { GitRepo } from '../../src/repo/git.js';
import { resolveRevision } from '../../src/repo/log-walk.js';
import { IssuelocError } from '../../src/errors.js';
import { cleanup, commitFiles, git, tempDir } from './git-fixture.js';

// A blob larger than one pipe chunk (64 KiB), so contents cross chunk boundaries.
const BIG = Buffer.from(Array.from({ length: 4000 }, (_, i) => `line ${i} of the big file\n`).join(''));

describe('GitRepo', () => {
  let root: string;
  let work: string;
  let bare: string;
  let first: string;
  let second: string;

  before(() => {
    root = tempDir();
    work = join(root, 'work');
    first = commitFiles(work, { 'a.py': 'def f():\n    return 1\n' }, 'first');
    second = commitFiles(work, {
      'a.py': 'def f():\n    return 2\n',
      'src/b.js': 'export const b = () => 1;\n',
      'big.txt': BIG,
      'tool.sh': '#!/bin/sh\necho hi\n',
      'link.py': { symlink: 'a.py' },
      'naïve name.py': 'x = 1\n',
    }, 'second');
    git(work, 'update-index', '--chmod=+x', 'tool.sh');
    git(work, 'update-index', '--add', '--cacheinfo', `160000,${first},sub`);
    git(work, 'commit', '-q', '-m', 'with submodule and executable');
    second = git(work, 'rev-parse', 'HEAD');
    bare = join(root, 'bare.git');
    git(root, 'clone', '-q', '--bare', work, bare);
  });
  after(() => cleanup(root));

  test('opens a work tree, a folder inside it, and a bare clone', async () => {
    const repo = await GitRepo.open(work);
    assert.equal(repo.isBare, false);
    assert.equal(repo.isShallow, false);
    assert.equal(repo.gitDir, join(work, '.git'));
    assert.equal(repo.workTree, work);
    await repo.close();
    const inside = await GitRepo.open(join(work, 'src'));
    assert.equal(inside.gitDir, join(work, '.git'));
    const b = await GitRepo.open(bare);
    assert.equal(b.isBare, true);
    assert.equal(b.workTree, null);
    assert.equal(b.gitDir, bare);
    assert.equal(await b.resolveCommit('HEAD'), second);
    await b.close();
  });

  test('rejects a folder that is no repository, naming it', async () => {
    const plain = join(root, 'plain');
    commitFiles(plain, {});
    rmSync(join(plain, '.git'), { recursive: true });
    await assert.rejects(GitRepo.open(plain), (e: unknown) => e instanceof IssuelocError && e.message === `not a git repository: ${plain}`);
    await assert.rejects(GitRepo.open(join(root, 'does-not-exist')), /^IssuelocError: not a git repository: .*does-not-exist \(no such folder\)$/);
  });

  test('resolves revisions to full SHAs and names bad ones', async () => {
    const repo = await GitRepo.open(work);
    assert.equal(await repo.resolveCommit('HEAD'), second);
    assert.equal(await repo.resolveCommit(first.slice(0, 8)), first);
    assert.equal(await repo.resolveCommit('HEAD~2'), first);
    await assert.rejects(repo.resolveCommit('no-such-branch'), { message: `unknown revision 'no-such-branch' in ${work}` });
    await assert.rejects(repo.resolveCommit('--all'), { message: `unknown revision '--all' in ${work}` });
    await assert.rejects(repo.resolveCommit('HEAD:a.py'), { message: `'HEAD:a.py' is a blob, not a commit, in ${work}` });
    const absent = 'c0ffee'.repeat(6) + 'c0ff';
    await assert.rejects(repo.resolveCommit(absent), { message: `commit ${absent} is not in ${work}` });
    await repo.close();
  });

  test('a hex prefix two commits share is refused as ambiguous, not as a missing commit', async () => {
    const dir = join(root, 'ambiguous');
    const target = commitFiles(dir, { 'a.py': 'x = 1\n' }, 'one');
    const tree = git(dir, 'rev-parse', `${target}^{tree}`);
    const prefix = target.slice(0, 4);
    // a second commit object whose id starts with the same 4 digits (about 65,536 tries)
    let body = '';
    for (let n = 0; ; n++) {
      body = `tree ${tree}\nauthor t <t@t> 1577836800 +0000\ncommitter t <t@t> 1577836800 +0000\n\ncollide ${n}\n`;
      if (createHash('sha1').update(`commit ${Buffer.byteLength(body)}\0${body}`).digest('hex').startsWith(prefix)) break;
    }
    const other = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: dir, input: body, encoding: 'utf8' }).trim();
    assert.ok(other.startsWith(prefix) && other !== target);
    const repo = await GitRepo.open(dir);
    try {
      await assert.rejects(repo.resolveCommit(prefix), { message: `revision '${prefix}' is ambiguous in ${dir}: 2 objects start with it (give more digits)` });
      assert.equal(await repo.resolveCommit(other.slice(0, 12)), other);
    } finally {
      await repo.close();
    }
  });

  test('resolves a commit message search (:/text) and an annotated tag to their commits', async () => {
    git(work, 'tag', '-a', '-m', 'release one', 'v-first', first);
    const repo = await GitRepo.open(work);
    assert.equal(await repo.resolveCommit(':/first'), first);
    assert.equal(await repo.resolveCommit(':/^second'), git(work, 'rev-parse', 'HEAD~1'));
    assert.equal(await repo.resolveCommit('v-first'), first);
    await assert.rejects(repo.resolveCommit(':/nomessagelikethis'), { message: `unknown revision ':/nomessagelikethis' in ${work}` });
    await repo.close();
    assert.equal(await resolveRevision(work, ':/first'), first);
    assert.equal(await resolveRevision(work, 'v-first'), first);
  });

  test('an empty repository (no commit yet) is named as such, work tree or bare', async () => {
    for (const bare of [false, true]) {
      const empty = join(root, bare ? 'empty.git' : 'empty');
      git(root, 'init', '-q', ...(bare ? ['--bare'] : []), empty);
      const repo = await GitRepo.open(empty);
      for (const rev of ['HEAD', 'main', 'abc123']) {
        await assert.rejects(repo.resolveCommit(rev), (e: unknown) => e instanceof IssuelocError && e.exitCode === 2 &&
          e.message === `repository ${empty} has no commits yet`);
      }
      await repo.close();
    }
  });

  test('says when a shallow clone lacks the commit', async () => {
    const shallow = join(root, 'shallow');
    git(root, 'clone', '-q', '--depth', '1', `file://${work}`, shallow);
    const repo = await GitRepo.open(shallow);
    assert.equal(repo.isShallow, true);
    assert.equal(await repo.resolveCommit('HEAD'), second);
    await assert.rejects(repo.resolveCommit(first), {
      message: `commit ${first} is not in ${shallow} (shallow clone: fetch more history with git fetch --unshallow)`,
    });
    await repo.close();
  });

  test('lists regular files with modes and sizes; counts symlinks and submodules', async () => {
    const repo = await GitRepo.open(bare);
    const { entries, skipped } = await repo.listTree(second);
    assert.deepEqual(entries.map((e) => e.path), ['a.py', 'big.txt', 'naïve name.py', 'src/b.js', 'tool.sh']);
    assert.deepEqual(skipped, { symlinks: 1, submodules: 1 });
    const byPath = new Map(entries.map((e) => [e.path, e]));
    assert.equal(byPath.get('tool.sh')!.mode, '100755');
    assert.equal(byPath.get('a.py')!.mode, '100644');
    assert.equal(byPath.get('big.txt')!.size, BIG.length);
    assert.equal(byPath.get('a.py')!.blob, git(work, 'rev-parse', `${second}:a.py`));
    await assert.rejects(repo.listTree('0'.repeat(40)), /cannot list the files of 0{40} in /);
    await repo.close();
  });

  test('reads blobs, one at a time and pipelined, across chunk boundaries', async () => {
    const repo = await GitRepo.open(work);
    const { entries } = await repo.listTree(second);
    const blob = (p: string) => entries.find((e) => e.path === p)!.blob;
    assert.equal((await repo.readBlob(blob('a.py')))!.toString(), 'def f():\n    return 2\n');
    assert.ok((await repo.readBlob(blob('big.txt')))!.equals(BIG));
    assert.equal(await repo.readBlob('1234567890'.repeat(4)), null);
    assert.equal(await repo.readBlob(second), null, 'a commit is not a blob');

    // Many requests in flight: big and small blobs interleaved, missing ones among them.
    const names: string[] = [];
    for (let i = 0; i < 150; i++) names.push(blob('big.txt'), blob('a.py'), 'f'.repeat(40), blob('src/b.js'));
    let i = 0;
    for await (const [sha, buf] of repo.readBlobs(names)) {
      assert.equal(sha, names[i]);
      if (sha === blob('big.txt')) assert.equal(buf!.length, BIG.length);
      else if (sha === blob('a.py')) assert.equal(buf!.toString(), 'def f():\n    return 2\n');
      else if (sha === 'f'.repeat(40)) assert.equal(buf, null);
      else assert.equal(buf!.toString(), 'export const b = () => 1;\n');
      i++;
    }
    assert.equal(i, names.length);
    const big = await repo.readBlob(blob('big.txt'));
    assert.ok(big!.equals(BIG), 'the stream is still in step after the pipelined reads');
    await repo.close();
    // After close, a new read starts a fresh process.
    assert.equal((await repo.readBlob(blob('src/b.js')))!.toString(), 'export const b = () => 1;\n');
    await repo.close();
  });

  test('survives a blob missing from the object store', async () => {
    const dir = join(root, 'broken');
    const head = commitFiles(dir, { 'ok.py': 'x = 1\n', 'gone.py': 'y = 2\n' });
    const gone = git(dir, 'rev-parse', 'HEAD:gone.py');
    rmSync(join(dir, '.git', 'objects', gone.slice(0, 2), gone.slice(2)));
    const repo = await GitRepo.open(dir);
    const { entries } = await repo.listTree(head);
    assert.equal(entries.find((e) => e.path === 'gone.py')!.size, -1);
    assert.equal(await repo.readBlob(gone), null);
    assert.equal((await repo.readBlob(git(dir, 'rev-parse', 'HEAD:ok.py')))!.toString(), 'x = 1\n');
    await repo.close();
  });

  test('refuses object names that would break the batch protocol', async () => {
    const repo = await GitRepo.open(work);
    await assert.rejects(repo.readBlob('abc\ndef'), IssuelocError);
    assert.equal((await repo.readObject(`${second}:a.py`))!.type, 'blob');
    await repo.close();
  });
});

test('resolveCommit: a revision naming a commit takes one git process (HEAD, a SHA or prefix, a branch or tag name none: read from the git directory); others keep their messages', async () => {
  const dir = tempDir('issueloc-resolve-');
  try {
    const work = join(dir, 'repo');
    const sha = commitFiles(work, { 'a.py': 'x = 1\n' }, 'Add the parser');
    git(work, 'tag', '-a', 'v1', '-m', 'v1');
    const repo = await GitRepo.open(work);
    const exec = repo.exec.bind(repo);
    let calls = 0;
    repo.exec = ((...a: Parameters<typeof repo.exec>) => { calls++; return exec(...a); }) as typeof repo.exec;
    try {
      for (const rev of ['HEAD', 'v1', sha, sha.slice(0, 10), 'main', 'main~0']) {
        calls = 0;
        assert.equal(await repo.resolveCommit(rev), sha, rev);
        const files = rev !== 'main~0';
        assert.equal(calls, files ? 0 : 1, `${rev}: ${files ? 'no' : 'one'} git process`);
      }
      assert.equal(await repo.resolveCommit(':/parser'), sha, 'a commit message search still resolves');
      await assert.rejects(repo.resolveCommit('HEAD^{tree}'), /is a tree, not a commit/);
      await assert.rejects(repo.resolveCommit('nosuch'), /unknown revision 'nosuch'/);
    } finally {
      await repo.close();
    }
  } finally {
    cleanup(dir);
  }
});
