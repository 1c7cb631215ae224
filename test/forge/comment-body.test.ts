// The comment's Markdown: ids shown as they are, links that survive odd paths, a hard size cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blobUrl, codeSpan, commentBody, COMMENT_MARKER, GITHUB_MAX_COMMENT_CHARS } from '../../src/forge/comment-body.js';
import { parseIssueEvent, skipReason } from '../../src/forge/github-event.js';

const at = { serverUrl: 'https://github.com/', owner: 'acme', repo: 'shop', commit: 'a'.repeat(40) };

test('code spans hold backticks and control characters as they are', () => {
  assert.equal(codeSpan('a.py:f'), '`a.py:f`');
  assert.equal(codeSpan('a`b'), '``a`b``');
  assert.equal(codeSpan('`x'), '`` `x ``');
  assert.equal(codeSpan('a\nb\u001b'), '`a\\x0ab\\x1b`');
});

test('links: path segments encoded, lines as #L10-L42 (one line: #L7)', () => {
  assert.equal(blobUrl(at, 'src/a b/c#d.py', { path: 'src/a b/c#d.py', start: 10, end: 42 }), `https://github.com/acme/shop/blob/${at.commit}/src/a%20b/c%23d.py#L10-L42`);
  assert.equal(blobUrl(at, 'x.py', { path: 'x.py', start: 7, end: 7 }), `https://github.com/acme/shop/blob/${at.commit}/x.py#L7`);
  assert.equal(blobUrl(at, 'x.py'), `https://github.com/acme/shop/blob/${at.commit}/x.py`);
});

test('a body of many long ids stays within GitHub\'s 65 536 characters, lowest ranks left out first', () => {
  const items = (k: string) => Array.from({ length: 100 }, (_, i) => ({ id: `${'d/'.repeat(2000)}${k}${i}.py`, score: 100 - i, matchedTerms: ['x'] }));
  const body = commentBody({ ...at, rankings: { file: items('f'), module: items('m'), function: items('g') }, lines: new Map(), stages: ['lexical'], optOutLabel: 'issueloc:skip' });
  assert.ok(body.length <= GITHUB_MAX_COMMENT_CHARS, String(body.length));
  assert.ok(body.startsWith(`${COMMENT_MARKER}\n`));
  assert.match(body, /1\. \[`(d\/)+f0\.py`\]/, 'the best file stays');
  assert.doesNotMatch(body, /f99\.py/, 'the worst goes');
  const left = Number(/\((\d+) more items left out/.exec(body)![1]);
  assert.equal(left + [...body.matchAll(/^\d+\. /gm)].length, 300);
  const small = commentBody({ ...at, rankings: { file: items('f') }, lines: new Map(), stages: ['lexical'], optOutLabel: '' }, 1000);
  assert.ok(small.length <= 1000, String(small.length));
});

test('events: bots, pull requests, other actions and the opt-out label are skipped', () => {
  const ev = (o: Record<string, unknown> = {}, issue: Record<string, unknown> = {}) =>
    parseIssueEvent({ action: 'opened', issue: { number: 9, title: 't', body: null, user: { login: 'bob', type: 'User' }, labels: [{ name: 'bug' }], ...issue }, ...o }, 'event');
  assert.equal(skipReason('issues', ev(), 'issueloc:skip'), undefined);
  assert.equal(skipReason(undefined, ev(), 'issueloc:skip'), undefined);
  assert.match(skipReason('issues', ev({}, { pull_request: { url: 'x' } }), '')!, /is a pull request/);
  assert.match(skipReason('issues', ev({ action: 'labeled' }), '')!, /issues action 'labeled'/);
  assert.match(skipReason('issues', ev({}, { user: { login: 'ci[bot]', type: 'User' } }), '')!, /bot ci\[bot\]/);
  assert.match(skipReason('issues', ev(), 'bug')!, /label 'bug'/);
  assert.equal(skipReason('issues', ev(), ''), undefined, 'no opt-out label');
  assert.equal(parseIssueEvent({ action: 'created', comment: {} }, 'event'), undefined);
  assert.match(skipReason('issues', undefined, '')!, /holds no issue/);
  assert.throws(() => parseIssueEvent({ issue: { number: 'x' } }, 'the event file e.json'), /^IssuelocError: the event file e\.json: issue\.number is not a positive whole number$/);
});
