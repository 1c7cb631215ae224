// The history cache is keyed by repository and never decides a ranking: history statistics
// (file histories, message idf and cut-offs) are those of the base commit's ancestors, however
// the cache was filled (issue 12, items 2 and 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_TAG, HistoryLog, historyLogFile } from '../../src/history/history-log.js';
import { readCheckedPayload, writeCheckedJson } from '../../src/util/checked-file.js';
import { RepoHistory } from '../../src/history/repo-history.js';
import { SimilarIssues } from '../../src/history/similar-issues.js';
import { openLocalizer } from '../../src/index.js';
import { forEachIssue, type LabelledIssue } from '../../src/ltr/labelled-issues.js';
import { fixtureRepo, git, type FixtureCommit } from '../repo/fixture-repo.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const ISSUE = 'render crashes when the colour option is missing from config';

/** A repository whose commits after C would change the message statistics at C (D, E, F, G) or give C's issue away (D). */
const commits: FixtureCommit[] = [
  {
    id: 'A', message: 'initial import', day: 0, files: {
      'pkg/parser.py': 'def parse(text, config=None):\n    return text.split()\n',
      'pkg/render.py': 'def render(doc, colour=None):\n    return str(doc)\n',
      'pkg/config.py': 'def load(path):\n    return {}\n',
    },
  },
  { id: 'B', parents: ['A'], message: 'Fix parser crashes when the config is missing', day: 10, files: { 'pkg/parser.py': 'def parse(text, config=None):\n    return (text or "").split()\n' } },
  { id: 'C', parents: ['B'], message: 'Add colour option to render', day: 20, files: { 'pkg/render.py': 'def render(doc, colour="red"):\n    return str(doc)\n' } },
  // after C: the fix of C's issue, word by word, and messages full of the issue's words
  { id: 'D', parents: ['C'], message: `Fix ${ISSUE}`, day: 30, files: { 'pkg/config.py': 'def load(path):\n    return {"colour": "red"}\n' } },
  { id: 'E', parents: ['D'], message: 'render colour option config render colour', day: 40, files: { 'pkg/render.py': 'def render(doc, colour="blue"):\n    return str(doc)\n' } },
  { id: 'F', parents: ['E'], message: 'Fix config crash: missing option', day: 50, files: { 'pkg/config.py': 'def load(path):\n    return {"colour": "blue"}\n' } },
  { id: 'G', parents: ['F'], message: 'Tidy the parser', day: 60, files: { 'pkg/parser.py': 'def parse(text, config=None):\n    return str(text).split()\n' } },
];

/** A repository of a different project (no commit in common with `commits`). */
const other: FixtureCommit[] = [
  { id: 'X', message: 'start the server', day: 3, files: { 'srv/server.py': 'def serve(port):\n    return port\n', 'srv/log.py': 'def log(msg):\n    print(msg)\n' } },
  { id: 'Y', parents: ['X'], message: 'Fix server crash on a closed port', day: 8, files: { 'srv/server.py': 'def serve(port):\n    return port or 80\n' } },
];

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'issueloc-hcache-'));
}

/** Everything history features take from a repository at `commit` for `text`, in a comparable form. */
async function evidenceAt(repoPath: string, commit: string, text: string, cacheDir?: string): Promise<unknown> {
  const h = await RepoHistory.open(repoPath, [commit], { cacheDir });
  const sorted = <V>(m: ReadonlyMap<string, V>): [string, V][] => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return { files: sorted(h.at(commit).files), messages: sorted(h.messageScores(commit, parseIssue(text))) };
}

/** The built-in model's ranking (all levels, scores included) at `rev`. */
async function rankingAt(repoPath: string, rev: string, text: string, cacheDir: string): Promise<string> {
  const localizer = await openLocalizer({ repo: repoPath, rev, cacheDir, model: 'default' });
  try {
    const { files, modules, functions, matchedQueryTerms } = await localizer.localize(text, { top: 10 });
    return JSON.stringify({ files, modules, functions, matchedQueryTerms });
  } finally {
    await localizer.close();
  }
}

