// Bad input on the command line: one line on stderr naming the input, no stack trace, exit ≠ 0,
// and no index written.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { runInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

/** Every temporary folder of this file (repositories, caches) lives here, removed at the end. */
const scratch = tempDir('issueloc-cli-errors-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');

// Refusals before any work also run in-process (runInProcess: the CLI's main in a worker thread):
// each behaviour keeps a run of the executable.
function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8', input });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function tinyRepo(): string {
  const dir = mkdtempSync(join(scratch, 'cli-'));
  const git = (...a: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...a]);
  git('init', '-q');
  writeFileSync(join(dir, 'parser.py'), 'def parse_header(line):\n    return line.split(":")\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  return dir;
}

const oneLine = (s: string) => s.trim().split('\n').length === 1 && !/\n\s+at /.test(s);

test('not a git repository', async () => {
  const dir = mkdtempSync(join(scratch, 'norepo-'));
  const r = run(['localize', '--repo', dir, '--issue', 'parse header']);
  assert.equal(r.code, 2);
  assert.ok(oneLine(r.err), r.err);
  assert.match(r.err, /not a git repository/);
  assert.ok(r.err.includes(dir));
  const missing = await runInProcess(['localize', '--repo', join(dir, 'gone'), '--issue', 'parse header']);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /gone \(no such folder\)/);
});

test('unknown revision is named', () => {
  const repo = tinyRepo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const r = run(['localize', '--repo', repo, '--rev', 'deadbeef42', '--issue', 'parse header', '--cache-dir', cache]);
  assert.equal(r.code, 2);
  assert.ok(oneLine(r.err), r.err);
  assert.match(r.err, /deadbeef42/);
  assert.deepEqual(readdirSync(cache).filter((f) => f !== 'index'), [], 'nothing cached for a failed run');
});

test('empty issue text', async () => {
  const repo = tinyRepo();
  const r = await runInProcess(['localize', '--repo', repo, '--issue', '  \n ']);
  assert.equal(r.code, 2);
  assert.match(r.err, /empty issue text \(from --issue\)/);
});

test('issue of stop words only: named, before any index is built', () => {
  const repo = tinyRepo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const r = run(['localize', '--repo', repo, '--issue', 'The is of and TO it, !', '--cache-dir', cache]);
  assert.equal(r.code, 2);
  assert.ok(oneLine(r.err), r.err);
  assert.match(r.err, /issue text \(from --issue\) has no searchable word/);
  assert.equal(r.out, '');
  assert.deepEqual(readdirSync(cache), [], 'nothing indexed');
});

test('an issue in another script is read as text (a letter in any script counts), as MCP reads it', async () => {
  const repo = tinyRepo();
  for (const text of ['日志轮转失败', 'Ошибка разбора заголовка']) {
    const r = await runInProcess(['localize', '--repo', repo, '--issue', text]);
    assert.equal(r.code, 2, r.err);
    assert.ok(oneLine(r.err), r.err);
    assert.doesNotMatch(r.err, /empty issue text/);
    assert.match(r.err, /issue text \(from --issue\) has no searchable word: .*letters outside A-Z/);
  }
});

test('no word of the issue in the code: a message and exit 1, no empty tables', () => {
  const repo = tinyRepo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const r = run(['localize', '--repo', repo, '--issue', 'zebra giraffe', '--cache-dir', cache]);
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, /no word of the issue occurs in the indexed code/);
});

test('missing issue file is named', async () => {
  const repo = tinyRepo();
  const r = await runInProcess(['localize', '--repo', repo, '--issue-file', '/nonexistent/issue.md']);
  assert.equal(r.code, 2);
  assert.match(r.err, /\/nonexistent\/issue\.md: no such file/);
  assert.ok(oneLine(r.err), r.err);
});

test('a missing file is worded alike across the file inputs (--issue-file, --model, a config)', async () => {
  const repo = tinyRepo();
  const model = await runInProcess(['localize', '--repo', repo, '--issue', 'parse date', '--model', '/nonexistent/nosuch.json']);
  assert.equal(model.code, 2);
  assert.equal(model.err, 'issueloc: cannot read model /nonexistent/nosuch.json: no such file\n');
  const issue = await runInProcess(['localize', '--repo', repo, '--issue-file', '/nonexistent/issue.md']);
  assert.equal(issue.err, 'issueloc: cannot read issue file /nonexistent/issue.md: no such file\n');
});

test('issue from stdin; bad --top is refused', async () => {
  const repo = tinyRepo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const ok = run(['localize', '--repo', repo, '--json', '--cache-dir', cache], 'parse_header splits the wrong way');
  assert.equal(ok.code, 0, ok.err);
  assert.equal(JSON.parse(ok.out).functions[0].id, 'parser.py:parse_header');
  const bad = await runInProcess(['localize', '--repo', repo, '--top', 'ten', '--issue', 'x y', '--cache-dir', cache]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--top/);
});

test('no match exits 1 with a message', () => {
  const repo = tinyRepo();
  const cache = mkdtempSync(join(scratch, 'cache-'));
  const r = run(['localize', '--repo', repo, '--issue', 'zebra quokka', '--cache-dir', cache]);
  assert.equal(r.code, 1);
  assert.match(r.err, /no word of the issue occurs/);
  assert.ok(existsSync(cache));
});

test('a cache folder that cannot be made, an unknown language, and two issue sources are named', async () => {
  const repo = tinyRepo();
  const file = join(mkdtempSync(join(scratch, 'file-')), 'plain');
  writeFileSync(file, 'not a folder');
  const underFile = await runInProcess(['localize', '--repo', repo, '--issue', 'parse header', '--cache-dir', join(file, 'sub')]);
  assert.equal(underFile.code, 2);
  assert.ok(oneLine(underFile.err), underFile.err);
  assert.match(underFile.err, /--cache-dir .*plain.* is not a folder/);
  const proc = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, 'localize', '--repo', repo, '--issue', 'parse header', '--cache-dir', '/proc/issueloc-x/y'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(proc.status, 2, `a folder under /proc: ${proc.stderr} (signal ${proc.signal})`);
  assert.match(proc.stderr, /--cache-dir \/proc\/issueloc-x\/y: cannot create it/);
  const relative = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, 'localize', '--repo', repo, '--issue', 'parse header', '--cache-dir', 'rel/cache', '--json'], { encoding: 'utf8', cwd: mkdtempSync(join(scratch, 'cwd-')) });
  assert.equal(relative.status, 0, relative.stderr);
  const language = await runInProcess(['localize', '--repo', repo, '--issue', 'parse header', '--languages', 'python,pyton']);
  assert.equal(language.code, 2);
  assert.match(language.err, /--languages: unknown language pyton \(known: .*python/);
  assert.match((await runInProcess(['localize', '--repo', repo, '--issue', 'parse header', '--languages', ','])).err, /--languages: no language given/);
  const both = await runInProcess(['localize', '--repo', repo, '--issue', 'parse header', '--issue-file', file]);
  assert.equal(both.code, 2);
  assert.match(both.err, /not both/);
});
