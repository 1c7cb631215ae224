// /web/preview bounded: paths looked up and bytes read per request are capped;
// the work runs on a preview thread kept between requests, ended at its deadline (504) or when its caller leaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GitRepo } from '../../src/repo/git.js';
import { ServiceError } from '../../src/service/errors.js';
import { MAX_PREVIEW_BYTES, MAX_PREVIEW_LOOKUPS, previewItems } from '../../src/service/web/preview.js';
import { PreviewThreads } from '../../src/service/web/preview-thread.js';
import { join } from 'node:path';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { loadBound } from '../util/load-bound.js';

test('ids full of colons look up at most MAX_PREVIEW_LOOKUPS paths; files past the byte budget are not read', async () => {
  let lookups = 0;
  const missing = { readFileAt: async () => { lookups++; return undefined; } } as unknown as GitRepo;
  const items = Array.from({ length: 300 }, (_, i) => ({ id: `${i}${':a'.repeat(1000)}` }));
  assert.deepEqual(await previewItems(missing, 'f'.repeat(40), items), []);
  assert.ok(lookups <= MAX_PREVIEW_LOOKUPS, `${lookups} lookups`);

  let read = 0;
  const file = Buffer.from('def f():\n    return 1\n'.padEnd(1000_000, '#'));
  const big = { readFileAt: async () => { read += file.length; return { type: 'blob', data: file }; } } as unknown as GitRepo;
  const previews = await previewItems(big, 'f'.repeat(40), Array.from({ length: 20 }, (_, i) => ({ id: `f${i}.py` })));
  assert.equal(previews.length, Math.floor(MAX_PREVIEW_BYTES / file.length));
  assert.ok(read <= MAX_PREVIEW_BYTES + 20 * file.length);
});

test('a preview past its deadline is a 504 at the deadline (its thread ended, not kept)', async () => {
  const threads = new PreviewThreads();
  try {
    const t0 = performance.now();
    await assert.rejects(threads.run({ repositoryPath: '/nonexistent-issueloc-repo', commit: 'f'.repeat(40), items: [] }, 1),
      (e) => e instanceof ServiceError && e.status === 504);
    assert.ok(performance.now() - t0 < loadBound(1), 'the 1 ms deadline, not a hang');
    assert.deepEqual(threads.size, { idle: 0, busy: 0 });
  } finally {
    await threads.close();
  }
});

test('preview threads are kept between requests (one thread for requests one after the other, at most two idle), and answer each request alike', async () => {
  const dir = tempDir('issueloc-preview-threads-');
  const threads = new PreviewThreads();
  try {
    const work = join(dir, 'repo');
    const commit = commitFiles(work, { 'a.py': 'def parse():\n    return 1\n' });
    const job = { repositoryPath: work, commit, items: [{ id: 'a.py:parse', lines: true }] };
    const first = await threads.run(job, 60_000);
    assert.equal(first[0].path, 'a.py');
    assert.deepEqual(threads.size, { idle: 1, busy: 0 });
    assert.deepEqual(await threads.run(job, 60_000), first, 'the same answer from the kept thread');
    assert.deepEqual(threads.size, { idle: 1, busy: 0 }, 'no second thread');
    await Promise.all(Array.from({ length: 4 }, () => threads.run(job, 60_000)));
    assert.deepEqual(threads.size, { idle: 2, busy: 0 }, 'at most two kept');
    // a caller gone: its thread is ended, not kept
    const gone = new AbortController();
    const left = threads.run(job, 60_000, gone.signal);
    gone.abort();
    await assert.rejects(left, (e) => e instanceof ServiceError && e.status === 499);
    assert.equal(threads.size.busy, 0);
    // a failure answered by the thread (no such repository) keeps it usable
    await assert.rejects(threads.run({ ...job, repositoryPath: join(dir, 'none') }, 60_000), /not a git repository/);
    assert.deepEqual(await threads.run(job, 60_000), first);
  } finally {
    await threads.close();
    cleanup(dir);
  }
  await assert.rejects(threads.run({ repositoryPath: dir, commit: 'f'.repeat(40), items: [] }, 1000), (e) => e instanceof ServiceError && e.status === 503);
});
