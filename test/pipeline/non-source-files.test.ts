// Files that are not source code (CHANGELOG.md, Cargo.toml, docs) as whole-file documents of
// `index.files: 'all'` (issue 18, part 3): with the option a CHANGELOG.md that the repository's
// fixes keep changing joins the file ranking at its place; by default it never ranks, and the
// default's cache key is the one it had before the option existed. A tiny repository built here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { runInProcess } from '../cli/in-process.js';
import { openLocalizer, IssuelocError, type LocalizerOptions } from '../../src/index.js';
import { DEFAULT_INDEX_SETTINGS, settingsKey } from '../../src/index/code-index.js';
import { GitRepo } from '../../src/repo/git.js';
import { readCoChange } from '../../src/history/co-change.js';
import { placeNonSource } from '../../src/retrieve/non-source.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

let root: string, work: string;
const ISSUE = 'Parser panics on an empty header line\nparse_header panics when the header is empty; the changelog should say so';

before(() => {
  root = tempDir('issueloc-non-source-');
  work = join(root, 'repo');
  commitFiles(work, {
    'src/header.rs': 'pub fn parse_header(line: &str) -> Option<&str> {\n    line.split(\':\').next()\n}\n',
    'src/body.rs': 'pub fn parse_body(text: &str) -> usize {\n    text.len()\n}\n',
    'src/net.rs': 'pub fn connect(host: &str) -> bool {\n    !host.is_empty()\n}\n',
    'Cargo.toml': '[package]\nname = "parser"\nversion = "0.1.0"\n',
    'CHANGELOG.md': '# Changelog\n\n## 0.1.0\n- first parser release\n',
    'docs/usage.md': 'How to parse a header line and an empty body with the parser.\n',
  }, 'init');
  // ten fixes, every other one with a changelog entry: its co-change rate is 6 of 11 commits,
  // that of Cargo.toml and docs/usage.md 1 of 11 (below the least rate, 0.1)
  for (let i = 1; i <= 10; i++) {
    commitFiles(work, {
      'src/body.rs': `pub fn parse_body(text: &str) -> usize {\n    text.len() + ${i}\n}\n`,
      ...(i % 2 === 0 ? { 'CHANGELOG.md': `# Changelog\n\n## 0.1.${i}\n- body fix ${i}\n` } : {}),
    }, `fix ${i}`);
  }
});
after(() => cleanup(root));

const open = (extra: Partial<LocalizerOptions> = {}) => openLocalizer({ repo: work, cacheDir: join(root, 'cache'), ...extra });

test('files: all ranks a CHANGELOG.md kept with the fixes at place 3; the default ranks no non-source file', async () => {
  const plain = await open();
  const all = await open({ index: { files: 'all' } });
  try {
    const source = (await plain.localize(ISSUE)).files.map((f) => f.id);
    assert.equal(source[0], 'src/header.rs');
    assert.ok(source.length >= 2, source.join(' '));
    assert.ok(source.every((p) => p.startsWith('src/')), source.join(' '));
    const r = await all.localize(ISSUE);
    const files = r.files.map((f) => f.id);
    assert.deepEqual(files.slice(0, 3), [...source.slice(0, 2), 'CHANGELOG.md']);
    assert.deepEqual(files.filter((p) => p.startsWith('src/')), source, 'the source files keep their order');
    assert.ok(!files.includes('Cargo.toml') && !files.includes('docs/usage.md'), 'never changed with the code: not placed');
    assert.deepEqual(r.files[2].signals, ['nonSource']);
    assert.match(r.files[2].evidence![0], /55% of recent commits/);
    assert.ok(r.files.every((f, i) => i === 0 || f.score <= r.files[i - 1].score), 'scores descend');
    assert.deepEqual(r.functions, (await plain.localize(ISSUE)).functions, 'functions are the same');
    // the placement is a setting: none placed with count 0
    const none = await open({ index: { files: 'all' }, ranking: { nonSource: { count: 0 } } });
    try {
      assert.deepEqual((await none.localize(ISSUE)).files.map((f) => f.id), source);
    } finally {
      await none.close();
    }
  } finally {
    await plain.close();
    await all.close();
  }
  // loaded from the cache, the index keeps its non-source documents
  const again = await open({ index: { files: 'all' } });
  try {
    const r = await again.localize(ISSUE);
    assert.equal(r.index.built, false);
    assert.equal(r.files[2].id, 'CHANGELOG.md');
  } finally {
    await again.close();
  }
});

