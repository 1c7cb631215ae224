// `issueloc comment` against a fake GitHub REST API on 127.0.0.1: one comment per issue, found
// again (on any page) and edited; bots, the opt-out label and other events skipped; server errors
// and secondary rate limits retried; a bad token one line and exit 2. Of the skipped events and the
// bad inputs, the first runs the executable, the others the CLI's main in-process.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { FakeGitHub } from './fake-github.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const scratch = tempDir('issueloc-comment-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

const CART = 'import math\n\n\ndef total(items):\n    return sum(i.price for i in items)\n\n\n' +
  'class Discount:\n    def __init__(self, rate):\n        self.rate = rate\n\n    def apply(self, total):\n        return total * self.rate\n';
const REPORT = 'def price_report(items):\n    """Price of every item."""\n    return [i.price for i in items]\n';

const repo = join(scratch, 'repo');
const cache = join(scratch, 'cache');
let sha = '';
const github = new FakeGitHub();

before(async () => {
  sha = commitFiles(repo, { 'shop/cart.py': CART, 'shop/report.py': REPORT, 'README.md': 'a shop\n' });
  await github.start();
});
after(() => github.stop());

let n = 0;
/** An event file of `issues` `action` on issue #`number`. */
function eventFile(action: string, number: number, extra: { login?: string; type?: string; labels?: string[]; title?: string; body?: string } = {}): string {
  const file = join(scratch, `event-${++n}.json`);
  writeFileSync(file, JSON.stringify({
    action,
    issue: {
      number, title: extra.title ?? 'Discount applied twice to the total', body: extra.body ?? 'Discount.apply multiplies the total by the rate again',
      user: { login: extra.login ?? 'alice', type: extra.type ?? 'User' },
      labels: (extra.labels ?? []).map((name) => ({ name })),
    },
    repository: { full_name: 'acme/shop' },
  }));
  return file;
}

