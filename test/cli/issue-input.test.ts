// The issue `localize` reads: capped in size whatever the source (issue 12, item 14), and taken
// as JSON of a GitHub or Jira issue as well as plain text (item 11).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { readSingleIssue } from '../../src/issues/single-issue.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { runInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

/** Every temporary folder of this file (repositories, caches) lives here, removed at the end. */
const scratch = tempDir('issueloc-issue-input-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8', input, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal };
}

const repo = fixtureRepo([{
  id: 'A', message: 'init', files: {
    'src/parser.py': 'def parse_header(line):\n    return line.split(":")\n',
    'src/render.py': 'def render_page(template):\n    return template.format()\n',
    // matches the keys of the JSON, not the issue: found only when JSON is searched as text
    'src/decoy.py': 'def title_body_number_url_fields_summary_description_key(number, url, key):\n    return number\n',
  },
}]);
const cache = mkdtempSync(join(scratch, 'cache-'));
const base = ['localize', '--repo', repo.dir, '--cache-dir', cache, '--no-progress'];
const oneLine = (s: string) => s.trim().split('\n').length === 1;

test('--issue-file /dev/zero stops at the cap: exit 2 naming the file and the option', () => {
  // exit 2 (not the SIGTERM of run's 60 s timeout) is the bound: it stopped reading by itself
  const r = run([...base, '--issue-file', '/dev/zero']);
  assert.equal(r.code, 2, `${r.err} (signal ${r.signal})`);
  assert.equal(r.err, 'issueloc: issue file /dev/zero: over 1 MiB (--max-issue-bytes)\n');
});

// refusals before any work run in-process (runInProcess); the executable refuses a file (above) and stdin
test('the cap holds for a file, stdin and --issue, and --max-issue-bytes moves it', async () => {
  const dir = mkdtempSync(join(scratch, 'big-'));
  const big = join(dir, 'issue.txt');
  writeFileSync(big, `parse header ${'x'.repeat(2000)}`);
  const file = await runInProcess([...base, '--issue-file', big, '--max-issue-bytes', '1000']);
  assert.equal(file.code, 2);
  assert.equal(file.err, `issueloc: issue file ${big}: over 1000 bytes (--max-issue-bytes)\n`);
  assert.equal(run([...base, '--issue-file', big, '--max-issue-bytes', '4096', '--json']).code, 0);
  const stdin = run([...base, '--max-issue-bytes', '1024'], `parse header ${'y'.repeat(5000)}`);
  assert.equal(stdin.code, 2);
  assert.equal(stdin.err, 'issueloc: issue on stdin: over 1 KiB (--max-issue-bytes)\n');
  const arg = await runInProcess([...base, '--issue', `parse header ${'z'.repeat(100)}`, '--max-issue-bytes', '64']);
  assert.equal(arg.code, 2);
  assert.equal(arg.err, 'issueloc: --issue: over 64 bytes (--max-issue-bytes)\n');
  for (const bad of ['0', '-5', 'lots', '1e12']) {
    const r = await runInProcess([...base, '--issue', 'parse header', '--max-issue-bytes', bad]);
    assert.equal(r.code, 2, bad);
    assert.ok(oneLine(r.err) && r.err.includes('--max-issue-bytes'), r.err);
  }
});

test('an endless stdin stops at the cap', async () => {
  const child = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, ...base], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.on('error', () => undefined); // EPIPE once the CLI stops reading
  const chunk = Buffer.alloc(1 << 16, 'parse header ');
  let writing = true;
  const pump = () => {
    while (writing && child.stdin.write(chunk));
    if (writing) child.stdin.once('drain', pump);
  };
  pump();
  const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'close')) as [number | null];
  writing = false;
  clearTimeout(kill);
  assert.equal(code, 2, err);
  assert.equal(err, 'issueloc: issue on stdin: over 1 MiB (--max-issue-bytes)\n');
});

test('gh issue view --json title,body,number on stdin is read as an issue: title and body, not JSON text', () => {
  const gh = JSON.stringify({ number: 7, title: 'parse_header splits the wrong way', body: 'Calling `parse_header` on a line with **two** colons loses the value.', url: 'https://github.com/o/r/issues/7' });
  const r = run([...base, '--json'], gh);
  assert.equal(r.code, 0, r.err);
  const ids = (JSON.parse(r.out).functions as { id: string }[]).map((f) => f.id);
  assert.deepEqual(ids, ['src/parser.py:parse_header'], 'the JSON keys are not searched');
  // title on the first line, the Markdown body cleaned; --issue-format text keeps the JSON as it is
  const asText = readSingleIssue(gh, 'auto', 'stdin');
  assert.equal(asText.format, 'github');
  assert.equal(asText.text, 'parse_header splits the wrong way\n\nCalling parse_header on a line with two colons loses the value.');
  assert.equal(readSingleIssue(gh, 'text', 'stdin').text, gh);
});

