// The commit miner (issue 15, parts 2 and 6): pseudo-issues from a repository's own history,
// the filters, the cache across runs and rewritten histories, and the leakage guard (only
// ancestors of the base commit are ever mined).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mineCommits, type MineOptions, type PseudoIssue } from '../../src/history/commit-miner.js';
import { messageVerdict, splitMessage } from '../../src/history/commit-filters.js';
import { GitRepo } from '../../src/repo/git.js';
import { IssuelocError } from '../../src/errors.js';
import { fixtureRepo, git, type FixtureCommit } from '../repo/fixture-repo.js';

const PARSER = 'def parse(text):\n    return text.split()\n\n\ndef render(doc):\n    return str(doc)\n';
const PARSER_FIXED = 'def parse(text):\n    return (text or "").split()\n\n\ndef render(doc):\n    return str(doc)\n';
const many = (tag: string) => Object.fromEntries(Array.from({ length: 6 }, (_, k) => [`pkg/m${k}.py`, `def f${k}():\n    return "${tag}"\n`]));

const commits: FixtureCommit[] = [
  { id: 'A', message: 'initial import of the parser', files: { 'pkg/parser.py': PARSER, 'pkg/config.py': 'def load(path):\n    return {}\n', 'README.md': 'x' } },
  { id: 'B', parents: ['A'], message: 'Fixed crash when parsing an empty document\n\nparse(None) raised AttributeError.\n\nSigned-off-by: t <t@t>', files: { 'pkg/parser.py': PARSER_FIXED, 'tests/test_parser.py': 'def test_parse():\n    assert parse(None) == []\n' } },
  { id: 'C', parents: ['B'], message: 'Bump version to 1.2.0', files: { 'pkg/config.py': 'def load(path):\n    return {"v": 2}\n' } },
  { id: 'D', parents: ['C'], message: 'Fix typo in the config loader', files: { 'pkg/config.py': 'def load(path):\n    return {"v": 3}\n' } },
  { id: 'E', parents: ['D'], message: 'wip', files: { 'pkg/config.py': 'def load(path):\n    return {"v": 4}\n' } },
  { id: 'F', parents: ['E'], message: 'Split the helpers into six modules', files: many('a') },
  { id: 'G', parents: ['F'], message: 'Document the parser in the readme', files: { 'README.md': 'parser docs' } },
  { id: 'H', parents: ['G'], message: 'Add a brand new writer module', files: { 'pkg/writer.py': 'def write(doc):\n    return doc\n' } },
  { id: 'I', parents: ['H'], message: 'Load configuration from environment variables too', files: { 'pkg/config.py': 'import os\n\ndef load(path):\n    return dict(os.environ)\n' } },
  // a side branch merged back: the merge is skipped, its branch commit J is mined on its own
  { id: 'J', parents: ['H'], message: 'Render documents with a trailing newline', files: { 'pkg/parser.py': PARSER_FIXED.replace('str(doc)', 'str(doc) + "\\n"') } },
  { id: 'M', parents: ['I', 'J'], message: 'Merge branch render', files: { 'pkg/parser.py': PARSER_FIXED.replace('str(doc)', 'str(doc) + "\\n"') } },
  // after the base M: a commit whose message gives a later issue away; and an unmerged branch
  { id: 'K', parents: ['M'], message: 'Fixed the secret answer in load for the future issue', files: { 'pkg/config.py': 'def load(path):\n    return {"answer": 42}\n' } },
  { id: 'X', parents: ['B'], message: 'Experimental branch rewrites parse for the leak test', files: { 'pkg/parser.py': PARSER.replace('split()', 'split(",")') } },
];
const repo = fixtureRepo(commits, 'K');
git(repo.dir, ['branch', 'side', repo.sha('X')]);
const tmp = mkdtempSync(join(tmpdir(), 'issueloc-miner-'));
after(() => {
  repo.remove();
  rmSync(tmp, { recursive: true, force: true });
});

async function mine(dir: string, rev: string, options: MineOptions = {}): Promise<{ issues: PseudoIssue[]; summary: ReturnType<typeof mineCommits>['summary'] }> {
  const r = await GitRepo.open(dir);
  try {
    const mined = mineCommits(r, rev, options);
    const issues: PseudoIssue[] = [];
    for await (const p of mined) issues.push(p);
    return { issues, summary: mined.summary };
  } finally {
    await r.close();
  }
}

