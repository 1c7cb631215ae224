// The warm localizer pool: one build per (repository, model, commit) however many requests wait
// on it, an LRU under the memory budget that closes what it evicts, revisions checked by git,
// names never paths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../src/errors.js';
import { DEFAULT_INDEX_SETTINGS, indexFilePath } from '../../src/index/code-index.js';
import { openLocalizer, type IssueLocalizer, type LocalizerOptions } from '../../src/pipeline/localizer.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { ServiceError } from '../../src/service/errors.js';
import { ENTRY_BASE_BYTES, LocalizerPool, MAX_WARM_ENTRIES } from '../../src/service/localizer-pool.js';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';

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

test('a build longer than the wait: 503 with Retry-After for that request, the build goes on for the others', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const open = async (o: LocalizerOptions) => { await gate; return openLocalizer(o); };
  const pool = new LocalizerPool(config(), { open });
  try {
    await pool.resolveCommit('demo'); // both requests below then wait on the build at once
    const patient = pool.localize({ repository: 'demo', text: 'parse date' }, 60_000);
    await assert.rejects(pool.localize({ repository: 'demo', text: 'parse date' }, 50), (e: unknown) => e instanceof ServiceError && e.status === 503 && e.retryAfterSeconds === 1);
    release();
    const a = await patient;
    assert.equal(a.result.commit, second);
    assert.equal(pool.counters.builds, 1);
    assert.equal(pool.counters.buildsCancelled, 0);
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

test('ranges and message searches are refused before git runs; a commit git dropped is not answered from the warm entry', async () => {
  const { counts, open } = counting();
  const pool = new LocalizerPool(config(), { open });
  const dir = join(root, 'rewrite');
  commitFiles(dir, { 'a.py': 'def parse_date(text):\n    return 1\n' }, 'first');
  const old = commitFiles(dir, { 'b.py': 'def color_name(rgb):\n    return 2\n' }, 'second');
  (pool.config.repositories as Map<string, unknown>).set('rw', { name: 'rw', path: dir, rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } });
  try {
    for (const rev of ['^HEAD', 'HEAD..HEAD', 'HEAD^@', ':/parse', 'HEAD^{/parse}']) {
      await assert.rejects(pool.localize({ repository: 'demo', rev, text: 'parse date' }), /names a range of commits|searches commit messages/, rev);
    }
    assert.equal(counts.opened, 0);
    await pool.localize({ repository: 'rw', rev: old, text: 'parse date' });
    git(dir, 'commit', '-q', '--amend', '-m', 'rewritten');
    git(dir, 'reflog', 'expire', '--expire=now', '--all');
    git(dir, 'gc', '-q', '--prune=now');
    for (const rev of [old, old.slice(0, 12)]) {
      await assert.rejects(pool.localize({ repository: 'rw', rev, text: 'parse date' }), /is not in repository rw|unknown revision/, rev);
    }
  } finally {
    await pool.close();
  }
});

test('the pool holds at most MAX_WARM_ENTRIES, and the default estimate counts what an entry costs', async () => {
  const commits = [first, second];
  const dir = join(root, 'many');
  for (let k = 0; k < MAX_WARM_ENTRIES + 3; k++) commits.push(commitFiles(dir, { [`n${k}.py`]: `x = ${k}\n` }, `c${k}`));
  let live = 0;
  const open = async (): Promise<IssueLocalizer> => {
    live++;
    return { stages: [], cacheDir: root, localize: async () => { throw new Error('unused'); }, prepare: async (r: string) => ({ commit: r, documents: 1 }) as never, close: async () => { live--; } } as unknown as IssueLocalizer;
  };
  const pool = new LocalizerPool(config(), { open, estimateBytes: () => 1 });
  (pool.config.repositories as Map<string, unknown>).set('many', { name: 'many', path: dir, rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } });
  try {
    for (const c of commits.slice(2)) await pool.prepare('many', c);
    assert.equal(pool.warm().length, MAX_WARM_ENTRIES);
    assert.equal(live, MAX_WARM_ENTRIES, 'every evicted entry is closed');
  } finally {
    await pool.close();
  }
  assert.ok(ENTRY_BASE_BYTES >= 2 ** 20, 'an entry costs at least a MiB however small its index');
});