/** Runs `issueloc comment` with the Actions environment; its exit code and output. */
async function run(event: string, env: Record<string, string> = {}, args: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const child = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, 'comment', '--repo', repo, '--cache-dir', cache, ...args], {
    env: {
      PATH: process.env.PATH, HOME: scratch,
      GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'issues', GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_API_URL: github.url, GITHUB_SERVER_URL: 'https://ghe.example', GITHUB_TOKEN: github.token, ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  return { code, out, err };
}

/**
 * {@link run} through the CLI's main in the file's worker thread (runInProcess), with the same
 * environment (every other variable unset), for the cases that end before or without a comment.
 */
async function runIn(event: string, env: Record<string, string> = {}, args: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const only: Record<string, string | undefined> = Object.fromEntries(Object.keys(process.env).map((k) => [k, undefined]));
  Object.assign(only, {
    PATH: process.env.PATH, HOME: scratch,
    GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'issues', GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_API_URL: github.url, GITHUB_SERVER_URL: 'https://ghe.example', GITHUB_TOKEN: github.token, ...env,
  });
  return runInProcess(['comment', '--repo', repo, '--cache-dir', cache, ...args], only);
}

function reset(): void {
  github.requests.length = 0;
  github.faults.length = 0;
}

test('an opened issue gets one comment linking the top files and functions to their lines at the commit', async () => {
  reset();
  const r = await run(eventFile('opened', 1));
  assert.equal(r.code, 0, r.err);
  const writes = github.writes();
  assert.equal(writes.length, 1);
  assert.equal(writes[0].method, 'POST');
  assert.equal(writes[0].url, '/repos/acme/shop/issues/1/comments');
  const body = (writes[0].body as { body: string }).body;
  assert.ok(body.startsWith('<!-- issueloc -->\n'), body);
  assert.ok(body.includes(`(https://ghe.example/acme/shop/blob/${sha}/shop/cart.py)`), body);
  assert.ok(body.includes(`(https://ghe.example/acme/shop/blob/${sha}/shop/cart.py#L12-L13)`), `Discount.apply is lines 12-13:\n${body}`);
  assert.ok(body.includes(`(https://ghe.example/acme/shop/blob/${sha}/shop/cart.py#L8-L13)`), `the module Discount is lines 8-13:\n${body}`);
  assert.match(body, /\*\*Files\*\*\n\n1\. \[`shop\/cart\.py`\]/);
  assert.match(body, /\*\*Functions\*\*\n\n1\. \[`shop\/cart\.py:Discount\.apply`\]/);
  assert.ok(github.requests.every((q) => q.authorization === `token ${github.token}`));
  assert.match(r.out, /^issueloc: #1: posted the issueloc comment: https:\/\/github\.example\/acme\/shop\/issues\/1#issuecomment-\d+\n$/);
});

test('an edited issue updates the same comment, found on page 2, and an unchanged ranking writes nothing', async () => {
  reset();
  github.seed('acme/shop#2', [{ body: 'first' }, { body: 'me too' }, { body: 'any news?' }, { body: 'see <!-- issueloc --> later' }]);
  const [ours] = github.seed('acme/shop#2', [{ body: '<!-- issueloc -->\nold ranking', login: 'github-actions[bot]', type: 'Bot' }]).slice(-1);
  github.seed('acme/shop#2', [{ body: 'thanks' }]);
  const r = await run(eventFile('edited', 2));
  assert.equal(r.code, 0, r.err);
  const writes = github.writes();
  assert.deepEqual(writes.map((w) => `${w.method} ${w.url}`), [`PATCH /repos/acme/shop/issues/comments/${ours.id}`]);
  assert.ok(github.requests.some((q) => q.method === 'GET' && q.url.includes('page=2')), 'the second page was read');
  assert.equal(github.comments.get('acme/shop#2')!.length, 6, 'no second comment');
  assert.match(ours.body, /^<!-- issueloc -->\n\*\*issueloc\*\*/);
  reset();
  const again = await run(eventFile('edited', 2));
  assert.equal(again.code, 0, again.err);
  assert.equal(github.writes().length, 0);
  assert.match(again.out, /up to date/);
});

test('bot authors, the opt-out label, other events and other actions: a notice, nothing sent, exit 0', async () => {
  const cases: [string, Record<string, string>, string[], RegExp][] = [
    [eventFile('opened', 3, { login: 'dependabot[bot]' }), {}, [], /opened by the bot dependabot\[bot\]: skipped/],
    [eventFile('opened', 3, { login: 'renovate', type: 'Bot' }), {}, [], /opened by the bot renovate: skipped/],
    [eventFile('opened', 3, { labels: ['bug', 'issueloc:skip'] }), {}, [], /has the label 'issueloc:skip': skipped/],
    [eventFile('opened', 3, { labels: ['wontrank'] }), {}, ['--opt-out-label', 'wontrank'], /has the label 'wontrank'/],
    [eventFile('closed', 3), {}, [], /issues action 'closed' is neither opened nor edited: nothing to do/],
    [eventFile('opened', 3), { GITHUB_EVENT_NAME: 'issue_comment' }, [], /event 'issue_comment' is not an issues event/],
    [eventFile('opened', 3, { title: 'The', body: 'of and ?' }), {}, [], /^issueloc: #3 has no searchable word: no comment\n$/],
    [eventFile('opened', 3, { title: 'Zebra', body: 'quantum flux' }), {}, [], /^issueloc: nothing in the repository matched #3: no comment\n$/],
  ];
  for (const [i, [event, env, args, notice]] of cases.entries()) {
    reset();
    const r = await (i === 0 ? run : runIn)(event, env, args); // the first through the executable
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, notice);
    assert.equal(r.out.split('\n').length, 2, `one line: ${r.out}`);
    assert.equal(github.writes().length, 0, r.out);
  }
});

test('a server error and a secondary rate limit are retried, with a warning', async () => {
  reset();
  github.faults.push({ method: 'GET', status: 502, message: 'Bad Gateway' });
  github.faults.push({ method: 'POST', status: 403, message: 'You have exceeded a secondary rate limit', headers: { 'retry-after': '0' } });
  const r = await run(eventFile('opened', 4));
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(github.requests.map((q) => q.method), ['GET', 'GET', 'POST', 'POST']);
  assert.match(r.err, /^issueloc: warning: GitHub API GET \/repos\/acme\/shop\/issues\/4\/comments: 502 Bad Gateway; retry 1 of 3 in 1000 ms\n/);
  assert.match(r.err, /POST \/repos\/acme\/shop\/issues\/4\/comments: 403 You have exceeded a secondary rate limit; retry 1 of 3/);
  assert.equal(github.comments.get('acme/shop#4')!.length, 1);
});

test('a bad token: one line naming the call and the status, exit 2, before anything is indexed', async () => {
  reset();
  const r = await run(eventFile('opened', 5), { GITHUB_TOKEN: 'wrong' });
  assert.equal(r.code, 2);
  assert.equal(r.err, 'issueloc: GitHub API GET /repos/acme/shop/issues/5/comments failed: 401 Bad credentials\n');
  assert.equal(github.requests.length, 1, 'a 401 is not retried');
});

test('bad input: one line, exit 2', async () => {
  const notJson = join(scratch, 'not-json.json');
  writeFileSync(notJson, '{"action": ');
  const cases: [string, Record<string, string>, string[], RegExp][] = [
    [notJson, {}, [], /^issueloc: the event file .*not-json\.json is not JSON: /],
    [join(scratch, 'missing.json'), {}, [], /^issueloc: cannot read the event file .*missing\.json: no such file\n$/],
    [eventFile('opened', 6), { GITHUB_TOKEN: '' }, [], /^issueloc: no GitHub token: set GITHUB_TOKEN/],
    [eventFile('opened', 6), { GITHUB_REPOSITORY: 'no-slash' }, [], /^issueloc: repository 'no-slash' is not owner\/name\n$/],
    [eventFile('opened', 6), {}, ['--max-comment-chars', '10'], /^error: option '--max-comment-chars <n>' argument '10' is invalid|^issueloc: --max-comment-chars takes/],
    ['', {}, [], /^issueloc: no event: give --event FILE or set GITHUB_EVENT_PATH\n$/],
  ];
  for (const [i, [event, env, args, message]] of cases.entries()) {
    reset();
    const r = await (i === 0 ? run : runIn)(event, env, args); // the first through the executable
    assert.equal(r.code, 2, `${r.err} ${r.out}`);
    assert.match(r.err, message);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.equal(github.writes().length, 0);
  }
});

test('a repository of long names: the comment stays within --max-comment-chars and says what it left out', async () => {
  reset();
  const big = join(scratch, 'big');
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`pkg/${'deep_folder_name/'.repeat(8)}discount_${i}.py`] = `def apply_discount_${'x'.repeat(200)}_${i}(total, rate):\n    return total * rate\n`;
  commitFiles(big, files);
  const r = await run(eventFile('opened', 7, { body: 'apply discount total rate' }), {}, ['--repo', big, '--top', '30', '--max-comment-chars', '4000']);
  assert.equal(r.code, 0, r.err);
  const body = (github.writes()[0].body as { body: string }).body;
  assert.ok(body.length <= 4000, String(body.length));
  assert.match(body, /\(\d+ more items left out to keep this comment within its size limit\)/);
  assert.match(body, /<\/sub>\n$/, 'the footer is kept');
});
