// --workers: requests answered on worker threads as on the HTTP thread, counters summed, errors
// carried with their status; a request goes to the least busy worker of its repository.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { InProcessBackend } from '../../src/service/backend.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { ServiceError } from '../../src/service/errors.js';
import { LocalizerPool } from '../../src/service/localizer-pool.js';
import { WorkerBackend } from '../../src/service/worker-backend.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

let root: string, config: ServiceConfig;
before(() => {
  root = tempDir('issueloc-workers-');
  const repos = ['one', 'two'].map((n) => {
    const path = join(root, n);
    commitFiles(path, { [`${n}/core.py`]: `def parse_${n}(text):\n    return text\n\ndef render_${n}(x):\n    return x\n` });
    return [n, { name: n, path, rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } }] as const;
  });
  config = { repositories: new Map(repos), models: new Map(), cacheDir: join(root, 'cache'), limits: DEFAULT_LIMITS, source: 'test' };
});
after(() => cleanup(root));

test('two workers answer what one thread answers', async () => {
  const workers = new WorkerBackend(config, { workers: 2 });
  const local = new InProcessBackend(new LocalizerPool(config));
  try {
    const requests = ['one', 'two', 'one', 'two', 'one', 'one'].map((repository) => ({ repository, issue: `parse_${repository} fails` }));
    const a = await Promise.all(requests.map((r) => workers.localize(r, 120_000)));
    const b = await Promise.all(requests.map((r) => local.localize(r, 120_000)));
    const stable = (s: string) => ({ ...JSON.parse(s), queryMillis: 0, index: 0 });
    assert.deepEqual(a.map(stable), b.map(stable));
    const stats = await workers.stats();
    assert.equal(stats.hits + stats.misses, 6);
    assert.ok(stats.builds >= 2 && stats.builds <= 4, `each worker builds what it serves: ${stats.builds}`);
    const repos = await workers.repos();
    assert.deepEqual(repos.map((r) => r.name), ['one', 'two']);
    await assert.rejects(workers.localize({ repository: '../one', issue: 'x' }, 1000), (e: unknown) => e instanceof ServiceError && e.status === 404);
    await assert.rejects(workers.localize({ repository: 'one', rev: '--output=/tmp/x', issue: 'parse' }, 1000), (e: unknown) => e instanceof ServiceError && e.status === 400);
  } finally {
    await workers.close();
    await local.close();
  }
});

test('replicas 1: each repository on its home worker only', async () => {
  const workers = new WorkerBackend(config, { workers: 2, replicas: 1 });
  try {
    await workers.warmDefaults();
    const repos = await workers.repos();
    assert.deepEqual(repos.map((r) => r.warm.length), [1, 1], 'one warm copy each');
    await Promise.all(Array.from({ length: 8 }, (_, i) => workers.localize({ repository: i % 2 ? 'one' : 'two', issue: 'render' }, 120_000)));
    assert.equal((await workers.stats()).builds, 2);
  } finally {
    await workers.close();
  }
});