test('history cache: two repositories share one cache folder, each gets its own history', async () => {
  const a = fixtureRepo(commits);
  const b = fixtureRepo(other);
  const shared = tempDir();
  const own = [tempDir(), tempDir()];
  try {
    const text = 'server crash on closed port';
    const aFirst = await evidenceAt(a.dir, a.sha('G'), text, shared);
    // before the fix: git log … --not <head of a> failed in b with `fatal: bad object`
    const bShared = await evidenceAt(b.dir, b.sha('Y'), text, shared);
    const aAgain = await evidenceAt(a.dir, a.sha('G'), text, shared);
    assert.deepEqual(bShared, await evidenceAt(b.dir, b.sha('Y'), text, own[1]));
    assert.deepEqual(aFirst, await evidenceAt(a.dir, a.sha('G'), text, own[0]));
    assert.deepEqual(aAgain, aFirst);
    assert.ok(JSON.stringify(bShared).includes('srv/server.py') && !JSON.stringify(bShared).includes('pkg/'));
    // the built-in model (localize --model default) on both, one cache folder
    const rankA = await rankingAt(a.dir, 'HEAD', ISSUE, shared);
    const rankB = await rankingAt(b.dir, 'HEAD', text, shared);
    assert.equal(rankA, await rankingAt(a.dir, 'HEAD', ISSUE, own[0]));
    assert.equal(rankB, await rankingAt(b.dir, 'HEAD', text, own[1]));
  } finally {
    a.remove();
    b.remove();
    for (const d of [shared, ...own]) rmSync(d, { recursive: true, force: true });
  }
});

test('history cache: cached commits that are no object of the repository are never used (rebuilt)', async () => {
  const a = fixtureRepo(commits);
  const b = fixtureRepo(other);
  const cache = tempDir();
  const fresh = tempDir();
  try {
    await HistoryLog.load(a.dir, [a.sha('G')], { cacheDir: cache });
    // another repository now lives where the cached one was
    rmSync(a.dir, { recursive: true, force: true });
    renameSync(b.dir, a.dir);
    const log = await HistoryLog.load(a.dir, [b.sha('Y')], { cacheDir: cache });
    assert.equal(log.size, 2, 'only the commits of the repository now at that path');
    assert.equal(log.indexOf(a.sha('G')), undefined);
    assert.deepEqual(await evidenceAt(a.dir, b.sha('Y'), 'server crash', cache), await evidenceAt(a.dir, b.sha('Y'), 'server crash', fresh));
  } finally {
    a.remove();
    b.remove();
    rmSync(cache, { recursive: true, force: true });
    rmSync(fresh, { recursive: true, force: true });
  }
});

test('history cache: rewritten history (force-push) gives the statistics of a fresh cache, before and after gc', async () => {
  const fx = fixtureRepo(commits);
  const cache = tempDir();
  try {
    await HistoryLog.load(fx.dir, [fx.sha('G')], { cacheDir: cache });
    // rewrite D…G as one commit on C, as a force-push would
    const tree = git(fx.dir, ['rev-parse', `${fx.sha('G')}^{tree}`]).trim();
    const rewritten = git(fx.dir, ['commit-tree', tree, '-p', fx.sha('C'), '-m', 'Rework config and render'], undefined).trim();
    git(fx.dir, ['update-ref', 'refs/heads/main', rewritten]);
    const fresh1 = tempDir();
    try {
      // old tips still objects: used with --not, yet nothing outside the ancestry weighs in
      assert.deepEqual(await evidenceAt(fx.dir, rewritten, ISSUE, cache), await evidenceAt(fx.dir, rewritten, ISSUE, fresh1));
    } finally {
      rmSync(fresh1, { recursive: true, force: true });
    }
    git(fx.dir, ['reflog', 'expire', '--expire=now', '--all']);
    git(fx.dir, ['gc', '-q', '--prune=now']);
    assert.throws(() => git(fx.dir, ['cat-file', '-e', fx.sha('G')]), 'G is gone after gc');
    const more = git(fx.dir, ['commit-tree', tree, '-p', rewritten, '-m', 'Fix the colour of render'], undefined).trim();
    const fresh2 = tempDir();
    try {
      // the cached tip G is no object any more: the log is rebuilt instead of failing
      assert.deepEqual(await evidenceAt(fx.dir, more, ISSUE, cache), await evidenceAt(fx.dir, more, ISSUE, fresh2));
      const log = await HistoryLog.load(fx.dir, [more], { cacheDir: cache });
      assert.equal(log.indexOf(fx.sha('G')), undefined);
    } finally {
      rmSync(fresh2, { recursive: true, force: true });
    }
  } finally {
    fx.remove();
    rmSync(cache, { recursive: true, force: true });
  }
});

