import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitFailure, gitReason, gitText, runGit, spawnGit, streamGit } from '../../src/repo/git-process.js';
import { IssuelocError } from '../../src/errors.js';
import { cleanup, commitFiles, git, tempDir } from './git-fixture.js';

const dir = tempDir('issueloc-git-process-');
after(() => cleanup(dir));
const work = join(dir, 'work');
const head = commitFiles(work, { 'a.py': 'x = 1\n'.repeat(1000) });

test('a failing git is one IssuelocError naming the command, the repository and the first line of the complaint', async () => {
  await assert.rejects(gitText(['-C', work, 'rev-parse', '--verify', 'no-such-rev^{commit}']), (e: unknown) =>
    e instanceof IssuelocError && e.exitCode === 2 && e.message === `git rev-parse failed in ${work} (exit 128): Needed a single revision`);
  await assert.rejects(streamGit(['-C', work, '-c', 'log.showSignature=false', 'log', 'no-such-rev', '--'], () => undefined), (e: unknown) =>
    e instanceof IssuelocError && /^git log failed in .* \(exit 128\): bad revision 'no-such-rev'$/.test(e.message));
  // runGit leaves the exit status to the caller
  const res = await runGit([`--git-dir=${join(work, '.git')}`, 'rev-parse', '--verify', '--quiet', 'nope'], { repo: 'the repo' });
  assert.equal(res.code, 1);
  assert.equal(gitFailure(['--git-dir=x', 'rev-parse'], res, { repo: 'the repo' }).message, 'git rev-parse failed in the repo (exit 1)');
});

test('the reason is the line git marks fatal or error, not a hint after it', () => {
  const dubious = `fatal: detected dubious ownership in repository at '/r'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /r\n`;
  assert.equal(gitReason(dubious), "detected dubious ownership in repository at '/r'");
  assert.equal(gitReason('warning: refname is ambiguous\nerror: bad object x\n'), 'bad object x');
  assert.equal(gitReason('something odd\nmore\n'), 'something odd');
  assert.equal(gitReason(''), '');
});

test('output is bounded; stdin is passed; a consumer error stops git', async () => {
  await assert.rejects(runGit(['-C', work, 'cat-file', '-p', `${head}:a.py`], { maxBytes: 1000 }), (e: unknown) =>
    e instanceof IssuelocError && e.message === `git cat-file in ${work} printed more than 1000 bytes`);
  assert.equal((await runGit(['-C', work, 'cat-file', '-p', `${head}:a.py`])).stdout.length, 6000);
  const sizes = await gitText(['-C', work, 'cat-file', '--batch-check=%(objecttype)'], { input: `${head}\n${head}:a.py\n` });
  assert.equal(sizes, 'commit\nblob\n');
  await assert.rejects(streamGit(['-C', work, 'log', '--format=%H'], () => {
    throw new Error('consumer failed');
  }), /consumer failed/);
});

test('git of another repository named in the environment (a hook\'s GIT_DIR) is never used', async () => {
  const other = join(dir, 'other');
  commitFiles(other, { 'b.py': 'y = 2\n' });
  const saved = process.env.GIT_DIR;
  process.env.GIT_DIR = join(other, '.git');
  try {
    assert.equal((await gitText(['-C', work, 'rev-parse', 'HEAD'])).trim(), head);
  } finally {
    if (saved === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = saved;
  }
  assert.equal(git(work, 'rev-parse', 'HEAD'), head);
});

test('a git whose stdin is given whole writes full buffers (GIT_FLUSH=0); a conversation keeps git\'s flushing, whatever our environment says', async () => {
  const saved = process.env.GIT_FLUSH;
  process.env.GIT_FLUSH = '1';
  // an alias run by the shell prints the environment git was started with
  const envOf = ['-C', work, '-c', 'alias.showenv=!env', 'showenv'];
  try {
    assert.match(await gitText(envOf), /^GIT_FLUSH=0$/m);
    const proc = spawnGit(envOf, 'pipe');
    proc.stdin.end();
    const chunks: Buffer[] = [];
    proc.stdout.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((resolve) => proc.on('close', resolve));
    assert.doesNotMatch(Buffer.concat(chunks).toString('utf8'), /^GIT_FLUSH=/m);
  } finally {
    if (saved === undefined) delete process.env.GIT_FLUSH;
    else process.env.GIT_FLUSH = saved;
  }
});

test('a git that cannot start is an IssuelocError naming the command', async () => {
  const saved = process.env.PATH;
  process.env.PATH = join(dir, 'no-bin');
  try {
    await assert.rejects(gitText(['-C', work, 'rev-parse', 'HEAD']), (e: unknown) => e instanceof IssuelocError && /^cannot run git rev-parse in .*: spawn git ENOENT/.test(e.message));
  } finally {
    process.env.PATH = saved;
  }
});

test('src/repo/git-process.ts is the only module that starts a process', () => {
  const src = fileURLToPath(new URL('../../../src/', import.meta.url)); // the TypeScript sources (dist/ may hold stale files)
  const starters: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && /node:child_process|['"]child_process['"]/.test(readFileSync(p, 'utf8'))) starters.push(relative(src, p));
    }
  };
  walk(src);
  assert.deepEqual(starters, [join('repo', 'git-process.ts')]);
});
