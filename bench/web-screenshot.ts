/**
 * The README's screenshot of the web page (docs/web-page.png): `issueloc serve` on a repository
 * mirror, a SWE-bench Lite issue pasted at its base commit, the page in Debian's headless
 * chromium (test/service/browser.ts). The mirror is cloned bare with shared objects into a
 * temporary folder whose origin is set to the project's GitHub URL, so the forge links show.
 *
 *   npm run build && node dist/bench/web-screenshot.js [--repo GITDIR] [--instance ID] [--remote URL] [--out PNG]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from './lib/args.js';
import { browserMissing, launchBrowser, startServe } from '../test/service/browser.js';
import { dataFile, mirrorRepo } from './lib/data.js';

const { values: o } = benchArgs({ options: {
  repo: { type: 'string', default: mirrorRepo('psf+requests') },
  instance: { type: 'string', default: 'psf__requests-1963' },
  remote: { type: 'string', default: 'https://github.com/psf/requests.git' },
  out: { type: 'string', default: 'docs/web-page.png' },
} });

const missing = browserMissing();
if (missing) throw new Error(missing);
const row = readFileSync(dataFile('swebench-lite/swebench_lite.jsonl'), 'utf8').split('\n').filter(Boolean)
  .map((l) => JSON.parse(l) as { instance_id: string; base_commit: string; problem_statement: string })
  .find((r) => r.instance_id === o.instance);
if (!row) throw new Error(`no SWE-bench Lite instance ${o.instance}`);

const tmp = mkdtempSync(join(tmpdir(), 'issueloc-shot-'));
try {
  const clone = join(tmp, 'requests.git');
  execFileSync('git', ['clone', '-q', '--bare', '--shared', o.repo, clone]);
  execFileSync('git', ['--git-dir', clone, 'remote', 'set-url', 'origin', o.remote]);
  const name = o.instance.replace(/-\d+$/, '').split('__')[1];
  const server = await startServe(['--repo', `${name}=${clone}`, '--cache-dir', join(tmp, 'cache'), '--no-warm']);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1 });
    await page.goto(server.url + '/');
    await page.waitForSelector(`#repo option[value="${name}"]`, { state: 'attached' });
    await page.fill('#rev', row.base_commit.slice(0, 12));
    await page.fill('#top', '5');
    await page.fill('#issue', row.problem_statement);
    await page.click('#submit');
    await page.waitForSelector('body[data-state]', { timeout: 120_000 });
    await page.evaluate(() => { document.getElementById('issue')!.scrollTop = 0; });
    await page.screenshot({ path: o.out, fullPage: false });
    process.stdout.write(`${o.out}: ${statSync(o.out).size} bytes (${o.instance} at ${row.base_commit.slice(0, 12)}; ${await page.textContent('#status')})\n`);
  } finally {
    await browser.close();
    await server.stop();
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
