// Issue 12 item 15: sizes, and least-recently-used eviction that spares what is in use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheMaxBytes, evictToSize, listCacheEntries, parseSize, summariseCache, trimAfterBuild } from '../../src/index/cache-usage.js';
import { writeCheckedFile } from '../../src/util/checked-file.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

/** A cache file as issueloc writes it (payload and 28-byte trailer), `bytes` in all. */
const checked = (f: string, bytes: number) => {
  mkdirSync(join(f, '..'), { recursive: true });
  writeCheckedFile(f, 't.v1', [Buffer.alloc(bytes - 28)]);
};

test('sizes: 2G, 500M, 1.5GiB, 64k, bytes; anything else names the option', () => {
  assert.equal(parseSize('2G', 'x'), 2 * 1024 ** 3);
  assert.equal(parseSize('500M', 'x'), 500 * 1024 ** 2);
  assert.equal(parseSize('1.5GiB', 'x'), 1.5 * 1024 ** 3);
  assert.equal(parseSize('64kb', 'x'), 64 * 1024);
  assert.equal(parseSize('123456', 'x'), 123456);
  assert.throws(() => parseSize('-1G', '--max-size'), /^IssuelocError: --max-size takes a size such as 500M or 2G, got '-1G'$/);
  assert.throws(() => parseSize('2 gallons', '--max-size'), /--max-size takes a size/);
  const saved = process.env.ISSUELOC_CACHE_MAX_SIZE;
  try {
    delete process.env.ISSUELOC_CACHE_MAX_SIZE;
    assert.equal(cacheMaxBytes(), 2 * 1024 ** 3);
    process.env.ISSUELOC_CACHE_MAX_SIZE = '10M';
    assert.equal(cacheMaxBytes(), 10 * 1024 ** 2);
    assert.equal(cacheMaxBytes('1k'), 1024, 'the option wins');
    process.env.ISSUELOC_CACHE_MAX_SIZE = 'big';
    assert.throws(() => cacheMaxBytes(), /ISSUELOC_CACHE_MAX_SIZE takes a size/);
  } finally {
    if (saved === undefined) delete process.env.ISSUELOC_CACHE_MAX_SIZE;
    else process.env.ISSUELOC_CACHE_MAX_SIZE = saved;
  }
});

test('after a build: no walk while the running estimate stays under 90 % of the cap, a walk and eviction past it', () => {
  const dir = tempDir('issueloc-usage-');
  try {
    const blob = (name: string, bytes: number) => {
      checked(join(dir, 'blobs-k', 'aa', name), bytes);
      const t = new Date(Date.now() - 86_400_000);
      utimesSync(join(dir, 'blobs-k', 'aa', name), t, t);
    };
    blob('0001.json'.padStart(42, '0'), 100);
    trimAfterBuild(dir, 1000, 0, new Set()); // walks: no estimate yet
    blob('0002.json'.padStart(42, '0'), 800); // written behind the estimate's back
    trimAfterBuild(dir, 1000, 100, new Set()); // estimate 200: no walk
    assert.equal(listCacheEntries(dir).length, 2);
    trimAfterBuild(dir, 1000, 750, new Set()); // estimate 950 > 900: walks, 900 bytes fit
    assert.equal(listCacheEntries(dir).length, 2);
    trimAfterBuild(dir, 850, 0, new Set()); // 900 > 765: walks, evicts the oldest
    assert.equal(listCacheEntries(dir).length, 1);
  } finally {
    cleanup(dir);
  }
});

