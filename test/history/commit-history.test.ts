// The stored history signals of a base commit (issue 28 part 2): the same figures as the history
// computes at that commit, bit for bit, kept per (repository, commit) as a checked cache file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitHistory, commitHistoryFile, openCommitHistory } from '../../src/history/commit-history.js';
import { RepoHistory } from '../../src/history/repo-history.js';
import { setCacheWarningSink, writeCheckedFile } from '../../src/util/checked-file.js';
import { listCacheEntries } from '../../src/index/cache-usage.js';
import { fixtureRepo, git, type FixtureCommit } from '../repo/fixture-repo.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const commits: FixtureCommit[] = [
  { id: 'A', message: 'initial import of the parser', day: 0, files: { 'pkg/parser.py': 'p = 1\n', 'pkg/render.py': 'r = 1\n', 'pkg/config.py': 'c = 1\n' } },
  { id: 'B', parents: ['A'], message: 'Fix parser crash when the config is missing', day: 10, files: { 'pkg/parser.py': 'p = 2\n' } },
  // the same message twice on one day: their order decides ties
  { id: 'C', parents: ['B'], message: 'Fix render colour option crash', day: 20, files: { 'pkg/render.py': 'r = 2\n' } },
  { id: 'D', parents: ['C'], message: 'Fix render colour option crash', day: 20, files: { 'pkg/config.py': 'c = 2\n', 'pkg/render.py': 'r = 3\n' } },
  { id: 'S', parents: ['A'], message: 'side branch: config crash colour', day: 25, files: { 'pkg/config.py': 'c = 9\n' } },
  { id: 'M', parents: ['D', 'S'], message: 'Merge side branch', day: 30, files: { 'pkg/config.py': 'c = 10\n' } },
  { id: 'E', parents: ['M'], message: 'render crash on missing colour config, parser too', day: 40, files: { 'pkg/render.py': 'r = 4\n', 'pkg/parser.py': 'p = 3\n' } },
];
const TEXTS = ['render crashes when the colour option is missing', 'parser crash config', 'nothing here matches zzz'];

const sorted = <V>(m: ReadonlyMap<string, V>): [string, V][] => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));

test('commit history: the file histories and message scores of the whole history at that commit, exactly, stored and loaded', async () => {
  const fx = fixtureRepo(commits);
  const cache = mkdtempSync(join(tmpdir(), 'issueloc-chist-'));
  try {
    for (const maxFiles of [100, 1]) {
      const whole = await RepoHistory.open(fx.dir, [fx.sha('E')], { maxFiles });
      for (const id of ['A', 'C', 'D', 'M', 'E']) {
        const commit = fx.sha(id);
        const made = CommitHistory.of(whole.log, commit, { maxFiles });
        const file = join(cache, `${id}-${maxFiles}.bin`);
        made.save(file);
        const loaded = CommitHistory.load(file, { maxFiles })!;
        assert.ok(loaded, 'stored and read back');
        for (const c of [made, loaded]) {
          assert.deepEqual([...c.files], [...whole.at(commit).files], `files at ${id}`);
          for (const text of TEXTS) assert.deepEqual(sorted(c.messageScores(parseIssue(text))), sorted(whole.messageScores(commit, parseIssue(text))), `${id} ${maxFiles}: ${text}`);
        }
      }
    }
  } finally {
    fx.remove();
    rmSync(cache, { recursive: true, force: true });
  }
});

test('commit history: opened from the cache without git, seen by the cache listing; a corrupt file is rebuilt with one warning', async () => {
  const fx = fixtureRepo(commits);
  const cache = mkdtempSync(join(tmpdir(), 'issueloc-chist-'));
  const lines: string[] = [];
  const prev = setCacheWarningSink((l) => lines.push(l));
  try {
    const commit = fx.sha('E');
    const first = await openCommitHistory(fx.dir, commit, { cacheDir: cache });
    const file = commitHistoryFile(cache, fx.dir, commit);
    assert.ok(existsSync(file), 'stored');
    assert.ok(listCacheEntries(cache).some((e) => e.kind === 'history' && e.files.includes(file)), 'a history entry of the cache');
    const expected = sorted(first.messageScores(parseIssue(TEXTS[0])));
    assert.ok(expected.length > 0);
    // the repository's objects gone: only the stored signals can answer
    rmSync(join(fx.dir, '.git', 'objects'), { recursive: true, force: true });
    assert.deepEqual(sorted((await openCommitHistory(fx.dir, commit, { cacheDir: cache })).messageScores(parseIssue(TEXTS[0]))), expected);
    const bytes = readFileSync(file);
    bytes[10] ^= 0xff;
    writeFileSync(file, bytes);
    assert.equal(CommitHistory.load(file), undefined);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /corrupt cache file .*: rebuilt/);
    // a truncated file: one warning, the signals computed again (from the history log's cache) and stored whole
    writeFileSync(file, bytes.subarray(0, bytes.length >> 1));
    assert.deepEqual(sorted((await openCommitHistory(fx.dir, commit, { cacheDir: cache })).messageScores(parseIssue(TEXTS[0]))), expected);
    assert.equal(lines.length, 2);
    assert.ok(CommitHistory.load(file), 'stored again');
    assert.equal(lines.length, 2);
  } finally {
    setCacheWarningSink(prev);
    fx.remove();
    rmSync(cache, { recursive: true, force: true });
  }
});

test('commit history: a file of the older format (its message postings rebuilt per process) is computed again and stored once', async () => {
  const fx = fixtureRepo(commits);
  const cache = mkdtempSync(join(tmpdir(), 'issueloc-chist-'));
  const lines: string[] = [];
  const prev = setCacheWarningSink((l) => lines.push(l));
  try {
    const commit = fx.sha('E');
    const expected = sorted((await openCommitHistory(fx.dir, commit, { cacheDir: cache })).messageScores(parseIssue(TEXTS[1])));
    const file = commitHistoryFile(cache, fx.dir, commit);
    writeCheckedFile(file, 'chist.v1', ['{"time":0}']);
    assert.deepEqual(sorted((await openCommitHistory(fx.dir, commit, { cacheDir: cache })).messageScores(parseIssue(TEXTS[1]))), expected);
    assert.equal(lines.length, 1, 'one warning');
    assert.ok(CommitHistory.load(file), 'stored again in the current format');
    assert.equal(lines.length, 1, 'read without a warning');
  } finally {
    setCacheWarningSink(prev);
    fx.remove();
    rmSync(cache, { recursive: true, force: true });
  }
});

test('commit history: a shallow clone\'s signals are used, never stored', async () => {
  const fx = fixtureRepo(commits);
  const cache = mkdtempSync(join(tmpdir(), 'issueloc-chist-'));
  const shallow = mkdtempSync(join(tmpdir(), 'issueloc-shallow-'));
  try {
    git(shallow, ['clone', '-q', '--depth', '2', `file://${fx.dir}`, 'c']);
    const dir = join(shallow, 'c');
    const head = git(dir, ['rev-parse', 'HEAD']).trim();
    const h = await openCommitHistory(dir, head, { cacheDir: cache });
    assert.ok(h.files.size > 0);
    assert.equal(existsSync(commitHistoryFile(cache, dir, head)), false);
  } finally {
    fx.remove();
    rmSync(cache, { recursive: true, force: true });
    rmSync(shallow, { recursive: true, force: true });
  }
});
