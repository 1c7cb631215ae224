import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { walkHistory, type LogCommit } from '../../src/repo/log-walk.js';
import { diffPaths } from '../../src/repo/tree-diff.js';
import { GitRepo } from '../../src/repo/git.js';
import { IssuelocError } from '../../src/errors.js';
import { fixtureRepo, git } from './fixture-repo.js';

const repo = fixtureRepo([
  { id: 'A', message: 'init\n\nbody MNG-9', files: { 'src/a.py': 'a\n', 'notes.txt': 'n\n' } },
  { id: 'B', parents: ['A'], message: 'MNG-1 change a', files: { 'src/a.py': 'a2\n', 'notes.txt': null, 'src/b.py': 'b\n' } },
  { id: 'X', parents: ['A'], message: 'side', files: { 'src/c.py': 'c\n' } },
  { id: 'M', parents: ['B', 'X'], message: 'Merge side', files: { 'src/c.py': 'c\n' } },
]);
after(() => repo.remove());

test('walkHistory streams every commit children first, with first-parent changes and no diff for merges', async () => {
  const seen: { c: LogCommit; i: number }[] = [];
  const progress: number[] = [];
  const { graph, resolvedRevs } = await walkHistory(repo.dir, { onCommit: (c, i) => seen.push({ c, i }), onProgress: (d) => progress.push(d) });
  assert.equal(graph.size, 4);
  assert.deepEqual(resolvedRevs, [repo.sha('M')]);
  assert.equal(seen[0].c.sha, repo.sha('M'));
  assert.deepEqual(seen[0].c.changes, []);
  assert.equal(seen[seen.length - 1].c.sha, repo.sha('A'));
  const b = seen.find((s) => s.c.sha === repo.sha('B'));
  assert.ok(b);
  assert.deepEqual([...b.c.changes].sort((x, y) => x.path.localeCompare(y.path)), [
    { status: 'D', path: 'notes.txt' },
    { status: 'M', path: 'src/a.py' },
    { status: 'A', path: 'src/b.py' },
  ]);
  const m = graph.indexOf(repo.sha('M')) as number;
  assert.deepEqual(graph.parents(m).map((p) => graph.sha(p)), [repo.sha('B'), repo.sha('X')]);
  for (let i = 0; i < graph.size; i++) for (const p of graph.parents(i)) assert.ok(p > i, 'parents come after children');
  assert.equal(graph.time(graph.indexOf(repo.sha('A')) as number), Date.UTC(2020, 0, 1) / 1000);
  assert.deepEqual(progress.slice(-1), [4]);
});

test('diffPaths reads a merge against its first parent; listPaths the merge\'s tree', async () => {
  assert.deepEqual(await diffPaths(repo.dir, repo.sha('B'), repo.sha('M')), [{ status: 'A', path: 'src/c.py' }]);
  const g = await GitRepo.open(repo.dir);
  try {
    assert.deepEqual(await g.listPaths(repo.sha('M')), ['src/a.py', 'src/b.py', 'src/c.py']);
  } finally {
    await g.close();
  }
});

test('walkHistory fails clearly on an unknown revision, a non-repository and a shallow clone', async () => {
  await assert.rejects(walkHistory(repo.dir, { revs: ['nope'] }), (e: unknown) => e instanceof IssuelocError && /unknown revision 'nope'/.test(e.message));
  const empty = mkdtempSync(join(tmpdir(), 'issueloc-norepo-'));
  try {
    await assert.rejects(walkHistory(empty), /not a git repository/);
    const shallow = join(empty, 'shallow');
    git(empty, ['clone', '-q', '--depth', '1', `file://${repo.dir}`, shallow]);
    await assert.rejects(walkHistory(shallow), /shallow clone/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('walkHistory reports a git failure with its message instead of a truncated history', async () => {
  // a ref to a missing object: git log dies; the walk must reject, not return a partial graph
  const broken = fixtureRepo([{ id: 'A', message: 'a', files: { 'a.py': '1' } }, { id: 'B', parents: ['A'], message: 'b', files: { 'a.py': '2' } }]);
  try {
    const objects = join(broken.dir, '.git', 'objects');
    const a = broken.sha('A');
    rmSync(join(objects, a.slice(0, 2), a.slice(2)));
    await assert.rejects(walkHistory(broken.dir), (e: unknown) => e instanceof IssuelocError && /git log failed/.test(e.message));
  } finally {
    broken.remove();
  }
});