test('history statistics at a base commit: a function of its ancestors only, whatever the cache holds', async () => {
  const fx = fixtureRepo(commits);
  const past = fixtureRepo(commits.slice(0, 3)); // the same commits up to C, no future at all
  assert.equal(past.sha('C'), fx.sha('C'));
  const dirs = { truth: tempDir(), fresh: tempDir(), newerFirst: tempDir(), olderFirst: tempDir() };
  try {
    const C = fx.sha('C');
    const G = fx.sha('G');
    const truth = await evidenceAt(past.dir, C, ISSUE, dirs.truth);
    assert.deepEqual(await evidenceAt(fx.dir, C, ISSUE, dirs.fresh), truth);
    assert.deepEqual(await evidenceAt(fx.dir, C, ISSUE), truth, 'no cache');
    // a cache that already holds the future (run at G before)
    const atG = await evidenceAt(fx.dir, G, ISSUE, dirs.newerFirst);
    assert.deepEqual(await evidenceAt(fx.dir, C, ISSUE, dirs.newerFirst), truth);
    // reverse order: C first, then G (the log extended), then C again
    assert.deepEqual(await evidenceAt(fx.dir, C, ISSUE, dirs.olderFirst), truth);
    assert.deepEqual(await evidenceAt(fx.dir, G, ISSUE, dirs.olderFirst), atG);
    assert.deepEqual(await evidenceAt(fx.dir, C, ISSUE, dirs.olderFirst), truth);
    // one history opened for both commits (as the issue loop does)
    const both = await RepoHistory.open(fx.dir, [G, C]);
    const m = both.messageScores(C, parseIssue(ISSUE));
    assert.deepEqual([...m].sort(), (truth as { messages: [string, number][] }).messages);
    // the future fix (D changed pkg/config.py, with the issue's own words) gives nothing away
    assert.equal(m.has('pkg/config.py'), false);
    assert.ok((both.messageScores(G, parseIssue(ISSUE)).get('pkg/config.py') ?? 0) > 0, 'seen from G');
  } finally {
    fx.remove();
    past.remove();
    for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  }
});

test('built-in model rankings at a base commit do not depend on the order issues filled the cache', async () => {
  const fx = fixtureRepo(commits);
  const dirs = { fresh: tempDir(), newerFirst: tempDir(), olderFirst: tempDir() };
  try {
    const C = fx.sha('C');
    const G = fx.sha('G');
    const fresh = await rankingAt(fx.dir, C, ISSUE, dirs.fresh);
    const freshG = await rankingAt(fx.dir, G, ISSUE, dirs.fresh);
    await rankingAt(fx.dir, G, ISSUE, dirs.newerFirst);
    assert.equal(await rankingAt(fx.dir, C, ISSUE, dirs.newerFirst), fresh);
    assert.equal(await rankingAt(fx.dir, C, ISSUE, dirs.olderFirst), fresh);
    assert.equal(await rankingAt(fx.dir, G, ISSUE, dirs.olderFirst), freshG);
  } finally {
    fx.remove();
    for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  }
});

test('issue loop: evidence of an issue is the same alone, after a newer issue, and in one run with it', async () => {
  const fx = fixtureRepo(commits);
  const issue = (id: string, commit: string): LabelledIssue => ({
    id, repo: 'fixture/repo', commit, text: ISSUE, created: NaN, gold: { file: ['pkg/config.py'], module: [], function: [] }, repoPath: fx.dir,
  });
  const older = issue('old', fx.sha('C'));
  const newer = issue('new', fx.sha('G'));
  const run = async (list: LabelledIssue[], cacheRoot: string): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    await forEachIssue(list, { repoRoot: cacheRoot, cacheRoot }, (ctx) => {
      const e = ctx.history();
      out.set(ctx.issue.id, JSON.stringify([[...e.files!].sort(), [...e.messageScores!].sort()]));
    });
    return out;
  };
  const roots = [tempDir(), tempDir(), tempDir()];
  try {
    const alone = (await run([older], roots[0])).get('old');
    await run([newer], roots[1]);
    assert.equal((await run([older], roots[1])).get('old'), alone, 'after a newer issue filled the cache');
    assert.equal((await run([newer, older], roots[2])).get('old'), alone, 'in one run with the newer issue');
  } finally {
    fx.remove();
    for (const d of roots) rmSync(d, { recursive: true, force: true });
  }
});