test('a Jira REST issue (wiki markup, or API v3 document) in a file is read as an issue', () => {
  const dir = mkdtempSync(join(scratch, 'jira-'));
  const wiki = join(dir, 'PROJ-1.json');
  writeFileSync(wiki, JSON.stringify({ key: 'PROJ-1', fields: { summary: 'Page rendering fails', description: 'h2. Steps\n{code}render_page(template){code}\n*template* is empty', issuetype: { name: 'Bug' } } }, null, 2));
  const r = run([...base, '--issue-file', wiki, '--json']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual((JSON.parse(r.out).functions as { id: string }[]).map((f) => f.id), ['src/render.py:render_page'], 'the JSON keys are not searched');
  const issue = readSingleIssue(JSON.stringify({ key: 'PROJ-1', fields: { summary: 'Page rendering fails', description: 'h2. Steps\n*template* is empty' } }), 'auto', 'x');
  assert.deepEqual(issue, { text: 'Page rendering fails\n\nSteps\ntemplate is empty', format: 'jira' });
  const adf = { key: 'PROJ-2', fields: { summary: 'Render', description: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'render_page breaks' }] }] } } };
  assert.deepEqual(readSingleIssue(JSON.stringify(adf), 'jira', 'x'), { text: 'Render\n\nrender_page breaks', format: 'jira' });
});

test('--issue-format: text keeps JSON as text; github/jira refuse what is not such an issue; lists of several are refused', async () => {
  const jira = JSON.stringify({ key: 'PROJ-1', fields: { summary: 'render page' } });
  const asGithub = run([...base, '--issue', jira, '--issue-format', 'github']);
  assert.equal(asGithub.code, 2);
  assert.match(asGithub.err, /^issueloc: issue \(from --issue\) is not a GitHub issue/);
  const plain = await runInProcess([...base, '--issue', 'parse header', '--issue-format', 'jira']);
  assert.equal(plain.code, 2);
  assert.match(plain.err, /is not a Jira issue/);
  const two = await runInProcess([...base, '--issue', JSON.stringify([{ title: 'a', body: 'parse' }, { title: 'b', body: 'render' }])]);
  assert.equal(two.code, 2);
  assert.match(two.err, /is a JSON list of 2 issues: localize takes one/);
  assert.equal(run([...base, '--issue', JSON.stringify([{ title: 'parse header', body: '' }]), '--json']).code, 0, 'a list of one');
  const bogus = await runInProcess([...base, '--issue-format', 'yaml', '--issue', 'parse']);
  assert.equal(bogus.code, 2);
  // JSON that is no issue: searched as text, with a warning
  const other = run([...base, '--issue', '{"error": "parse header fails"}', '--json']);
  assert.equal(other.code, 0, other.err);
  assert.match(other.err, /issueloc: warning: issue \(from --issue\) is JSON but neither a GitHub issue .* searched as text/);
  // text that only starts like JSON is text
  assert.deepEqual(readSingleIssue('{code} parse header', 'auto', 'x'), { text: '{code} parse header', format: 'text' });
});

test.after(() => repo.remove());

/**
 * Waits 1 s, sends SIGTERM and asserts the run ends by it: a run stuck in a blocking read is
 * ended by SIGKILL after 60 s instead, and fails the signal check (no wall-clock bound needed).
 */
async function endsOnSigterm(waiting: ReturnType<typeof spawn>): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000));
  waiting.kill('SIGTERM');
  const timer = setTimeout(() => waiting.kill('SIGKILL'), 60_000);
  const [code, signal] = await once(waiting, 'exit') as [number | null, string | null];
  clearTimeout(timer);
  assert.ok(signal === 'SIGTERM' || code === 143, `exit ${code} signal ${signal}: ended by SIGTERM, not stuck in a blocking read`);
}

test('--issue-file of a FIFO: read when its writer comes; with no writer SIGTERM still ends the run at once', async () => {
  const dir = mkdtempSync(join(scratch, 'fifo-'));
  const fifo = join(dir, 'issue');
  spawnSync('mkfifo', [fifo]);
  const waiting = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, ...base, '--issue-file', fifo], { stdio: 'ignore' });
  await endsOnSigterm(waiting);
  const fed = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, ...base, '--issue-file', fifo, '--level', 'file', '--json']);
  let out = '';
  fed.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  writeFileSync(fifo, 'parse_header fails on a header without a colon');
  const [fedCode] = await once(fed, 'exit') as [number];
  assert.equal(fedCode, 0);
  assert.equal((JSON.parse(out) as { files: { id: string }[] }).files[0].id, 'src/parser.py');
});

test('dataset build --issues of a FIFO with no writer: SIGTERM ends the run at once (no signal handler loaded before a lock)', async () => {
  const dir = mkdtempSync(join(scratch, 'fifo-'));
  const fifo = join(dir, 'issues.jsonl');
  spawnSync('mkfifo', [fifo]);
  const waiting = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, 'dataset', 'build', '--repo', repo.dir, '--issues', fifo, '--key', 'X', '-o', join(dir, 'ds.jsonl'), '--no-progress'], { stdio: 'ignore' });
  await endsOnSigterm(waiting);
});