test('mining before M keeps message → positives pairs and drops what the filters name', async () => {
  const { issues, summary } = await mine(repo.dir, repo.sha('M'));
  const byId = new Map(issues.map((p) => [p.sha, p]));
  assert.deepEqual(issues.map((p) => p.subject), [
    'Render documents with a trailing newline', 'Load configuration from environment variables too', 'Fixed crash when parsing an empty document',
  ], 'most recent first: J (day 9), I (day 8), B');
  const b = byId.get(repo.sha('B'))!;
  assert.equal(b.parent, repo.sha('A'));
  assert.equal(b.body, 'parse(None) raised AttributeError.', 'trailers removed');
  assert.deepEqual(b.files, ['pkg/parser.py'], 'the test file is no positive');
  assert.deepEqual(b.functions, ['pkg/parser.py:parse'], 'render is unchanged');
  assert.equal(b.changesTests, true);
  assert.equal(b.fix, true);
  assert.deepEqual(byId.get(repo.sha('J'))!.functions, ['pkg/parser.py:render']);
  assert.deepEqual(byId.get(repo.sha('I'))!.functions, ['pkg/config.py:load']);
  const d = summary.dropped;
  assert.deepEqual([d.merge, d.root, d['version-bump'], d.typo, d['short-message'], d['too-many-files'], d['no-source-files'], d['only-new-files']], [1, 1, 1, 1, 1, 1, 1, 1]);
  assert.equal(summary.read, 11);
  assert.equal(summary.kept, 3);
  const threaded = await mine(repo.dir, repo.sha('M'), { threads: 1 });
  assert.deepEqual(threaded.issues, issues, 'blobs parsed on a worker thread give the same pseudo-issues');
});

test('leakage guard: a commit after the base, or on a branch the base does not contain, is never mined', async () => {
  const { issues } = await mine(repo.dir, repo.sha('M'));
  const texts = issues.map((p) => `${p.subject} ${p.body}`).join('\n');
  assert.doesNotMatch(texts, /secret answer|Experimental branch/);
  assert.ok(!issues.some((p) => p.sha === repo.sha('K') || p.sha === repo.sha('X')));
  // the same cache, filled first from the later head and the side branch, changes nothing
  const cacheDir = join(tmp, 'leak');
  const later = await mine(repo.dir, repo.sha('K'), { cacheDir });
  assert.ok(later.issues.some((p) => p.sha === repo.sha('K')));
  await mine(repo.dir, 'side', { cacheDir });
  const again = await mine(repo.dir, repo.sha('M'), { cacheDir });
  assert.deepEqual(again.issues, issues);
  assert.ok(again.summary.cached > 0);
});

test('--max-commits and --since read the most recent commits only; a second run comes from the cache', async () => {
  const cacheDir = join(tmp, 'cache');
  const first = await mine(repo.dir, repo.sha('M'), { cacheDir, maxCommits: 3 });
  assert.equal(first.summary.read, 3);
  assert.deepEqual(first.issues.map((p) => p.sha), [repo.sha('J'), repo.sha('I')], 'M, J, I are the 3 most recent');
  const second = await mine(repo.dir, repo.sha('M'), { cacheDir, maxCommits: 3 });
  assert.equal(second.summary.cached, 3);
  assert.equal(second.summary.parsedBlobs, 0);
  assert.deepEqual(second.issues, first.issues);
  // day 9 (J) onwards: M and J
  // a corrupt cache file is rebuilt, never an error
  const [file] = readdirSync(join(cacheDir, 'history')).filter((f) => f.startsWith('mined-'));
  writeFileSync(join(cacheDir, 'history', file), 'garbage');
  const rebuilt = await mine(repo.dir, repo.sha('M'), { cacheDir, maxCommits: 3 });
  assert.deepEqual([rebuilt.summary.cached, rebuilt.issues], [0, first.issues]);
  const since = await mine(repo.dir, repo.sha('M'), { since: Date.UTC(2020, 0, 10) / 1000 });
  assert.deepEqual(since.issues.map((p) => p.sha), [repo.sha('J')]);
});

test('a rewritten (amended) history never reuses the cache of the old one', async () => {
  const r = fixtureRepo(commits.slice(0, 2));
  try {
    const cacheDir = join(tmp, 'rewrite');
    const before = await mine(r.dir, 'HEAD', { cacheDir });
    assert.deepEqual(before.issues.map((p) => p.subject), ['Fixed crash when parsing an empty document']);
    // an amended head commit (same tree and parent, another message), as after a force push
    const amended = git(r.dir, ['commit-tree', 'HEAD^{tree}', '-p', 'HEAD^', '-m', 'Handle documents that are None in the parser']).trim();
    git(r.dir, ['update-ref', 'refs/heads/main', amended]);
    const afterAmend = await mine(r.dir, 'HEAD', { cacheDir });
    assert.deepEqual(afterAmend.issues.map((p) => p.subject), ['Handle documents that are None in the parser']);
    assert.equal(afterAmend.issues[0].sha, git(r.dir, ['rev-parse', 'HEAD']).trim());
  } finally {
    r.remove();
  }
});

