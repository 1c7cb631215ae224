// Pseudo-issues as labelled issues (src/ltr/adapt.ts `labelledPseudoIssues`, shared by adaptation
// and bench/pseudo-train.ts) on tiny repositories built here: each group of consecutive commits
// is asked at a snapshot before every one of its commits, the issues carry the repository name
// they are given, and a group with no common ancestor is left out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { commitFiles, git, tempDir, cleanup } from '../repo/git-fixture.js';
import { minedPseudoIssues } from '../../src/ltr/adapt-source.js';
import { labelledPseudoIssues } from '../../src/ltr/adapt.js';
import type { PseudoIssue } from '../../src/history/commit-miner.js';
import { GitRepo } from '../../src/repo/git.js';

let root: string, work: string, head: string;
const fn = (name: string, k: number) => `def ${name}(x):\n    return x + ${k}\n`;

before(() => {
  root = tempDir('issueloc-pseudo-labels-');
  work = join(root, 'repo');
  commitFiles(work, { 'pkg/a.py': fn('parse_input', 0), 'pkg/b.py': fn('open_socket', 0) }, 'initial import of the package');
  for (let k = 1; k <= 4; k++) {
    commitFiles(work, { 'pkg/a.py': fn('parse_input', k) }, `fix the input parser, round ${k}\n\nThe parser dropped empty lines.`);
    commitFiles(work, { 'pkg/b.py': fn('open_socket', k) }, `handle socket timeouts, round ${k}`);
  }
  head = git(work, 'rev-parse', 'HEAD');
});
after(() => cleanup(root));

const isAncestor = (a: string, b: string) => {
  try {
    git(work, 'merge-base', '--is-ancestor', a, b);
    return true;
  } catch {
    return false;
  }
};

test('each group of pseudo-issues is asked at a snapshot before every commit of the group, under the name given', async () => {
  const repo = await GitRepo.open(work);
  try {
    const pseudo = await minedPseudoIssues(repo, head, 100, join(root, 'cache'));
    assert.equal(pseudo.length, 8);
    const issues = await labelledPseudoIssues(repo, pseudo, 2, 'owner/name');
    assert.equal(issues.length, 8);
    const snapshots = new Set(issues.map((i) => i.commit));
    assert.equal(snapshots.size, 2, 'two groups, two snapshots');
    pseudo.forEach((p, k) => {
      const i = issues[k];
      assert.equal(i.id, `commit:${p.sha}`);
      assert.equal(i.repo, 'owner/name');
      assert.equal(i.repoPath, repo.gitDir);
      assert.deepEqual(i.gold.file, p.files);
      assert.deepEqual(i.gold.function, p.functions);
      assert.equal(i.text, p.body ? `${p.subject}\n${p.body}` : p.subject);
      assert.ok(isAncestor(i.commit, p.parent), 'the snapshot is in the past of the commit');
      assert.ok(!isAncestor(p.sha, i.commit), 'the commit itself is not in the snapshot');
    });
    // groups of consecutive pseudo-issues, each at the merge base of its commits' parents
    assert.equal(issues[0].commit, git(work, 'merge-base', '--octopus', ...pseudo.slice(0, 4).map((p) => p.parent)));
    assert.equal(issues[4].commit, git(work, 'merge-base', '--octopus', ...pseudo.slice(4).map((p) => p.parent)));
    assert.match(issues.find((i) => i.gold.file.includes('pkg/a.py'))!.text, /^fix the input parser, round \d\nThe parser dropped empty lines\.$/);
    // without a name, the repository's own cache folder is the cache root (adaptation)
    assert.ok((await labelledPseudoIssues(repo, pseudo, 4)).every((i) => i.repo === ''));
  } finally {
    await repo.close();
  }
});

test('a group whose commits share no ancestor is left out', async () => {
  const other = join(root, 'orphan');
  git(root, 'clone', '-q', work, other);
  git(other, 'checkout', '-q', '--orphan', 'unrelated');
  git(other, 'rm', '-rfq', '.');
  const first = commitFiles(other, { 'lib/c.py': fn('render_page', 0) }, 'start another history');
  const second = commitFiles(other, { 'lib/c.py': fn('render_page', 1) }, 'render pages faster than before');
  const repo = await GitRepo.open(other);
  try {
    const [p] = await minedPseudoIssues(repo, head, 1, join(root, 'cache-orphan'));
    const q: PseudoIssue = { ...p, sha: second, parent: first, subject: 'render pages faster than before', body: '', files: ['lib/c.py'], functions: [], modules: [] };
    assert.deepEqual(await labelledPseudoIssues(repo, [p, q], 1, 'o/n'), []);
    assert.equal((await labelledPseudoIssues(repo, [p, q], 2, 'o/n')).length, 2, 'one group each: each at its own parent');
  } finally {
    await repo.close();
  }
});
