// /web/preview bounded (issue 31 F3): paths looked up and bytes read per request are capped;
// the work runs on a thread of its own, ended at its deadline (504).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GitRepo } from '../../src/repo/git.js';
import { ServiceError } from '../../src/service/errors.js';
import { MAX_PREVIEW_BYTES, MAX_PREVIEW_LOOKUPS, previewItems } from '../../src/service/web/preview.js';
import { previewOffThread } from '../../src/service/web/preview-thread.js';

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

test('a preview past its deadline is a 504 at the deadline (its thread ended)', async () => {
  const t0 = performance.now();
  await assert.rejects(previewOffThread({ repositoryPath: '/nonexistent-issueloc-repo', commit: 'f'.repeat(40), items: [] }, 1),
    (e) => e instanceof ServiceError && e.status === 504);
  assert.ok(performance.now() - t0 < 10_000);
});