test('bad input: one commit, only merges and empty messages give no pseudo-issue and no crash; a shallow clone a smaller history', async () => {
  const one = fixtureRepo([{ id: 'A', message: 'initial import of everything', files: { 'a.py': 'def f():\n    return 1\n' } }]);
  const shallowDir = join(tmp, 'shallow');
  try {
    await assert.rejects(mine(one.dir, 'no-such-rev'), (e: Error) => e instanceof IssuelocError && /^unknown revision 'no-such-rev' in /.test(e.message));
    const single = await mine(one.dir, 'HEAD');
    assert.deepEqual([single.issues.length, single.summary.read, single.summary.dropped.root], [0, 1, 1]);
    const merges = fixtureRepo([
      { id: 'A', message: '', files: { 'a.py': 'def f():\n    return 1\n' } },
      { id: 'B', parents: ['A'], message: '', files: { 'a.py': 'def f():\n    return 2\n' } },
      { id: 'C', parents: ['A', 'B'], message: 'Merge', files: { 'a.py': 'def f():\n    return 3\n' } },
    ]);
    try {
      const m = await mine(merges.dir, 'HEAD');
      assert.deepEqual([m.issues.length, m.summary.dropped.merge, m.summary.dropped['short-message']], [0, 1, 1]);
    } finally {
      merges.remove();
    }
    git(tmp, ['clone', '-q', '--depth', '3', `file://${repo.dir}`, shallowDir]);
    const s = await mine(shallowDir, 'HEAD', { cacheDir: join(tmp, 'shallow-cache') });
    assert.equal(s.summary.shallow, true);
    assert.ok(s.summary.read <= 4, `read ${s.summary.read}`);
    assert.deepEqual(s.issues.map((p) => p.sha), [repo.sha('K')], 'the cut commits count as roots');
  } finally {
    one.remove();
  }
});

test('a file the commit adds without a text patch (empty or binary) is an added file, never a positive', async () => {
  const r = fixtureRepo([
    { id: 'A', message: 'initial import of the parser', files: { 'pkg/parser.py': PARSER } },
    { id: 'B', parents: ['A'], message: 'Add an empty index module for later', files: { 'pkg/parser.py': PARSER_FIXED, 'pkg/index.py': '', 'pkg/blob.py': 'x\0y' } },
  ]);
  try {
    const { issues } = await mine(r.dir, 'HEAD');
    assert.deepEqual(issues.map((p) => [p.files, [...p.added].sort()]), [[['pkg/parser.py'], ['pkg/blob.py', 'pkg/index.py']]]);
  } finally {
    r.remove();
  }
});

test('the consistency check drops pseudo-issues whose positives the ranking misses and keeps hard negatives', async () => {
  const asked: string[] = [];
  const { issues, summary } = await mine(repo.dir, repo.sha('M'), {
    consistency: {
      topK: 2, negatives: 1,
      rank: async (text, commit) => {
        asked.push(commit);
        // ranks parse first, then render, then load: I's positive (load) is third
        return { functions: ['pkg/parser.py:parse', 'pkg/parser.py:render', 'pkg/config.py:load'], files: ['pkg/parser.py', 'pkg/config.py'] };
      },
    },
  });
  assert.deepEqual(issues.map((p) => [p.sha, p.positiveRank, p.hardNegatives]), [
    [repo.sha('J'), 2, ['pkg/parser.py:parse']],
    [repo.sha('B'), 1, ['pkg/parser.py:render']],
  ]);
  assert.equal(summary.dropped.inconsistent, 1);
  assert.ok(asked.includes(repo.sha('H')) && asked.includes(repo.sha('A')), 'ranked at each parent');
});

test('message filters: bots, reverts, version bumps, formatting, typos, short or non-Latin messages', () => {
  const v = (m: string, author = 'Ann <ann@example.org>') => messageVerdict(m, author, 3);
  assert.equal(v('Update the parser for new input', 'dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>'), 'bot');
  assert.equal(v('Revert "Fixed #1 -- Made the parser fast"'), 'revert');
  assert.equal(v('Make it work again\n\nThis reverts commit 0123456789abcdef.'), 'revert');
  assert.equal(v('[4.2.x] Bumped version for 4.2.1 release.'), 'version-bump');
  assert.equal(v('Release 1.4.0'), 'version-bump');
  assert.equal(v('Reformatted code with Black'), 'formatting');
  assert.equal(v('Removed trailing whitespace'), 'formatting');
  assert.equal(v('Strip whitespace around the parsed body'), undefined, 'a change that handles whitespace is no formatting');
  assert.equal(v('Fixed typos in comments'), 'typo');
  assert.equal(v('wip'), 'short-message');
  assert.equal(v('修复解析器在空文档时崩溃的问题'), 'short-message');
  assert.equal(v(''), 'short-message');
  assert.equal(v('Fixed #3221 -- Made QuerySet.update() respect the ordering'), undefined);
  assert.deepEqual(splitMessage('\n  Subject line\nbody one\ngit-svn-id: http://x/trunk@1 abc\nCo-authored-by: b <b@b>\n'), { subject: 'Subject line', body: 'body one' });
});
