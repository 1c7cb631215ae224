import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readIssues, detectIssueFormat } from '../../src/issues/read.js';
import { categorize, readTypeTable } from '../../src/issues/category.js';
import { toIsoDate } from '../../src/issues/dates.js';
import { tempFiles } from './tmp-files.js';
import { fixtureData } from '../fixtures/data.js';

const tmp = tempFiles();
after(() => tmp.remove());

test('github-json: gh CLI list and REST items; pull requests left out; type from issue type or label', () => {
  const gh = [
    { number: 12, title: 'Crash on start', body: '**Steps**\n`x`', labels: [{ name: 'bug' }], createdAt: '2021-02-03T04:05:06Z', closedAt: '2021-02-04T00:00:00Z', state: 'CLOSED', stateReason: 'COMPLETED' },
    { number: 13, title: 'Typed', body: null, labels: [], createdAt: '2021-02-03T04:05:06Z', closedAt: null, type: { name: 'Feature Request' } },
  ];
  const path = tmp.file('issues.json', JSON.stringify(gh));
  assert.equal(detectIssueFormat(path), 'github-json');
  const { issues } = readIssues(path);
  assert.deepEqual(issues.map((i) => [i.id, i.type, i.category, i.resolution]), [['12', 'bug', 'Bug', 'COMPLETED'], ['13', 'Feature Request', 'New Feature', '']]);
  assert.equal(issues[0].bodyFormat, 'markdown');
  assert.equal(issues[1].body, '');
  const rest = { items: [{ number: 5, title: 'PR', pull_request: {}, created_at: '2020-01-01T00:00:00Z' }, { number: 6, title: 'Issue', body: 'b', labels: ['question'], created_at: '2020-01-01T00:00:00Z', closed_at: '2020-01-02T00:00:00Z', state_reason: 'not_planned' }] };
  const r = readIssues(tmp.file('rest.json', JSON.stringify(rest)), { format: 'github-json' });
  assert.deepEqual(r.issues.map((i) => [i.id, i.resolution, i.resolved]), [['6', 'not_planned', '2020-01-02T00:00:00.000Z']]);
});

test('jsonl: the Tomcat slice reads with bug_id as id and the fixing commit', () => {
  const lines = readFileSync(fixtureData('tomcat.jsonl'), 'utf8').split('\n').slice(0, 2).join('\n');
  const path = tmp.file('tomcat.jsonl', lines);
  assert.equal(detectIssueFormat(path), 'jsonl');
  const { issues } = readIssues(path);
  assert.equal(issues[0].id, '56012');
  assert.match(issues[0].title, /^Bug 56012 wrong import statement/);
  assert.equal(issues[0].body, '');
  assert.equal(issues[0].created, '2014-01-15T07:30:17.000Z');
  assert.deepEqual(issues[0].fixCommits, ['42056be']);
  assert.equal(issues[0].category, 'Other');
});

test('jsonl: a line that is JSON but not an object, and a record without id, are named', () => {
  const path = tmp.file('plain.jsonl', '{"id":"1","title":"a"}\n[1,2]\n{"title":"no id"}\n');
  assert.throws(() => readIssues(path), /plain\.jsonl:2: not a JSON object/);
  const r = readIssues(path, { skipInvalid: true });
  assert.deepEqual(r.invalid.map((m) => m.slice(path.length)), [':2: not a JSON object', ':3: no issue id']);
});

test('category table: the paper\'s grouping, case-insensitive, and a file override merged over it', () => {
  assert.deepEqual(['Bug', 'defect', 'Sub-task', 'Suggestion', 'Feature Request', 'New Feature', 'Epic', 'Dependency upgrade', ''].map((t) => categorize(t)),
    ['Bug', 'Bug', 'Task', 'Improvement', 'New Feature', 'New Feature', 'Other', 'Other', 'Other']);
  const table = readTypeTable(tmp.file('types.json', '{"Story": "New Feature", "Defect": "Other"}'));
  assert.equal(categorize('story', table), 'New Feature');
  assert.equal(categorize('Defect', table), 'Other');
  assert.equal(categorize('Bug', table), 'Bug');
  assert.throws(() => readTypeTable(tmp.file('bad-types.json', '{"Story": "Feature"}')), /'Story' maps to "Feature"/);
});

test('dates: RFC 2822, ISO with and without zone, Jira REST offsets, epoch seconds, empty', () => {
  assert.equal(toIsoDate('Wed, 13 Apr 2011 02:34:34 +0200'), '2011-04-13T00:34:34.000Z');
  assert.equal(toIsoDate('2011-04-13T02:34:34.000+0000'), '2011-04-13T02:34:34.000Z');
  assert.equal(toIsoDate('2014-01-15 07:30:17'), '2014-01-15T07:30:17.000Z');
  assert.equal(toIsoDate('1389790000'), '2014-01-15T12:46:40.000Z');
  assert.equal(toIsoDate(''), null);
  assert.throws(() => toIsoDate('soon'), /unreadable date 'soon'/);
});
