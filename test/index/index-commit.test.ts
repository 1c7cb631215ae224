import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

/** Every temporary folder of this file (repositories, caches) lives here, removed at the end. */
const scratch = tempDir('issueloc-index-commit-');
after(() => cleanup(scratch));

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function makeRepo() {
  const dir = mkdtempSync(join(scratch, 'idx-'));
  const git = (...a: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { encoding: 'utf8' }).trim();
  git('init', '-q');
  writeFileSync(join(dir, 'a.py'), 'class Parser:\n    def parse(self, text):\n        return text.split()\n\ndef helper():\n    pass\n');
  writeFileSync(join(dir, 'b.js'), 'function renderTable(rows) { return rows.join("\\n"); }\n');
  writeFileSync(join(dir, 'README.md'), '# docs are not code\n');
  writeFileSync(join(dir, 'blob.c'), Buffer.from([0x69, 0x6e, 0x74, 0x00, 0x01, 0x02]));
  writeFileSync(join(dir, 'big.py'), `x = 1\n${'# filler line\n'.repeat(2000)}`);
  writeFileSync(join(dir, 'latin.py'), Buffer.from('def caf\xe9_menu():\n    return "cr\xe8me"\n', 'latin1'));
  git('add', '.');
  git('commit', '-qm', 'one');
  const first = git('rev-parse', 'HEAD');
  writeFileSync(join(dir, 'b.js'), 'function renderTable(rows) { return rows.join(", "); }\nfunction renderRow(r) { return r; }\n');
  git('commit', '-qam', 'two');
  const second = git('rev-parse', 'HEAD');
  return { dir, first, second };
}

test('indexes functions of source files, skipping docs, binary and oversized files with counts', async () => {
  const { dir, first } = makeRepo();
  const repo = await GitRepo.open(dir);
  const cacheDir = mkdtempSync(join(scratch, 'cache-'));
  const { codeIndex, built } = await indexCommit(repo, first, { cacheDir, settings: { maxFileBytes: 10_000 } });
  await repo.close();
  assert.equal(built, true);
  const ids = codeIndex.units.map((u) => (u.qualifiedName ? `${u.path}:${u.qualifiedName}` : u.path));
  assert.deepEqual(ids.sort(), ['a.py:Parser.parse', 'a.py:helper', 'b.js:renderTable', 'latin.py:café_menu'].sort());
  assert.equal(codeIndex.stats.skipped.binary, 1);
  assert.equal(codeIndex.stats.skipped.tooLarge, 1);
  assert.equal(codeIndex.stats.skipped.nonSource, 1);
});

test('a nearby commit parses only the changed blobs; a second open loads the saved index', async () => {
  const { dir, first, second } = makeRepo();
  const repo = await GitRepo.open(dir);
  const cacheDir = mkdtempSync(join(scratch, 'cache-'));
  const one = await indexCommit(repo, first, { cacheDir });
  assert.equal(one.codeIndex.stats.parsedBlobs, 5, 'a.py b.js big.py latin.py blob.c');
  const two = await indexCommit(repo, second, { cacheDir });
  assert.equal(two.codeIndex.stats.parsedBlobs, 1, 'only b.js changed');
  assert.ok(two.codeIndex.units.some((u) => u.qualifiedName === 'renderRow'));
  const again = await indexCommit(repo, second, { cacheDir });
  await repo.close();
  assert.equal(again.built, false);
  assert.equal(again.codeIndex.units.length, two.codeIndex.units.length);
  const leftovers = readdirSync(join(cacheDir, 'index')).filter((f) => f.includes('.tmp-'));
  assert.deepEqual(leftovers, []);
});

test('two processes indexing the same commit at once: one builds, the other waits and loads', async () => {
  const { dir } = makeRepo();
  const cacheDir = mkdtempSync(join(scratch, 'cache-'));
  const bin = join(root, 'dist/src/cli/bin.js');
  const runOne = () => new Promise<{ code: number | null; out: string }>((res) => {
    const p = spawn(process.execPath, [...BASELINE_WASM_ARGS, bin, 'index', '--repo', dir, '--cache-dir', cacheDir, '--json', '--no-progress']);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', (code) => res({ code, out }));
  });
  const [a, b] = await Promise.all([runOne(), runOne()]);
  assert.equal(a.code, 0);
  assert.equal(b.code, 0);
  const builds = [JSON.parse(a.out).built, JSON.parse(b.out).built];
  assert.equal(builds.filter(Boolean).length, 1, `exactly one build: ${builds}`);
});

test('files: all: the progress counts the files that are not source code too, and the blobs read for them are parsed blobs', async () => {
  const { dir, first } = makeRepo();
  writeFileSync(join(dir, 'CHANGELOG.md'), '# changes\n');
  writeFileSync(join(dir, 'setup.cfg'), '[metadata]\nname = x\n');
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.']);
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'three']);
  const head = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  assert.notEqual(head, first);
  const repo = await GitRepo.open(dir);
  try {
    const seen: [number, number][] = [];
    const { codeIndex } = await indexCommit(repo, head, { cacheDir: join(dir, '.cache'), settings: { files: 'all' }, onProgress: (d, t) => seen.push([d, t]) });
    const nonSource = codeIndex.nonSource!.paths;
    assert.deepEqual(nonSource.sort(), ['CHANGELOG.md', 'README.md', 'setup.cfg']);
    const total = codeIndex.stats.files + codeIndex.stats.skipped.binary + nonSource.length;
    assert.deepEqual(seen.at(-1), [total, total], JSON.stringify(seen));
    assert.ok(seen.every(([d, t]) => t === total && d <= t), JSON.stringify(seen));
    assert.equal(codeIndex.stats.parsedBlobs, total, 'every blob was read: source and not');
  } finally {
    await repo.close();
  }
});
