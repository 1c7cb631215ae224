// --watch: a default branch that moves is indexed at its new commit within a poll or two, and
// requests without a revision then rank it; a failing poll is told once per poll and retried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { InProcessBackend } from '../../src/service/backend.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { LocalizerPool } from '../../src/service/localizer-pool.js';
import { watchDefaultBranches } from '../../src/service/watch.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';

const until = async (ok: () => boolean, ms: number, what: string) => {
  const t0 = Date.now();
  while (!ok()) {
    assert.ok(Date.now() - t0 < ms, `${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('a moved default branch is indexed, then used; a poll that fails is reported and retried', async () => {
  const root = tempDir('issueloc-watch-');
  const repo = join(root, 'repo');
  commitFiles(repo, { 'a.py': 'def alpha():\n    pass\n' });
  const config: ServiceConfig = {
    repositories: new Map([['demo', { name: 'demo', path: repo, rev: 'main', defaults: { ...DEFAULT_RANK_SETTINGS } }]]),
    models: new Map(), cacheDir: join(root, 'cache'), limits: DEFAULT_LIMITS, source: 'test',
  };
  const backend = new InProcessBackend(new LocalizerPool(config));
  const moves: string[] = [];
  const errors: string[] = [];
  const watch = watchDefaultBranches(backend, ['demo'], 30, (name, commit) => moves.push(`${name} ${commit}`), (m) => errors.push(m));
  try {
    await backend.warmDefaults();
    const c2 = commitFiles(repo, { 'b.py': 'def beta_gamma():\n    pass\n' });
    await until(() => moves.length > 0, 60_000, 'the move seen');
    assert.deepEqual(moves, [`demo ${c2}`]);
    const answer = JSON.parse(await backend.localize({ repository: 'demo', issue: 'beta_gamma broken' }, 60_000)) as { commit: string; functions: { id: string }[] };
    assert.equal(answer.commit, c2);
    assert.equal(answer.functions[0].id, 'b.py:beta_gamma');
    git(repo, 'branch', '-m', 'main', 'renamed');
    await until(() => errors.length > 0, 60_000, 'the failed poll reported');
    assert.match(errors[0], /^watch demo: unknown revision 'main'/);
    git(repo, 'branch', '-m', 'renamed', 'main');
    const c3 = commitFiles(repo, { 'c.py': 'def delta():\n    pass\n' });
    await until(() => moves.length > 1, 60_000, 'the next move seen');
    assert.equal(moves[1], `demo ${c3}`);
  } finally {
    await watch.stop();
    await backend.close();
    cleanup(root);
  }
});