test('the default cache key is unchanged by the option; files: all has its own; a bad value is refused', async () => {
  const { files: _files, ...before } = DEFAULT_INDEX_SETTINGS;
  assert.equal(settingsKey(DEFAULT_INDEX_SETTINGS), settingsKey(before as typeof DEFAULT_INDEX_SETTINGS));
  assert.notEqual(settingsKey({ ...DEFAULT_INDEX_SETTINGS, files: 'all' }), settingsKey(DEFAULT_INDEX_SETTINGS));
  await assert.rejects(open({ index: { files: 'docs' as never } }), (e: Error) => e instanceof IssuelocError && /^index\.files must be one of source, all, got 'docs'$/.test(e.message));
  await assert.rejects(open({ ranking: { nonSource: { minRate: 2 } } }), (e: Error) => e instanceof IssuelocError && /^ranking\.nonSource\.minRate /.test(e.message));
});

test('co-change rates count the commits that change source code, up to the base commit', async () => {
  const repo = await GitRepo.open(work);
  try {
    const head = await repo.resolveCommit('HEAD');
    const { rates, commits } = await readCoChange(repo, head);
    assert.equal(commits, 11);
    assert.equal(rates.get('CHANGELOG.md'), 6 / 11);
    assert.equal(rates.get('Cargo.toml'), 1 / 11);
    assert.equal(rates.has('src/body.rs'), false, 'source files have no rate');
    const first = await repo.resolveCommit('HEAD~10');
    assert.equal((await readCoChange(repo, first)).rates.get('CHANGELOG.md'), 1, 'nothing after the base commit');
  } finally {
    await repo.close();
  }
});

test('the CLI: --files all ranks the changelog, --files docs is refused (exit 2)', async () => {
  const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
  const run = (...extra: string[]) => spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, 'localize', '--repo', work, '--cache-dir', join(root, 'cache'), '--issue', ISSUE, '--level', 'file', '--json', '--no-progress', ...extra], { encoding: 'utf8' });
  const all = run('--files', 'all');
  assert.equal(all.status, 0, all.stderr);
  assert.equal(JSON.parse(all.stdout).files[2].id, 'CHANGELOG.md');
  // refused before any work: through the CLI's main in-process
  const bad = await runInProcess(['localize', '--repo', work, '--cache-dir', join(root, 'cache'), '--issue', ISSUE, '--level', 'file', '--json', '--no-progress', '--files', 'docs']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /^issueloc: option '--files <which>' argument 'docs' is invalid\. Allowed choices are source, all\.\n$/);
});

test('placeNonSource: from the given place, once each, cut to the limit', () => {
  const files = [{ id: 'a.rs', score: 3 }, { id: 'b.rs', score: 2 }, { id: 'c.rs', score: 1 }];
  const ns = [{ id: 'CHANGELOG.md', score: 9 }, { id: 'a.rs', score: 9 }];
  assert.deepEqual(placeNonSource(files, ns, 2, 3).map((f) => `${f.id}:${f.score}`), ['a.rs:3', 'CHANGELOG.md:2', 'b.rs:2']);
  assert.deepEqual(placeNonSource(files, ns, 9, 10).map((f) => f.id), ['a.rs', 'b.rs', 'c.rs', 'CHANGELOG.md']);
  assert.deepEqual(placeNonSource([], ns, 2, 10).map((f) => f.id), ['CHANGELOG.md', 'a.rs']);
});
