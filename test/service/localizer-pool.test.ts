// The warm localizer pool: one build per (repository, model, commit) however many requests wait
// on it, an LRU under the memory budget that closes what it evicts, revisions checked by git,
// names never paths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../src/errors.js';
import { openLocalizer, type IssueLocalizer, type LocalizerOptions } from '../../src/pipeline/localizer.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { ServiceError } from '../../src/service/errors.js';
import { LocalizerPool } from '../../src/service/localizer-pool.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

let root: string, repo: string, first: string, second: string;
before(() => {
  root = tempDir('issueloc-pool-');
  repo = join(root, 'repo');
  first = commitFiles(repo, { 'pkg/parse.py': 'def parse_date(text):\n    return text.split("-")\n', 'pkg/json_io.py': 'def dump_json(x):\n    return str(x)\n' });
  second = commitFiles(repo, { 'pkg/color.py': 'def color_name(rgb):\n    return "red"\n' });
});
after(() => cleanup(root));

function config(over: Partial<ServiceConfig['limits']> = {}): ServiceConfig {
  return {
    repositories: new Map([['demo', { name: 'demo', path: repo, rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } }]]),
    models: new Map(), cacheDir: join(root, 'cache'), limits: { ...DEFAULT_LIMITS, ...over }, source: 'test',
  };
}

/** openLocalizer, counting opens and closes. */
function counting() {
  const counts = { opened: 0, closed: 0 };
  const open = async (o: LocalizerOptions): Promise<IssueLocalizer> => {
    counts.opened++;
    const l = await openLocalizer(o);
    return { stages: l.stages, cacheDir: l.cacheDir, localize: (t, c) => l.localize(t, c), prepare: (r) => l.prepare(r), close: async () => { counts.closed++; await l.close(); } };
  };
  return { counts, open };
}

test('concurrent first requests for one commit build it once; later ones are hits', async () => {
  const { counts, open } = counting();
  const pool = new LocalizerPool(config(), { open });
  try {
    const answers = await Promise.all(Array.from({ length: 6 }, () => pool.localize({ repository: 'demo', text: 'parse_date fails on empty text' })));
    assert.equal(counts.opened, 1);
    assert.equal(pool.counters.builds, 1);
    assert.equal(pool.counters.misses, 6);
    for (const a of answers) assert.equal(a.result.functions[0]?.id, 'pkg/parse.py:parse_date');
    await pool.localize({ repository: 'demo', rev: second, text: 'parse date' });
    assert.equal(pool.counters.hits, 1, 'the full SHA of the default commit is the warm entry');
    const at1 = await pool.localize({ repository: 'demo', rev: first.slice(0, 10), text: 'color name' });
    assert.equal(at1.result.commit, first);
    assert.equal(at1.result.functions.some((f) => f.id.includes('color')), false, 'nothing after the base commit');
    assert.equal(pool.counters.builds, 2);
  } finally {
    await pool.close();
  }
  assert.equal(counts.closed, 2, 'close closes every localizer');
});

test('over the memory budget the least recently used idle entry is evicted and closed', async () => {
  const { counts, open } = counting();
  const warnings: string[] = [];
  const pool = new LocalizerPool(config({ memoryBudgetBytes: 150 }), { open, estimateBytes: () => 100, onWarning: (m) => warnings.push(m) });
  try {
    await pool.prepare('demo', first);
    await pool.prepare('demo', second);
    assert.deepEqual(pool.warm().map((e) => e.commit), [second]);
    assert.equal(pool.counters.evictions, 1);
    assert.equal(counts.closed, 1);
    await pool.localize({ repository: 'demo', rev: first, text: 'parse date' });
    assert.equal(pool.counters.builds, 3, 'an evicted commit is opened again');
  } finally {
    await pool.close();
  }
});

test('names, not paths; revisions checked by git; nothing written for an option-like rev', async () => {
  const pool = new LocalizerPool(config());
  try {
    for (const name of ['../repo', repo, 'demo/..', '__proto__', 'constructor']) {
      await assert.rejects(pool.localize({ repository: name, text: 'parse date' }), (e: unknown) => e instanceof ServiceError && e.status === 404);
    }
    const out = join(root, 'x');
    for (const rev of [`--output=${out}`, 'no-such-branch', 'HEAD~99', 'HEAD:pkg']) {
      await assert.rejects(pool.localize({ repository: 'demo', rev, text: 'parse date' }), (e: unknown) => e instanceof IssuelocError && !(e instanceof ServiceError) && e.exitCode === 2);
    }
    assert.equal(existsSync(out), false);
    await assert.rejects(pool.localize({ repository: 'demo', text: 'parse', settings: { model: '/etc/passwd' } }), /unknown model '\/etc\/passwd'/);
    await assert.rejects(pool.localize({ repository: 'demo', text: 'parse', settings: { top: 5000 } }), /top must be a whole number from 1 to 1000/);
    assert.equal(pool.counters.builds, 0);
  } finally {
    await pool.close();
  }
});

test('a build longer than the wait: 503 with Retry-After for that request, the build goes on', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const open = async (o: LocalizerOptions) => { await gate; return openLocalizer(o); };
  const pool = new LocalizerPool(config(), { open });
  try {
    await assert.rejects(pool.localize({ repository: 'demo', text: 'parse date' }, 50), (e: unknown) => e instanceof ServiceError && e.status === 503 && e.retryAfterSeconds === 1);
    release();
    const a = await pool.localize({ repository: 'demo', text: 'parse date' }, 10_000);
    assert.equal(a.result.commit, second);
    assert.equal(pool.counters.builds, 1);
  } finally {
    await pool.close();
  }
});

test('refreshDefault warms the moved branch, then requests use it', async () => {
  const dir = join(root, 'moving');
  const c1 = commitFiles(dir, { 'a.py': 'def alpha():\n    pass\n' });
  const cfg = config();
  cfg.repositories = new Map([['m', { name: 'm', path: dir, rev: 'main', defaults: { ...DEFAULT_RANK_SETTINGS } }]]);
  const pool = new LocalizerPool(cfg);
  try {
    assert.equal(await pool.refreshDefault('m'), undefined, 'the first resolution is no move');
    assert.equal(await pool.defaultCommit('m'), c1);
    const c2 = commitFiles(dir, { 'b.py': 'def beta():\n    pass\n' });
    assert.equal(await pool.refreshDefault('m'), c2);
    assert.equal(pool.warm().some((e) => e.commit === c2 && e.ready), true);
    const a = await pool.localize({ repository: 'm', text: 'beta' });
    assert.equal(a.result.commit, c2);
    assert.equal(await pool.refreshDefault('m'), undefined);
  } finally {
    await pool.close();
  }
});