test('eviction: oldest entries first, an index with its file-level file as one entry, kept files spared', () => {
  const dir = tempDir('issueloc-usage-');
  try {
    const put = (rel: string, bytes: number, daysAgo: number) => {
      const f = join(dir, rel);
      if (rel.startsWith('other/')) {
        mkdirSync(join(f, '..'), { recursive: true });
        writeFileSync(f, Buffer.alloc(bytes));
      } else checked(f, bytes);
      const t = new Date(Date.now() - daysAgo * 86_400_000);
      utimesSync(f, t, t);
      return f;
    };
    const oldest = [put('index/c1c1c1c1.k.bin', 1000, 9), put('index/c1c1c1c1.k.files.bin', 500, 9)];
    put('index/c2c2c2c2.k.bin', 1000, 5);
    put('index/c2c2c2c2.k.files.bin', 500, 5);
    put('blobs-k/ab/cdef01python.json', 100, 7);
    put('llm/12/345678.json', 50, 1);
    put('history/0123456789abcdef.json', 40, 0);
    put('other/notes.bin', 5000, 20);
    const summary = Object.fromEntries(summariseCache(listCacheEntries(dir)).map((k) => [k.kind, [k.entries, k.bytes]]));
    assert.deepEqual(summary, { index: [2, 3000], blobs: [1, 100], vectors: [0, 0], llm: [1, 50], history: [1, 40], partial: [0, 0] });
    // 3190 bytes held: to 2000, the oldest index goes (1500), that is enough
    const kept = evictToSize(dir, 2000, new Set());
    assert.deepEqual(kept.removed.map((e) => e.files.sort()), [oldest.sort()]);
    assert.equal(kept.bytesLeft, 1690);
    // to 100 with c2 in use: blob, LLM answer and history go; c2 stays though still over the cap
    const spared = evictToSize(dir, 100, new Set([join(dir, 'index/c2c2c2c2.k.bin')]));
    assert.deepEqual(spared.removed.map((e) => e.kind), ['blobs', 'llm', 'history']);
    assert.equal(spared.bytesLeft, 1500, 'the index in use is never removed, even over the cap');
    assert.equal(listCacheEntries(join(dir, 'none')).length, 0);
  } finally {
    cleanup(dir);
  }
});

test('issue 31 F1: links in the cache folder are never followed; files issueloc did not write are never listed nor removed', () => {
  const dir = tempDir('issueloc-usage-');
  try {
    const cache = join(dir, 'c');
    const foreign = join(dir, 'foreign');
    const mine = [join(foreign, 'ab', '0123456789.json'), join(foreign, '0123abcd.k.bin')];
    for (const f of mine) checked(f, 100); // even files shaped as entries, outside the cache folder
    for (const kind of ['history', 'llm', 'vectors', 'index', 'blobs-k']) {
      mkdirSync(cache, { recursive: true });
      symlinkSync(foreign, join(cache, kind));
    }
    mkdirSync(join(cache, 'blobs-j', 'ab'), { recursive: true });
    symlinkSync(join(foreign, 'ab'), join(cache, 'blobs-j', 'cd')); // a link below a kind's folder
    const planted = [join(cache, 'blobs-j', 'ab', 'user.json'), join(cache, 'blobs-j', 'ab', 'feedbeef.json')];
    writeFileSync(planted[0], 'my own notes');
    writeFileSync(planted[1], Buffer.alloc(200)); // an entry's name, no trailer
    checked(join(cache, 'blobs-j', 'ab', 'cdef01python.json'), 60);
    const entries = listCacheEntries(cache);
    assert.deepEqual(entries.map((e) => e.files.map((f) => f.slice(cache.length + 1))), [['blobs-j/ab/cdef01python.json']]);
    assert.equal(evictToSize(cache, 0).removed.length, 1);
    for (const f of [...mine, ...planted]) assert.ok(existsSync(f), f);
  } finally {
    cleanup(dir);
  }
});

test('an index of every file (--files all) is one entry with its non-source and generated-file lists and its name table: listed and evicted together', () => {
  const dir = tempDir('issueloc-usage-');
  try {
    const t = new Date(Date.now() - 86_400_000);
    const files = ['c3c3c3c3.k.bin', 'c3c3c3c3.k.files.bin', 'c3c3c3c3.k.nonsource.bin', 'c3c3c3c3.k.generated.bin', 'c3c3c3c3.k.names.bin'].map((name) => {
      const f = join(dir, 'index', name);
      checked(f, 100);
      utimesSync(f, t, t);
      return f;
    });
    const entries = listCacheEntries(dir);
    assert.deepEqual(entries.map((e) => [e.kind, e.files.sort(), e.bytes]), [['index', [...files].sort(), 500]]);
    const { removed } = evictToSize(dir, 0, new Set());
    assert.equal(removed.length, 1);
    assert.ok(files.every((f) => !existsSync(f)), 'no part of the index is left behind');
  } finally {
    cleanup(dir);
  }
});
