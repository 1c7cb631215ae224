// Files without any function-level document (constants modules, __init__.py of imports) join the
// file ranking from their path, their own file score and file-level signals; roll-up is unchanged
// otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { Localizer, type RankingOptions } from '../../src/retrieve/localize.js';
import { functionlessFiles, insertAtLexicalRank, mergeByScore, rollUp } from '../../src/retrieve/rollup.js';
import { DEFAULT_SIGNAL_WEIGHTS, type SignalName } from '../../src/retrieve/signals.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';
import { RankingModel, rankLevels } from '../../src/ltr/model.js';
import { ModelRanker } from '../../src/ltr/model-ranker.js';
import { DEFAULT_CANDIDATES } from '../../src/ltr/train.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const CLIENT = [
  'from app.settings import DEFAULT_TIMEOUT',
  '',
  'def connect(host, timeout=DEFAULT_TIMEOUT):',
  '    """Open a connection to host."""',
  '    return open_socket(host, timeout)',
  '',
  'def send(conn, payload):',
  '    return conn.write(payload)',
  '',
].join('\n');
const UTIL = 'def retry(fn, limit):\n    for _ in range(limit):\n        fn()\n\ndef parse_host(text):\n    return text.split(":")\n';
const SETTINGS = 'DEFAULT_TIMEOUT = 30\nRETRY_LIMIT = 5\nDEFAULT_HOST = "localhost"\n';

/** Indexes a tiny repository; `settings` is the text of app/settings.py. */
async function indexOf(settings: string) {
  const dir = tempDir('issueloc-bare-');
  try {
    const commit = commitFiles(join(dir, 'repo'), {
      'app/__init__.py': 'from app.client import connect, send\n',
      'app/client.py': CLIENT,
      'app/util.py': UTIL,
      'app/settings.py': settings,
    });
    const repo = await GitRepo.open(join(dir, 'repo'));
    const { codeIndex } = await indexCommit(repo, commit, { cacheDir: join(dir, 'cache') });
    await repo.close();
    return codeIndex;
  } finally {
    cleanup(dir);
  }
}

const localize = (ci: Awaited<ReturnType<typeof indexOf>>, text: string, ranking: RankingOptions = {}) => {
  const l = new Localizer(ci, ranking);
  return l.localize(l.queryOf(parseIssue(text)), { top: 10, signals: extractIssueSignals(text) });
};

test('a constants module with only top-level assignments is ranked as a file, never as a function or module', async () => {
  const ci = await indexOf(SETTINGS);
  const bare = [...functionlessFiles(ci.fileOfUnit, ci.filePaths.length)].map((f) => ci.filePaths[f]).sort();
  assert.deepEqual(bare, ['app/__init__.py', 'app/settings.py']);
  const text = 'DEFAULT_TIMEOUT constant is wrong\nThe default timeout of 30 seconds is too short for slow hosts.';
  const loc = localize(ci, text);
  const settings = loc.files.find((f) => f.id === 'app/settings.py');
  assert.ok(settings, JSON.stringify(loc.files));
  assert.ok(settings.score > 0);
  assert.ok(settings.matchedTerms?.includes('timeout'), `matched terms from the file-level index: ${settings.matchedTerms}`);
  assert.ok(!loc.functions.some((f) => f.id.startsWith('app/settings.py')), 'no function of its own');
  assert.ok(!loc.modules.some((m) => m.id.startsWith('app/settings.py')), 'no module of its own');
  for (let i = 1; i < loc.files.length; i++) assert.ok(loc.files[i - 1].score >= loc.files[i].score, 'merged by score');
  // no prior and no signals: no evidence, so it stays out
  const plain = localize(ci, text, { filePrior: 0, signals: false });
  assert.ok(!plain.files.some((f) => f.id === 'app/settings.py'));
});

