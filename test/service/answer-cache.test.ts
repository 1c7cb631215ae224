// The answer cache of `issueloc serve`: a request asked again is answered with the same bytes
// without a query; what it must not keep (a named revision, an answer telling an index opening,
// an answer of a default that moved meanwhile), what it drops (a repository whose default moved)
// and its byte budget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AnswerCache, withAnswerCache } from '../../src/service/answer-cache.js';
import { InProcessBackend, type BackendStats, type LocalizeRequest, type ServiceBackend } from '../../src/service/backend.js';
import { DEFAULT_LIMITS, DEFAULT_RANK_SETTINGS, type ServiceConfig } from '../../src/service/config.js';
import { LocalizerPool } from '../../src/service/localizer-pool.js';
import { ServiceMetrics } from '../../src/service/metrics.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';

/** A backend that answers each call with a new JSON text (its call number in it) and counts the calls. */
class CountingBackend implements ServiceBackend {
  calls = 0;
  millis = 0;
  moved: string | undefined;
  /** Held answers: each localize call waits for `release` when set. */
  gate: Promise<void> | undefined;
  async localize(request: LocalizeRequest): Promise<string> {
    const n = ++this.calls;
    await this.gate;
    return JSON.stringify({ repo: request.repository, commit: 'c', level: 'all', index: { built: false, millis: this.millis, documents: 1 }, queryMillis: n, files: [] });
  }
  async repos() { return []; }
  async stats(): Promise<BackendStats> { return { hits: 0, misses: 0, builds: 0, buildFailures: 0, buildsCancelled: 0, evictions: 0, warmEntries: 0, warmBytes: 0 }; }
  async refreshDefault() { return this.moved; }
  async warmDefaults() {}
  async close() {}
}

const ask = (issue: string, more: Partial<LocalizeRequest> = {}): LocalizeRequest => ({ repository: 'demo', issue, ...more });

test('the same request again: the same bytes, no second query; any other field: a query', async () => {
  const inner = new CountingBackend();
  const cache = new AnswerCache(inner, 1 << 20);
  const first = await cache.localize(ask('parse fails'), 1000);
  assert.equal(await cache.localize(ask('parse fails'), 1000), first);
  assert.equal(inner.calls, 1);
  for (const other of [ask('parse fails!'), ask('parse fails', { top: 3 }), ask('parse fails', { level: 'file' }), ask('parse fails', { model: 'none' }),
    ask('parse fails', { explain: true }), ask('parse fails', { repository: 'other' })]) {
    assert.notEqual(await cache.localize(other, 1000), first);
  }
  assert.equal(inner.calls, 7);
  assert.equal((await cache.stats()).answerHits, 1);
});

test('not kept: a named revision, an answer telling its index opening, an answer of a default that moved meanwhile', async () => {
  const inner = new CountingBackend();
  const cache = new AnswerCache(inner, 1 << 20);
  await cache.localize(ask('a', { rev: 'HEAD' }), 1000);
  await cache.localize(ask('a', { rev: 'HEAD' }), 1000);
  assert.equal(inner.calls, 2);
  inner.millis = 120; // the first answer of an index: it tells the opening
  await cache.localize(ask('b'), 1000);
  inner.millis = 0;
  await cache.localize(ask('b'), 1000);
  await cache.localize(ask('b'), 1000);
  assert.equal(inner.calls, 4);
  let release = () => {};
  inner.gate = new Promise<void>((r) => { release = r; });
  const slow = cache.localize(ask('c'), 1000);
  inner.moved = 'new';
  assert.equal(await cache.refreshDefault('demo'), 'new');
  release();
  inner.gate = undefined;
  await slow;
  await cache.localize(ask('c'), 1000);
  assert.equal(inner.calls, 6);
});

