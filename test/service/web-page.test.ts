// The web page of `issueloc serve` in a real headless browser (Debian's chromium, playwright-core):
// the real server on 127.0.0.1 with a repository built here (its remote on GitHub), the page
// picks it, an issue is pasted or dropped as a file, and the rankings, evidence, previews and
// forge links are read back from the DOM. Skipped, with the reason, where chromium is missing
// (never under CI: see ./browser.ts).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { cleanup, commitFiles, git, tempDir } from '../repo/git-fixture.js';
import { browserMissing, launchBrowser, startServe, type RunningServer } from './browser.js';

const missing = browserMissing();
const dir = tempDir('issueloc-web-');
const repo = join(dir, 'repo');
let commit = '';
let server: RunningServer | undefined;
let browser: Browser | undefined;

const PARSER = [
  '"""Header parsing."""', '', '',
  'def parse_header(line):',
  '    """Parse one header line into a name and a value."""',
  '    name, value = line.split(":", 1)',
  '    return name.strip(), value.strip()', '', '',
  'class HeaderParser:',
  '    def split_fields(self, text):',
  '        """Fields of a header block; <b id=codemarkup>bold</b> is no markup here."""',
  '        return [parse_header(line) for line in text.splitlines()]', '',
].join('\n');

before(async () => {
  if (missing) return;
  commitFiles(repo, {
    'pkg/parser.py': PARSER,
    'pkg/network.py': 'import socket\n\n\ndef open_socket(host, port):\n    return socket.create_connection((host, port))\n',
    'pkg/cache.py': 'class Cache:\n    def get(self, key):\n        return self.store.get(key)\n',
  });
  git(repo, 'remote', 'add', 'origin', 'https://github.com/example/demo.git');
  commit = git(repo, 'rev-parse', 'HEAD');
  server = await startServe(['--repo', `demo=${repo}`, '--cache-dir', join(dir, 'cache'), '--no-warm']);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  cleanup(dir);
});

/** The page with the repository picked; dialogs (an `alert`) are recorded. */
async function openPage(): Promise<{ page: Page; dialogs: string[] }> {
  const page = await browser!.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  await page.goto(server!.url + '/');
  await page.waitForSelector('#repo option[value="demo"]', { state: 'attached', timeout: 60_000 });
  await page.selectOption('#repo', 'demo');
  return { page, dialogs };
}

