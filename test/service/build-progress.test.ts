// How far an index build is, as callers waiting for it are told: the pace since the step's first
// report gives the time left; a finished count is "writing the index", retried after the fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeBuild, nextReports, remainingMs, retrySeconds, type BuildProgress } from '../../src/service/build-progress.js';

const base: BuildProgress = { repository: 'r', commit: 'c', model: 'default', queued: false, elapsedMs: 40_000 };

test('the time left follows the pace since the first report of the step, cached files excluded', () => {
  let r = nextReports(undefined, 'index', 300, 1000, 0); // 300 files from the cache at once
  assert.equal(remainingMs(r, 500), undefined, 'no pace before a second of work');
  r = nextReports(r, 'index', 500, 1000, 10_000); // 200 files in 10 s
  assert.equal(remainingMs(r, 10_000), 25_000, '500 left at 20 a second');
  r = nextReports(r, 'history', 10, 100, 11_000);
  assert.equal(r.first.done, 10, 'a new step starts its own pace');
  assert.equal(remainingMs(r, 11_000), undefined);
});

test('the description and the retry time of a build', () => {
  assert.equal(describeBuild({ ...base, queued: true }), 'queued behind another build for 40 s');
  assert.equal(describeBuild(base), 'started 40 s ago');
  const counting = { ...base, step: 'index' as const, done: 430, total: 1000, remainingMs: 52_400 };
  assert.equal(describeBuild(counting), '430 of 1000 files (43 %) after 40 s, about 52 s left');
  assert.equal(retrySeconds(counting, 30), 53);
  const written = { ...counting, done: 1000, remainingMs: 0 };
  assert.equal(describeBuild(written), '1000 of 1000 files (100 %) after 40 s, writing the index');
  assert.equal(retrySeconds(written, 30), 30, 'writing takes an unknown time: the fallback');
  assert.equal(describeBuild({ ...counting, step: 'history', done: 200, total: 800 }), 'history: 200 of 800 commits (25 %) after 40 s, about 52 s left');
  assert.equal(retrySeconds({ ...counting, remainingMs: 3_600_000 }, 30), 600, 'at most 10 minutes');
  assert.equal(retrySeconds(undefined, 7), 7);
});
