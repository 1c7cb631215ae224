import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryField, historyFieldScores } from '../../src/history/history-field.js';
import { RepoHistory } from '../../src/history/repo-history.js';
import { fixtureRepo, type Fixture, type FixtureCommit } from '../repo/fixture-repo.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

// a side branch X (not an ancestor of D) and a later commit E both name the answer
const commits: FixtureCommit[] = [
  { id: 'A', message: 'initial import', files: { 'pkg/a.py': 'a = 1\n', 'pkg/b.py': 'b = 1\n', 'pkg/c.py': 'c = 1\n' }, day: 0 },
  { id: 'B', parents: ['A'], message: 'Handle unicode filenames in the archive reader', files: { 'pkg/a.py': 'a = 2\n' }, day: 10 },
  { id: 'C', parents: ['B'], message: 'Speed up the tokenizer cache', files: { 'pkg/b.py': 'b = 2\n' }, day: 20 },
  { id: 'X', parents: ['B'], message: 'Timezone offsets are lost by the serializer', files: { 'pkg/c.py': 'c = 9\n' }, day: 25 },
  { id: 'D', parents: ['C'], message: 'Tokenizer drops trailing newline', files: { 'pkg/b.py': 'b = 3\n' }, day: 30 },
  { id: 'E', parents: ['D'], message: 'Timezone offsets are lost by the serializer', files: { 'pkg/c.py': 'c = 2\n' }, day: 40 },
];

let fx: Fixture;
let h: RepoHistory;
before(async () => {
  fx = fixtureRepo(commits);
  h = await RepoHistory.open(fx.dir, [fx.sha('E'), fx.sha('X')]);
});
after(() => fx.remove());

test('history field: BM25 of the issue against the messages of the commits that changed each file', () => {
  const s = historyFieldScores(h, fx.sha('D'), parseIssue('the tokenizer cache is slow; archive?'));
  assert.ok((s.get('pkg/b.py') ?? 0) > (s.get('pkg/a.py') ?? 0), 'two tokenizer words and cache beat one archive word');
  assert.ok((s.get('pkg/a.py') ?? 0) > 0);
  // the same commit's scores on a second call (memoised field) are the same
  assert.deepEqual(historyFieldScores(h, fx.sha('D'), parseIssue('the tokenizer cache is slow; archive?')), s);
});

test('history field leakage guard: a later commit or another branch never enters the field at a base commit', () => {
  const issue = 'Timezone offsets lost when the serializer writes dates';
  assert.equal(historyFieldScores(h, fx.sha('D'), parseIssue(issue)).get('pkg/c.py'), undefined, 'E is after D, X on another branch');
  assert.ok((historyFieldScores(h, fx.sha('E'), parseIssue(issue)).get('pkg/c.py') ?? 0) > 0, 'at E itself its message counts');
});

test('history field: only the most recent `commits` messages of a file count', () => {
  const log = h.log;
  const field = new HistoryField(log, (c) => log.ancestorsOf(c), { commits: 1 });
  // b.py's latest commit is D (tokenizer newline); C's "cache" has dropped out of the field
  assert.equal(field.scores(fx.sha('D'), parseIssue('cache')).get('pkg/b.py'), undefined);
  assert.ok((field.scores(fx.sha('D'), parseIssue('newline')).get('pkg/b.py') ?? 0) > 0);
  assert.ok((field.scores(fx.sha('C'), parseIssue('cache')).get('pkg/b.py') ?? 0) > 0);
  assert.throws(() => field.scores('f'.repeat(40), parseIssue('cache')), /not in the history log/);
});