async function localize(page: Page): Promise<void> {
  await page.evaluate(() => { delete document.body.dataset.state; });
  await page.click('#submit');
  await page.waitForSelector('body[data-state]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('body', 'data-state'), 'done', `the page says: ${await page.textContent('#status')}`);
}

test('the page ranks a pasted issue: the right file first, matched terms marked in a function preview, links to the lines on GitHub', { skip: missing }, async () => {
  const { page } = await openPage();
  await page.fill('#issue', 'parse_header fails on folded header lines\n\nHeaderParser.split_fields raises ValueError for a continuation line.');
  await localize(page);

  const files = await page.$$eval('#files > li', (lis) => lis.map((li) => li.getAttribute('data-id')));
  assert.equal(files[0], 'pkg/parser.py');
  const fn = page.locator('#functions > li[data-id="pkg/parser.py:HeaderParser.split_fields"]');
  assert.equal(await fn.count(), 1);
  // matched terms and the evidence of a signal
  assert.ok((await fn.locator('.term').allTextContents()).includes('split_fields'));
  assert.match((await fn.locator('.evidence').first().textContent()) ?? '', /namedFunction: split_fields/);
  // the preview marks words holding matched terms, as text
  const marks = await fn.locator('pre.preview mark').allTextContents();
  assert.ok(marks.includes('split_fields') && marks.includes('parse_header'), `marked: ${marks.join(', ')}`);
  assert.match((await fn.locator('pre.preview').textContent()) ?? '', /^11\s+def split_fields/);
  // the forge links: a function's lines, a file
  assert.equal(await fn.locator('a.forge').getAttribute('href'), `https://github.com/example/demo/blob/${commit}/pkg/parser.py#L11-L13`);
  assert.equal(await page.locator('#files > li').first().locator('a.forge').getAttribute('href'), `https://github.com/example/demo/blob/${commit}/pkg/parser.py`);
  // explain: what the issue names
  assert.match((await page.textContent('#signal-list')) ?? '', /HeaderParser\.split_fields/);
  await page.close();
});

test('markup in an issue or in code is shown as text: no element made of it, no script run', { skip: missing }, async () => {
  const { page, dialogs } = await openPage();
  const evil = '<img src=x onerror=alert(1)>';
  await page.fill('#issue', `split_fields breaks ${evil}\n\nTraceback (most recent call last):\n  File "pkg/parser.py", line 13, in split_fields ${evil}\nValueError: ${evil}`);
  await localize(page);
  assert.equal(await page.locator('img').count(), 0, 'an <img> element was made from the issue');
  assert.ok(((await page.textContent('#signal-list')) ?? '').includes(evil), 'the stack frame is shown with its text');
  assert.equal(await page.locator('#codemarkup').count(), 0, 'an element was made from code');
  const code = await page.locator('#functions > li[data-id="pkg/parser.py:HeaderParser.split_fields"] pre.preview').textContent();
  assert.ok((code ?? '').includes('<b id=codemarkup>bold</b>'), 'the code is shown with its text');
  assert.deepEqual(dialogs, []);
  await page.close();
});

test('a dropped `gh issue view --json` file is read as the CLI reads it: title, then the body', { skip: missing }, async () => {
  const { page } = await openPage();
  const gh = JSON.stringify({ title: 'open_socket ignores the port', body: 'Calling `open_socket` with a port uses the default one.', number: 7 });
  await page.setInputFiles('#file', { name: 'issue.json', mimeType: 'application/json', buffer: Buffer.from(gh) });
  await page.waitForFunction(() => (document.getElementById('issue') as HTMLTextAreaElement).value !== '');
  assert.equal(await page.inputValue('#issue'), 'open_socket ignores the port\n\nCalling open_socket with a port uses the default one.');
  assert.match((await page.textContent('#status')) ?? '', /read as a GitHub issue/);
  await localize(page);
  assert.equal(await page.locator('#files > li').first().getAttribute('data-id'), 'pkg/network.py');
  await page.close();
});

test('an error hides the previous answer: no rankings under the red message; no request of the page fails (a favicon)', { skip: missing }, async () => {
  const page = await browser!.newPage();
  const failed: string[] = [];
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
  await page.goto(server!.url + '/');
  await page.waitForSelector('#repo option[value="demo"]', { state: 'attached', timeout: 60_000 });
  await page.selectOption('#repo', 'demo');
  await page.fill('#issue', 'parse_header fails on folded header lines');
  await localize(page);
  assert.ok(await page.locator('#files > li').count() > 0);
  assert.deepEqual(failed, [], 'every request of the page succeeded');
  await page.fill('#rev', 'no-such-branch');
  await page.evaluate(() => { delete document.body.dataset.state; });
  await page.click('#submit');
  await page.waitForSelector('body[data-state]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('body', 'data-state'), 'error');
  assert.match((await page.textContent('#status')) ?? '', /no-such-branch/);
  assert.equal(await page.locator('#results').isHidden(), true, 'the previous rankings are hidden');
  assert.equal(await page.locator('#files > li').count(), 0, 'and emptied');
  assert.equal(await page.locator('#signals').isHidden(), true);
  await page.close();
});

test('an issue no word of which occurs: a message under each heading and in the status line, no empty lists alone', { skip: missing }, async () => {
  const { page } = await openPage();
  await page.fill('#issue', 'zyxxyqq wvvkkq');
  await localize(page);
  for (const level of ['file', 'module', 'function']) {
    assert.equal(await page.locator(`#${level}s > li`).count(), 0);
    assert.equal(await page.textContent(`#${level}s-none`), `no ${level} matched`);
    assert.equal(await page.locator(`#${level}s-none`).isVisible(), true);
  }
  assert.match((await page.textContent('#status')) ?? '', /^nothing matched: no word of the issue occurs in demo/);
  await page.fill('#issue', 'parse_header fails on folded header lines');
  await localize(page);
  assert.equal(await page.locator('#files-none').isHidden(), true, 'the message goes with the next answer');
  await page.close();
});

test('the status line says "index built" only for the query that built it; the model\'s scores are explained', { skip: missing }, async () => {
  const { page } = await openPage();
  await page.fill('#issue', 'open_socket ignores the port');
  await localize(page);
  await localize(page);
  assert.doesNotMatch((await page.textContent('#status')) ?? '', /index built/, 'a later query found the index loaded');
  assert.equal(await page.locator('#score-note').isVisible(), true, 'the default (model) ranking says what its scores mean');
  assert.match((await page.textContent('#score-note')) ?? '', /only their order means something/);
  await page.close();
});

test('a query is in the URL: opening that URL fills the form and ranks the issue again', { skip: missing }, async () => {
  const { page } = await openPage();
  await page.selectOption('#level', 'file');
  await page.fill('#top', '2');
  await page.fill('#issue', 'open_socket ignores the port\n\nsee pkg/network.py & 100% "quotes"');
  await localize(page);
  const url = page.url();
  assert.match(url, /#repo=demo&level=file&top=2&issue=/);
  const again = await browser!.newPage();
  await again.goto(url);
  await again.waitForSelector('body[data-state]', { timeout: 60_000 });
  assert.equal(await again.getAttribute('body', 'data-state'), 'done', `the page says: ${await again.textContent('#status')}`);
  assert.equal(await again.inputValue('#issue'), 'open_socket ignores the port\n\nsee pkg/network.py & 100% "quotes"');
  assert.equal(await again.inputValue('#level'), 'file');
  assert.equal(await again.locator('#files > li').first().getAttribute('data-id'), 'pkg/network.py');
  assert.equal(await again.locator('#files > li').count(), 2);
  await again.close();
  await page.close();
});

test('a URL naming a repository this server does not serve says so and ranks nothing (not another repository)', { skip: missing }, async () => {
  const page = await browser!.newPage();
  await page.goto(`${server!.url}/#repo=elsewhere&issue=${encodeURIComponent('open_socket ignores the port')}`);
  await page.waitForSelector('body[data-state]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('body', 'data-state'), 'error');
  assert.match((await page.textContent('#status')) ?? '', /repository 'elsewhere' is not served here \(served: demo\)/);
  assert.equal(await page.locator('#results').isHidden(), true, 'nothing ranked');
  assert.match(page.url(), /#repo=elsewhere&/, 'the link is left as it was');
  await page.close();
});

test('a URL with a field the page does not know says which and ranks nothing (not the first repository)', { skip: missing }, async () => {
  const page = await browser!.newPage();
  await page.goto(`${server!.url}/#repository=demo&issue=${encodeURIComponent('open_socket ignores the port')}`);
  await page.waitForSelector('body[data-state]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('body', 'data-state'), 'error');
  assert.match((await page.textContent('#status')) ?? '', /the link's field 'repository' is not known \(known: repo, rev, level, top, issue\)/);
  assert.equal(await page.locator('#results').isHidden(), true, 'nothing ranked');
  await page.close();
});

test('an issue in another script is no empty issue: the service answers it', { skip: missing }, async () => {
  const { page } = await openPage();
  await page.fill('#issue', '日志轮转失败');
  await page.evaluate(() => { delete document.body.dataset.state; });
  await page.click('#submit');
  await page.waitForSelector('body[data-state]', { timeout: 60_000 });
  assert.doesNotMatch((await page.textContent('#status')) ?? '', /paste an issue/);
  assert.match((await page.textContent('#status')) ?? '', /no searchable word/);
  await page.close();
});