test('similar earlier issues: later issues of the dataset change no weight of an earlier query', () => {
  const day = 86_400_000;
  const earlier = [
    { id: '1', text: 'NPE in request parameter parsing', time: 1 * day, files: ['Request.java'] },
    { id: '3', text: 'session manager leaks threads when parsing', time: 2 * day, files: ['Manager.java'] },
  ];
  const later = [
    { id: '2', text: 'request parameter parsing fails on empty parameter value', time: 5 * day, files: ['Parameters.java'] },
    { id: '4', text: 'parsing parsing parsing of parameter', time: 6 * day, files: ['Parser.java'] },
  ];
  const query = 'parameter parsing NPE';
  const without = new SimilarIssues(earlier).scores(parseIssue(query), 3 * day);
  const withLater = new SimilarIssues([...earlier, ...later]).scores(parseIssue(query), 3 * day);
  assert.deepEqual(withLater, without);
  assert.ok(without.has('Request.java') && !withLater.has('Parameters.java'));
});

test('history cache: a malformed cache file is rebuilt, not trusted', async () => {
  const fx = fixtureRepo(commits);
  const cache = tempDir();
  const fresh = tempDir();
  try {
    await HistoryLog.load(fx.dir, [fx.sha('C')], { cacheDir: cache });
    const file = historyLogFile(cache, fx.dir);
    const data = JSON.parse(readCheckedPayload(file, HISTORY_TAG)!.toString('utf8')) as { parents: number[][]; files: number[][] };
    data.parents[0] = [99]; // a parent index out of range, in a file whose checksum is right
    writeCheckedJson(file, HISTORY_TAG, data);
    assert.deepEqual(await evidenceAt(fx.dir, fx.sha('G'), ISSUE, cache), await evidenceAt(fx.dir, fx.sha('G'), ISSUE, fresh));
  } finally {
    fx.remove();
    rmSync(cache, { recursive: true, force: true });
    rmSync(fresh, { recursive: true, force: true });
  }
});

test('history cache: heads kept are the tips only; a shallow history is used but never cached', async () => {
  const fx = fixtureRepo(commits);
  const cache = tempDir();
  const clone = tempDir();
  try {
    for (const id of ['B', 'D', 'C', 'G']) await HistoryLog.load(fx.dir, [fx.sha(id)], { cacheDir: cache });
    assert.deepEqual((JSON.parse(readCheckedPayload(historyLogFile(cache, fx.dir), HISTORY_TAG)!.toString('utf8')) as { heads: string[] }).heads, [fx.sha('G')]);
    git(clone, ['clone', '-q', '--depth', '2', `file://${fx.dir}`, 'shallow']);
    const shallow = join(clone, 'shallow');
    const cut = await HistoryLog.load(shallow, [fx.sha('G')], { cacheDir: cache });
    assert.equal(cut.size, 2);
    assert.equal(existsSync(historyLogFile(cache, shallow)), false, 'a cut history is not cached');
    git(shallow, ['fetch', '-q', '--unshallow']);
    const whole = await HistoryLog.load(shallow, [fx.sha('G')], { cacheDir: cache });
    assert.equal(whole.size, 7);
  } finally {
    fx.remove();
    rmSync(cache, { recursive: true, force: true });
    rmSync(clone, { recursive: true, force: true });
  }
});

test('reading the history reports its progress once per repository; a cached history reports none', async () => {
  const fx = fixtureRepo(commits);
  const dir = tempDir();
  try {
    const steps = async () => {
      const seen: [string, number, number][] = [];
      const loc = await openLocalizer({ repo: fx.dir, rev: fx.sha('G'), cacheDir: dir, onProgress: (step, done, total) => seen.push([step, done, total]) });
      try {
        await loc.localize(ISSUE);
      } finally {
        await loc.close();
      }
      return seen.filter(([step]) => step === 'history');
    };
    assert.deepEqual(await steps(), [['history', 0, 7], ['history', 7, 7]], 'the default (built-in model) reads the 7 commits once');
    assert.deepEqual(await steps(), [], 'then from the cache');
  } finally {
    fx.remove();
    rmSync(dir, { recursive: true, force: true });
  }
});
