// One reader of `packed-refs` for HEAD's branch and for the refs a hexadecimal revision may name:
// several refs at once, a chunk at a time, and bounded (a huge file, a FIFO, an endless line are
// left to git, never waited on or read whole).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, appendFileSync, writeFileSync } from 'node:fs';
import { MAX_PACKED_REFS_BYTES, packedRefIds } from '../../src/repo/packed-refs.js';
import { headCommitOf } from '../../src/repo/head-ref.js';
import { commitOfHexRevision } from '../../src/repo/commit-id.js';
import { cleanup, commitFiles, git, tempDir } from './git-fixture.js';
import { loadBound } from '../util/load-bound.js';

const id = (n: number) => n.toString(16).padStart(40, '0');

test('packed-refs: several refs in one read, lines across chunk ends, comments, peeled and malformed lines', () => {
  const dir = tempDir('issueloc-packed-refs-');
  try {
    assert.deepEqual(packedRefIds(dir, ['refs/heads/main']), new Map(), 'no file: nothing packed');
    const lines = ['# pack-refs with: peeled fully-peeled sorted', '# refs/tags/v1 in a comment'];
    // about 5 chunks of pull-request refs: the refs asked for sit at every offset within a chunk
    for (let k = 0; k < 5000; k++) {
      lines.push(`${id(100 + k)} refs/pull/${k}/head`);
      if (k % 997 === 0) lines.push(`${id(20_000 + k)} refs/heads/b${k}`);
    }
    lines.push(`${id(7)} refs/tags/v1`, `^${id(8)}`, `${id(9)} refs/tags/v1`, `xyz refs/heads/bad`);
    writeFileSync(join(dir, 'packed-refs'), lines.join('\n') + '\n');
    const wanted = ['refs/tags/v1', 'refs/heads/bad', 'refs/heads/none', ...[0, 997, 1994, 2991, 3988, 4985].map((k) => `refs/heads/b${k}`)];
    const expected = new Map<string, string | undefined>([
      ...[0, 997, 1994, 2991, 3988, 4985].map((k): [string, string] => [`refs/heads/b${k}`, id(20_000 + k)]),
      ['refs/tags/v1', id(7)], ['refs/heads/bad', undefined],
    ]);
    assert.deepEqual(packedRefIds(dir, wanted), expected);
    writeFileSync(join(dir, 'packed-refs'), lines.join('\r\n'));
    assert.deepEqual(packedRefIds(dir, wanted), expected, 'CRLF endings, no final newline');
    // every chunk boundary offset for one ref line: shift the file a byte at a time
    for (let pad = 0; pad < 80; pad++) {
      const half = (65_536 - 60 + pad) >> 1;
      writeFileSync(join(dir, 'packed-refs'), `# ${'x'.repeat(half)}\n# ${'x'.repeat(65_536 - 60 + pad - half)}\n${id(5)} refs/heads/main\n`);
      assert.deepEqual(packedRefIds(dir, ['refs/heads/main']), new Map([['refs/heads/main', id(5)]]), `padded by ${pad}`);
    }
  } finally {
    cleanup(dir);
  }
});

test('packed-refs is bounded input: a file over the bound, a line longer than a chunk, a FIFO are left to git', () => {
  const dir = tempDir('issueloc-packed-refs-bound-');
  try {
    const work = join(dir, 'repo');
    const head = commitFiles(work, { 'a.py': 'x = 1\n' });
    git(work, 'pack-refs', '--all');
    const gitDir = join(work, '.git');
    assert.equal(headCommitOf(gitDir), head, 'packed branch');
    const prefix = head.slice(0, 8);
    assert.equal(commitOfHexRevision(gitDir, prefix), head, 'no ref named like the prefix');
    // a sparse file over the bound, naming the branch (and a ref like the prefix) at its end: not read
    const file = join(gitDir, 'packed-refs');
    truncateSync(file, MAX_PACKED_REFS_BYTES + 1);
    appendFileSync(file, `\n${head} refs/heads/main\n${head} refs/heads/${prefix}\n`);
    assert.equal(packedRefIds(gitDir, ['refs/heads/main']), 'unknown');
    assert.equal(headCommitOf(gitDir), undefined, 'too big: git answers');
    assert.equal(commitOfHexRevision(gitDir, prefix), undefined, 'too big: git answers');
    // one line longer than a chunk (no newline at all)
    writeFileSync(file, `${head} refs/heads/main${' '.repeat(1 << 17)}`);
    assert.equal(packedRefIds(gitDir, ['refs/heads/main']), 'unknown');
    assert.equal(headCommitOf(gitDir), undefined, 'endless line: git answers');
    // a FIFO with no writer: both readers return at once (a child process, as a hang would block the test's thread)
    const fifoDir = join(dir, 'fifo.git');
    mkdirSync(fifoDir);
    writeFileSync(join(fifoDir, 'HEAD'), 'ref: refs/heads/main\n');
    execFileSync('mkfifo', [join(fifoDir, 'packed-refs')]);
    const script = `
      const { headCommitOf } = await import(${JSON.stringify(new URL('../../src/repo/head-ref.js', import.meta.url).href)});
      const { commitOfHexRevision } = await import(${JSON.stringify(new URL('../../src/repo/commit-id.js', import.meta.url).href)});
      console.log(JSON.stringify([headCommitOf(${JSON.stringify(fifoDir)}) ?? null, commitOfHexRevision(${JSON.stringify(fifoDir)}, 'abcd1234') ?? null]));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: loadBound(0) });
    assert.equal(child.signal, null, 'the child returned without waiting on the FIFO');
    assert.equal(child.stdout.trim(), '[null,null]', child.stderr);
  } finally {
    cleanup(dir);
  }
});