test('a traceback frame in a file with no functions ranks that file, with its signal', async () => {
  const ci = await indexOf(SETTINGS);
  const text = 'Crash at import of the project\nTraceback (most recent call last):\n' +
    '  File "/srv/site/app/settings.py", line 2, in <module>\n    RETRY_LIMIT = 5\nNameError: boom';
  const loc = localize(ci, text, { filePrior: 0 });
  const settings = loc.files.find((f) => f.id === 'app/settings.py');
  assert.ok(settings, JSON.stringify(loc.files));
  assert.ok(settings.signals?.includes('frameFile'), `${settings.signals}`);
  // with no prior: its path's part (the frame writes app/settings.py) plus the boosts its
  // functions would get from their file
  const boosts = (settings.signals ?? []).reduce((s, name) => s + DEFAULT_SIGNAL_WEIGHTS[name as SignalName], 0);
  assert.ok(settings.score > boosts, `${settings.score} vs ${boosts}`);
  const without = localize(ci, text, { filePrior: 0, signals: { frameFile: 0, mentionedFile: 0 } });
  const unboosted = without.files.find((f) => f.id === 'app/settings.py');
  assert.ok(unboosted && Math.abs(unboosted.score + boosts - settings.score) < 1e-6, 'the signals off: the boosts go, its path part stays');
});

test('files with functions rank exactly as the roll-up of the function ranking', async () => {
  const ci = await indexOf(`${SETTINGS}\ndef get_timeout():\n    return DEFAULT_TIMEOUT\n`);
  const text = 'DEFAULT_TIMEOUT constant is wrong\nThe default timeout of 30 seconds is too short for slow hosts, connect and retry.';
  const l = new Localizer(ci);
  const loc = l.localize(l.queryOf(parseIssue(text)), { top: 100, signals: extractIssueSignals(text), matchedTermsPerItem: 0 });
  const withFunctions = loc.files.filter((f) => f.id !== 'app/__init__.py').map(({ id, score }) => ({ id, score }));
  const ranked = loc.functions.map((f) => ({ ...f, path: f.id.split(':')[0], qualifiedName: f.id.split(':')[1] }));
  assert.deepEqual(withFunctions, rollUp(ranked).files.map(({ id, score }) => ({ id, score })));
  assert.ok(withFunctions.some((f) => f.id === 'app/settings.py'), 'settings.py now ranked through get_timeout');
});

test('mergeByScore keeps each list’s order, puts the first list first at equal scores and cuts to the limit', () => {
  const a = [{ id: 'a1', score: 3 }, { id: 'a2', score: 1 }];
  const b = [{ id: 'b1', score: 3 }, { id: 'b2', score: 2 }, { id: 'b3', score: 0.5 }];
  assert.deepEqual(mergeByScore(a, b, 4).map((x) => x.id), ['a1', 'b1', 'b2', 'a2']);
  assert.deepEqual(mergeByScore(a, [], 10).map((x) => x.id), ['a1', 'a2']);
});

test('the learned-model path ranks function-less files too, at their lexical place', async () => {
  const ci = await indexOf(SETTINGS);
  const text = 'DEFAULT_TIMEOUT constant is wrong\nThe default timeout of 30 seconds is too short for slow hosts.';
  const lexical = localize(ci, text, DEFAULT_CANDIDATES.ranking);
  const pipelineOnly = new ModelRanker(ci, new RankingModel({ weights: { pipeline: 1 }, candidates: DEFAULT_CANDIDATES }));
  const byModel = pipelineOnly.localize(parseIssue(text));
  assert.deepEqual(byModel.files.map((f) => f.id), lexical.files.map((f) => f.id), 'a model of the pipeline score keeps the lexical file order');
  const settings = byModel.files.find((f) => f.id === 'app/settings.py');
  assert.ok(settings?.matchedTerms?.includes('timeout'), JSON.stringify(byModel.files));
  assert.ok(!byModel.functions.some((f) => f.id.startsWith('app/settings.py')));
});

