import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { GitRepo } from '../../src/repo/git.js';
import { parseTree } from '../../src/repo/tree-objects.js';
import { cleanup, git, tempDir } from './git-fixture.js';

const dir = tempDir('issueloc-trees-');
after(() => cleanup(dir));
git(dir, 'init', '-q');

/** Writes an object with `git hash-object --literally` (any mode, any name bytes); returns its id. */
function writeObject(type: 'blob' | 'tree', data: Buffer): string {
  return execFileSync('git', ['-C', dir, 'hash-object', '-w', '-t', type, '--literally', '--stdin'], { input: data, encoding: 'utf8' }).trim();
}

/** A raw tree of `[mode, name, id]` entries, in the order given. */
function tree(entries: [string, string | Buffer, string][]): string {
  return writeObject('tree', Buffer.concat(entries.map(([mode, name, id]) => Buffer.concat([Buffer.from(`${mode} `), Buffer.from(name), Buffer.from([0]), Buffer.from(id, 'hex')]))));
}

/** `git ls-tree -r --full-tree -z` of `rev`: the listing every caller used to get. */
function lsTree(rev: string): { files: { path: string; mode: string; blob: string }[]; symlinks: number; submodules: number } {
  const out = execFileSync('git', ['-C', dir, 'ls-tree', '-r', '-z', '--full-tree', rev]);
  const files: { path: string; mode: string; blob: string }[] = [];
  let symlinks = 0;
  let submodules = 0;
  for (let pos = 0; pos < out.length;) {
    const end = out.indexOf(0, pos);
    const tab = out.indexOf(9, pos);
    const [mode, type, blob] = out.toString('latin1', pos, tab).split(' ');
    if (mode === '120000') symlinks++;
    else if (type === 'commit') submodules++;
    else files.push({ path: out.toString('utf8', tab + 1, end), mode, blob });
    pos = end + 1;
  }
  return { files, symlinks, submodules };
}

const blob = (text: string) => writeObject('blob', Buffer.from(text));
const a = blob('a = 1\n');
const b = blob('b = 2\n');
// a subtree shared by two folders; names with a newline, a tab, a quote and a non-UTF-8 byte
const shared = tree([['100644', 'x.py', a], ['100755', 'run.sh', b]].sort((p, q) => Buffer.compare(Buffer.from(p[1]), Buffer.from(q[1]))) as [string, string, string][]);
const odd = tree([
  ['100644', 'line\nbreak.py', a],
  ['100644', Buffer.from([0x6e, 0xff, 0x2e, 0x70, 0x79]), b], // n\xff.py
  ['100644', 'tab\tand "quote".py', a],
]);
const rootA = tree([
  ['100600', 'a.py', a], // an old mode git reads as 100644
  ['40000', 'lib', shared],
  ['40000', 'lib.d', odd],
  ['120000', 'link', a],
  ['100664', 'm.py', b], // the legacy group-writable mode
  ['40000', 'pkg', shared],
  ['160000', 'sub', a],
  ['100755', 'tool', b],
]);
const rootB = tree([['100644', 'a.py', b], ['40000', 'lib', shared], ['40000', 'pkg', odd]]);
const commitOf = (t: string, parent?: string) => git(dir, 'commit-tree', t, '-m', 'c', ...(parent ? ['-p', parent] : []));
const commitA = commitOf(rootA);
const commitB = commitOf(rootB, commitA);

test('listFiles gives what git ls-tree -r gives: order, modes, ids, odd names; across commits sharing trees', async () => {
  const repo = await GitRepo.open(dir);
  try {
    for (const rev of [commitA, commitB, commitA, rootB, `${commitB}~1`]) {
      const { entries, skipped } = await repo.listFiles(rev);
      const want = lsTree(rev);
      assert.deepEqual(entries, want.files, rev);
      assert.deepEqual(skipped, { symlinks: want.symlinks, submodules: want.submodules }, rev);
    }
    assert.deepEqual(await repo.listPaths(commitA), [
      'a.py', 'lib/run.sh', 'lib/x.py', 'lib.d/line\nbreak.py', 'lib.d/n\ufffd.py', 'lib.d/tab\tand "quote".py', 'm.py', 'pkg/run.sh', 'pkg/x.py', 'tool',
    ]);
    assert.equal(repo.parsedTrees, 4, 'each tree object is parsed once: rootA, shared, odd, rootB');
    const sized = await repo.listTree(commitA);
    assert.deepEqual(sized.entries.map((e) => ({ path: e.path, mode: e.mode, blob: e.blob })), lsTree(commitA).files);
    for (const rev of [commitA, commitB]) { // the second listing takes the sizes it knows from the first
      const { entries } = await repo.listTree(rev);
      assert.deepEqual(entries.map((e) => e.size), entries.map((e) => Number(git(dir, 'cat-file', '-s', e.blob))), rev);
    }
  } finally {
    await repo.close();
  }
});

test('a missing tree, an unknown name and a name git cannot take are one-line errors naming the revision', async () => {
  const repo = await GitRepo.open(dir);
  try {
    const gone = '1234567890'.repeat(4);
    const broken = commitOf(tree([['40000', 'gone', gone]]));
    await assert.rejects(repo.listFiles(broken), { message: `cannot list the files of ${broken} in ${dir}: tree ${gone} is missing from the object store` });
    await assert.rejects(repo.listFiles('0'.repeat(40)), { message: `cannot list the files of ${'0'.repeat(40)} in ${dir}: no commit or tree of that name` });
    await assert.rejects(repo.listFiles('HEAD\nx'), { message: `cannot list the files of "HEAD\\nx" in ${dir}: no commit or tree of that name` });
    assert.equal((await repo.listFiles(commitB)).entries.length, 6, 'the batch process still answers');
  } finally {
    await repo.close();
  }
});

test('parseTree keeps entries in stored order with canonical modes, rejects truncated data', () => {
  const id = Buffer.alloc(20, 0xab);
  const entry = (mode: string, name: string) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), id]);
  const node = parseTree(Buffer.concat([entry('100644', 'a.py'), entry('40000', 'src'), entry('120000', 'link'), entry('160000', 'sub'), entry('100755', 'run.sh'), entry('100664', 'g.py'), entry('100744', 'x'), entry('170000', 'odd')]), 20);
  const sha = 'ab'.repeat(20);
  assert.deepEqual(node.modes, ['100644', '40000', '120000', '160000', '100755', '100644', '100755', '160000']);
  assert.deepEqual(node.names, ['a.py', 'src', 'link', 'sub', 'run.sh', 'g.py', 'x', 'odd']);
  assert.deepEqual(node.ids, Array(8).fill(sha));
  assert.equal(node.trees, 1);
  assert.throws(() => parseTree(entry('100644', 'a.py').subarray(0, 30), 20), /truncated tree object/);
});
