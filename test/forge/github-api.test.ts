// GitHub calls wait a bounded time: a request that gets no answer is timed out and retried, a rate
// limit that resets too late fails at once, a dead server fails after the retries.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { openGitHub } from '../../src/forge/github-api.js';
import { FakeGitHub } from './fake-github.js';
import { loadBound } from '../util/load-bound.js';

const github = new FakeGitHub();
before(() => github.start());
after(() => github.stop());
const at = { owner: 'acme', repo: 'shop', issueNumber: 1 };

test('a request without an answer is timed out and retried', async () => {
  github.faults.push({ method: 'GET', status: 0, hang: true });
  const warnings: string[] = [];
  const client = await openGitHub({ token: github.token, baseUrl: github.url, timeoutMs: 300, retries: 1, backoffMs: 10, onWarning: (m) => warnings.push(m) });
  const t0 = performance.now();
  assert.equal(await client.findComment(at, '<!-- issueloc -->'), undefined);
  assert.ok(performance.now() - t0 < loadBound(2 * 300 + 10), 'two tries of 300 ms ended the hang');
  assert.deepEqual(warnings, ['GitHub API GET /repos/acme/shop/issues/1/comments: no answer within 300 ms; retry 1 of 1 in 10 ms']);
});

test('a secondary rate limit longer than the longest wait fails at once, naming the call', async () => {
  github.faults.push({ method: 'POST', status: 403, message: 'You have exceeded a secondary rate limit', headers: { 'retry-after': '3600' } });
  const client = await openGitHub({ token: github.token, baseUrl: github.url, backoffMs: 10 });
  const t0 = performance.now();
  await assert.rejects(client.createComment(at, 'x'), {
    name: 'IssuelocError',
    message: 'GitHub API POST /repos/acme/shop/issues/1/comments failed: 403 You have exceeded a secondary rate limit (retry in 3600 s is longer than the 60 s allowed)',
  });
  assert.ok(performance.now() - t0 < loadBound(0), 'failed at once, did not wait (up to 60 s)');
});

test('a server that refuses connections fails after the retries, "no answer"', async () => {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  const client = await openGitHub({ token: 't', baseUrl: `http://127.0.0.1:${port}`, retries: 2, backoffMs: 10 });
  await assert.rejects(client.findComment(at, 'm'), /^IssuelocError: GitHub API GET \/repos\/acme\/shop\/issues\/1\/comments failed: no answer \(.+\) \(after 3 tries\)$/);
});