test('insertAtLexicalRank keeps each extra file at its lexical rank among the model-ranked files', () => {
  const ranked = [{ id: 'a', score: 9 }, { id: 'b', score: 8 }, { id: 'c', score: 7 }];
  const pipeline = new Map([['a', 0.5], ['b', 0.9], ['c', 0.2]]);
  const at = (extra: { id: string; score: number }[], limit = 10) =>
    insertAtLexicalRank(ranked, extra, (it) => pipeline.get(it.id)!, limit).map((x) => x.id);
  assert.deepEqual(at([{ id: 'x', score: 0.95 }]), ['x', 'a', 'b', 'c'], 'best in the pipeline: first');
  assert.deepEqual(at([{ id: 'x', score: 0.6 }]), ['a', 'x', 'b', 'c'], 'one file (b) scores higher in the pipeline: one file before it');
  assert.deepEqual(at([{ id: 'x', score: 0.3 }]), ['a', 'b', 'x', 'c'], 'the model order of a, b, c is kept');
  assert.deepEqual(at([{ id: 'x', score: 0.5 }]), ['a', 'b', 'x', 'c'], 'a tie goes after the ranked file (a and b score ≥ 0.5)');
  assert.deepEqual(at([{ id: 'x', score: 0.95 }, { id: 'y', score: 0.6 }, { id: 'z', score: 0.1 }]), ['x', 'a', 'y', 'b', 'c', 'z'], 'several extras interleave');
  assert.deepEqual(at([{ id: 'x', score: 0.95 }], 1), ['x'], 'cut to the limit');
});

test('with --model a function-less file named by a frame carries its signals and what fired them', async () => {
  const ci = await indexOf(SETTINGS);
  const text = 'Crash at import\nTraceback (most recent call last):\n  File "/srv/site/app/settings.py", line 2, in <module>\n    RETRY_LIMIT = 5\nNameError: boom';
  const model = new RankingModel({ weights: { length: 1 }, candidates: DEFAULT_CANDIDATES });
  const loc = new ModelRanker(ci, model).localize(parseIssue(text));
  const settings = loc.files.find((f) => f.id === 'app/settings.py');
  const signals = settings?.signals ?? [];
  assert.ok(signals.includes('frameFile'), JSON.stringify(loc.files));
  assert.equal(settings?.evidence?.length, signals.length);
  assert.match(settings?.evidence?.[signals.indexOf('frameFile')] ?? '', /settings\.py", line 2/);
  for (let k = 1; k < loc.files.length; k++) assert.ok(loc.files[k - 1].score >= loc.files[k].score, 'one scale, never rising');
});

test('rankLevels places the files holding no candidate at their lexical rank, as ModelRanker does', async () => {
  const ci = await indexOf(SETTINGS);
  const text = 'DEFAULT_TIMEOUT constant is wrong\nThe default timeout of 30 seconds is too short for slow hosts.';
  const issue = parseIssue(text);
  const model = new RankingModel({ weights: { pipeline: 1 }, candidates: { ...DEFAULT_CANDIDATES, depth: 1 } });
  const ranker = new ModelRanker(ci, model);
  const set = ranker.extractor.extract(issue);
  assert.equal(set.docs.length, 1, 'one candidate: its file is the only one the model can rank');
  const byRanker = ranker.localize(issue, {}, { top: 10, matchedTermsPerItem: 0 }).files.map((f) => f.id);
  assert.ok(byRanker.length > 1, `the other files fill the ranking: ${byRanker}`);
  assert.ok(byRanker.includes('app/settings.py'));
  const q = {
    n: set.docs.length, features: set.features, ids: set.ids, paths: set.paths, modules: set.modules,
    otherFiles: set.otherFiles.map((f) => ({ path: ci.filePaths[f.file], score: f.score / set.pipelineScores[0] })),
  };
  assert.deepEqual(rankLevels(q, model).file.slice(0, 10), byRanker);
  assert.deepEqual(rankLevels({ ...q, otherFiles: undefined }, model).file, [set.paths[0]], 'without them: the candidate files only');
});

test('a file lists the issue terms of its whole text, not only of its best function', async () => {
  const ci = await indexOf(SETTINGS);
  const text = 'connect with a timeout drops the payload';
  const loc = localize(ci, text);
  const client = loc.files.find((f) => f.id === 'app/client.py');
  assert.ok(client?.matchedTerms?.includes('payload') && client.matchedTerms.includes('timeout'), JSON.stringify(client));
  const connect = loc.functions.find((f) => f.id === 'app/client.py:connect');
  assert.ok(connect && !connect.matchedTerms?.includes('payload'), 'payload is only in send');
});