test('a default that moved drops its repository\'s answers; a refresh that did not move keeps them', async () => {
  const inner = new CountingBackend();
  const cache = new AnswerCache(inner, 1 << 20);
  await cache.localize(ask('a'), 1000);
  await cache.localize(ask('a', { repository: 'other' }), 1000);
  assert.equal(await cache.refreshDefault('demo'), undefined);
  await cache.localize(ask('a'), 1000);
  assert.equal(inner.calls, 2);
  inner.moved = 'new';
  await cache.refreshDefault('demo');
  await cache.localize(ask('a'), 1000);
  await cache.localize(ask('a', { repository: 'other' }), 1000);
  assert.equal(inner.calls, 3);
});

test('the byte budget: the least recently used answer goes first; 0 is no cache', async () => {
  const inner = new CountingBackend();
  const answerBytes = 2 * (await inner.localize(ask('x'))).length + 200;
  inner.calls = 0;
  const cache = new AnswerCache(inner, 4 * answerBytes + 10);
  for (const t of ['a', 'b', 'c', 'd']) await cache.localize(ask(t), 1000);
  await cache.localize(ask('a'), 1000); // a is now the most recent
  await cache.localize(ask('e'), 1000); // b goes
  assert.equal(inner.calls, 5);
  await cache.localize(ask('a'), 1000);
  await cache.localize(ask('c'), 1000);
  assert.equal(inner.calls, 5);
  await cache.localize(ask('b'), 1000);
  assert.equal(inner.calls, 6);
  const config = (answerCacheBytes: number): ServiceConfig => ({ repositories: new Map(), models: new Map(), limits: { ...DEFAULT_LIMITS, answerCacheBytes }, source: 'test' });
  assert.ok(!(withAnswerCache(inner, config(0)) instanceof AnswerCache));
  assert.ok(withAnswerCache(inner, config(1000)) instanceof AnswerCache);
});

test('a repository whose folder is gone: its answers go to the backend (which tells it gone)', async () => {
  const inner = new CountingBackend();
  let there = true;
  const cache = new AnswerCache(inner, 1 << 20, () => there);
  await cache.localize(ask('a'), 1000);
  await cache.localize(ask('a'), 1000);
  assert.equal(inner.calls, 1);
  there = false;
  await cache.localize(ask('a'), 1000);
  assert.equal(inner.calls, 2);
});

let root: string;
before(() => {
  root = tempDir('issueloc-answer-cache-');
  commitFiles(join(root, 'repo'), {
    'pkg/dates.py': 'def parse_date(text):\n    """Parse an ISO date."""\n    return text.split("-")\n\nclass Calendar:\n    def next_day(self, date):\n        return parse_date(date)\n',
    'pkg/json_io.py': 'def dump_json(value):\n    return str(value)\n',
  });
});
after(() => cleanup(root));

test('on a repository: a repeated answer is byte-identical to the first, which matches an answer without the cache but for queryMillis', async () => {
  const config: ServiceConfig = {
    repositories: new Map([['demo', { name: 'demo', path: join(root, 'repo'), rev: 'HEAD', defaults: { ...DEFAULT_RANK_SETTINGS } }]]),
    models: new Map(), cacheDir: join(root, 'cache'), limits: { ...DEFAULT_LIMITS }, source: 'test',
  };
  const bare = new InProcessBackend(new LocalizerPool(config));
  const cache = new AnswerCache(new InProcessBackend(new LocalizerPool(config)), 1 << 20);
  try {
    await bare.warmDefaults();
    await cache.warmDefaults();
    for (const request of [ask('parse_date fails on an empty string\nCalendar.next_day("") raises IndexError'), ask('dump_json of a date', { explain: true, top: 1 })]) {
      const first = await cache.localize(request, 120_000);
      assert.equal(await cache.localize(request, 120_000), first);
      const plain = await bare.localize(request, 120_000);
      const noTime = (json: string) => json.replace(/"queryMillis":[0-9.]+/, '"queryMillis":0');
      assert.equal(noTime(first), noTime(plain));
    }
    assert.equal((await cache.stats()).answerHits, 2);
    assert.match(await new ServiceMetrics(() => cache.stats()).registry.metrics(), /^issueloc_answer_cache_hits_total 2$/m);
  } finally {
    await bare.close();
    await cache.close();
  }
});