/**
 * openLocalizer whose prepare first waits for `gate` (or the build's cancellation), then runs the
 * real one with the pool's signal: a slow build, without a slow repository.
 */
function gated(gate: Promise<unknown>) {
  const counts = { opened: 0 };
  const open = async (o: LocalizerOptions): Promise<IssueLocalizer> => {
    counts.opened++;
    const l = await openLocalizer(o);
    return {
      stages: l.stages, cacheDir: l.cacheDir, localize: (t, c) => l.localize(t, c), close: () => l.close(),
      prepare: async (r, p) => {
        await new Promise((resolve) => {
          void gate.then(resolve);
          if (p?.signal?.aborted) resolve(undefined);
          p?.signal?.addEventListener('abort', resolve);
        });
        return l.prepare(r, p);
      },
    };
  };
  return { counts, open };
}

test('a build no request waits for any more is cancelled: nothing saved, the next request builds again', async () => {
  const cacheDir = join(root, 'cache-cancel');
  let release!: () => void;
  const { counts, open } = gated(new Promise<void>((r) => { release = r; }));
  const pool = new LocalizerPool({ ...config(), cacheDir }, { open });
  try {
    await pool.resolveCommit('demo'); // both requests below then wait on the build at once
    const waitMs = 50;
    const asks = [pool.localize({ repository: 'demo', text: 'parse date' }, waitMs), pool.localize({ repository: 'demo', text: 'parse date' }, 2 * waitMs)];
    for (const ask of asks) await assert.rejects(ask, (e: unknown) => e instanceof ServiceError && e.status === 503);
    assert.equal(pool.counters.buildsCancelled, 1, 'cancelled once, when the last waiter left');
    assert.equal(pool.counters.buildFailures, 0);
    assert.deepEqual(pool.warm(), [], 'the cancelled entry is gone');
    // the build queue ends without the gate being opened: the build was abandoned, not finished
    const ended = await Promise.race([pool.close().then(() => true), new Promise((r) => setTimeout(() => r(false), 30_000).unref())]);
    assert.equal(ended, true, 'the cancelled build ended without its gate');
    assert.equal(existsSync(indexFilePath(cacheDir, second, DEFAULT_INDEX_SETTINGS)), false, 'no index written');
    assert.equal(counts.opened, 1);
  } finally {
    release();
    await pool.close();
  }
});

test('a warm-up keeps its build; a queued build whose request left never starts', async () => {
  const cacheDir = join(root, 'cache-warmup');
  let release!: () => void;
  const { counts, open } = gated(new Promise<void>((r) => { release = r; }));
  const pool = new LocalizerPool({ ...config(), cacheDir }, { open });
  try {
    const warmup = pool.prepare('demo');
    await assert.rejects(pool.localize({ repository: 'demo', text: 'parse date' }, 20), (e: unknown) => e instanceof ServiceError && e.status === 503);
    await assert.rejects(pool.localize({ repository: 'demo', rev: first, text: 'parse date' }, 20), (e: unknown) => e instanceof ServiceError && e.status === 503);
    assert.equal(pool.counters.buildsCancelled, 1, 'the queued build of the first commit');
    release();
    const info = await warmup;
    assert.equal(info.commit, second);
    assert.equal(existsSync(indexFilePath(cacheDir, second, DEFAULT_INDEX_SETTINGS)), true, 'the warm-up built and saved its index');
    assert.equal(existsSync(indexFilePath(cacheDir, first, DEFAULT_INDEX_SETTINGS)), false);
    assert.equal(counts.opened, 1, 'the cancelled queued build never opened a localizer');
    assert.equal((await pool.localize({ repository: 'demo', text: 'parse date' })).result.commit, second);
  } finally {
    release();
    await pool.close();
  }
});
