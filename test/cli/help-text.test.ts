// Help texts say what the code does (what --token-env leaves open, one default per option); usage errors read as the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../batch/cli-process.js';
import { runInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');

test('serve --help names every route open without the token; comment --help gives --rev one default', async () => {
  const serve = await runCli(['serve', '--help']);
  assert.equal(serve.code, 0, serve.err);
  assert.match(serve.out.replace(/\s+/g, ' '), /--token-env <name> .*but \/healthz, \/openapi\.json and the web page's files \(\/, \/web\/app\.js, \/web\/style\.css\)/);
  // the second run of each test through the CLI's main in-process (runInProcess): the process is not under test
  const comment = await runInProcess(['comment', '--help']);
  assert.equal(comment.code, 0, comment.err);
  const rev = /--rev <rev>[^]*?(?=\n\s+-)/.exec(comment.out)?.[0] ?? '';
  assert.equal(rev.match(/\(default:/g)?.length, 1, rev);
  assert.match(rev.replace(/\s+/g, ' '), /\(default: HEAD, the checked-out commit\)/);
});

test('commander\'s usage errors read as every other error: issueloc: …, exit 2', async () => {
  const bad = await runCli(['localize', '--level', 'class', 'some issue']);
  assert.equal(bad.code, 2, bad.err);
  assert.match(bad.err, /^issueloc: option '--level <level>' argument 'class' is invalid\. Allowed choices are /);
  const unknown = await runInProcess(['localize', '--frobnicate']);
  assert.equal(unknown.code, 2, unknown.err);
  assert.match(unknown.err, /^issueloc: unknown option '--frobnicate'/);
});

test('an argument given to a command that takes none says where that input goes, in one line', async () => {
  const issue = await runInProcess(['localize', 'flag completion is broken']);
  assert.equal(issue.code, 2, issue.err);
  assert.equal(issue.err, "issueloc: too many arguments for 'localize'. Expected 0 arguments but got 1 " +
    '(the issue goes in --issue TEXT, --issue-file PATH or stdin, the repository in --repo PATH)\n');
  const repo = await runInProcess(['index', '/tmp']);
  assert.equal(repo.code, 2, repo.err);
  assert.match(repo.err, /^issueloc: too many arguments for 'index'\. .* \(the repository goes in --repo PATH, the commit in --rev REV\)\n$/);
  // a command without a known slip keeps commander's message as it is
  const show = await runInProcess(['cache', 'show', '.']);
  assert.equal(show.code, 2, show.err);
  assert.equal(show.err, "issueloc: too many arguments for 'show'. Expected 0 arguments but got 1.\n");
});

test('--model names what it takes, not only a file', async () => {
  for (const command of ['localize', 'comment']) {
    const help = await runInProcess([command, '--help']);
    assert.equal(help.code, 0, help.err);
    assert.match(help.out, /--model <model>/, command);
  }
});

test('run outside any repository without --repo, the refusal says to give one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-no-repo-'));
  try {
    // GIT_CEILING_DIRECTORIES: git does not look above the folder for a repository
    const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, 'localize', '--issue', 'parse header line', '--no-progress'],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(dir) }, timeout: 60_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr, 'issueloc: not a git repository: . (the current folder: run issueloc inside a repository or give --repo PATH)\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
