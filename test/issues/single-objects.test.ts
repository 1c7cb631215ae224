// One issue object is read as one issue wherever issue files are read, not as "0 issues"
// (issue 12, item 11); JSON lists and pretty-printed objects in .jsonl files too; issue files
// are read with a bound (item 14).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readIssues, detectIssueFormat } from '../../src/issues/read.js';
import { readIssueFile } from '../../src/issues/read-text.js';
import { IssuelocError } from '../../src/errors.js';
import { tempFiles } from './tmp-files.js';

const tmp = tempFiles();
after(() => tmp.remove());

const GH_VIEW = { number: 42, title: 'Crash on start', body: 'Stack `a.py`', labels: [{ name: 'bug' }], createdAt: '2021-02-03T04:05:06Z', closedAt: null, state: 'OPEN' };
const JIRA_ISSUE = { key: 'MNG-7', fields: { summary: 'Build fails', description: 'h2. Steps\n{code}mvn{code}', issuetype: { name: 'Bug' }, created: '2011-04-13T02:34:34.000+0000', resolutiondate: null } };

test('gh issue view --json: one GitHub object is one issue (pretty-printed as gh prints it too)', () => {
  for (const text of [JSON.stringify(GH_VIEW), JSON.stringify(GH_VIEW, null, 2)]) {
    const path = tmp.file('view.json', text);
    assert.equal(detectIssueFormat(path), 'github-json');
    const r = readIssues(path);
    assert.deepEqual(r.issues.map((i) => [i.id, i.title, i.type, i.created, i.origin]), [['42', 'Crash on start', 'bug', '2021-02-03T04:05:06.000Z', `${path}#0`]]);
  }
});

test('one Jira REST issue object is one issue', () => {
  const path = tmp.file('MNG-7.json', JSON.stringify(JIRA_ISSUE, null, 2));
  assert.equal(detectIssueFormat(path), 'jira-json');
  const r = readIssues(path);
  assert.deepEqual(r.issues.map((i) => [i.id, i.title, i.type, i.bodyFormat]), [['MNG-7', 'Build fails', 'Bug', 'jira-wiki']]);
  assert.match(r.issues[0].body, /Steps/);
  assert.doesNotMatch(r.issues[0].body, /h2\.|\{code\}/);
});

test('an object that is no issue and no list is an error, not 0 issues', () => {
  assert.throws(() => readIssues(tmp.file('other.json', '{"total": 0, "startAt": 0}')),
    (e: unknown) => e instanceof IssuelocError && /other\.json: neither a GitHub issue .* nor a list of issues/.test(e.message));
  assert.throws(() => readIssues(tmp.file('other2.json', '{"total": 0}'), { format: 'jira-json' }), /other2\.json: neither a Jira issue/);
  assert.deepEqual(readIssues(tmp.file('empty.json', '[]')).issues, [], 'an empty list is 0 issues');
});

test('.jsonl holding one pretty-printed object, or a JSON list, reads its objects', () => {
  const plain = { id: 'P-1', title: 'T', body: 'b' };
  const pretty = tmp.file('one.jsonl', JSON.stringify(plain, null, 2));
  assert.deepEqual(readIssues(pretty).issues.map((i) => [i.id, i.origin]), [['P-1', `${pretty}#0`]]);
  const list = tmp.file('list.jsonl', JSON.stringify([plain, { ...plain, id: 'P-2' }], null, 1));
  assert.deepEqual(readIssues(list).issues.map((i) => i.id), ['P-1', 'P-2']);
  const jira = tmp.file('jira.jsonl', JSON.stringify({ key: 'MNG-1', summary: 'S', description_html: '<p>x</p>', type: 'Bug' }, null, 2));
  assert.equal(detectIssueFormat(jira), 'jira-jsonl');
  assert.equal(readIssues(jira).issues[0].id, 'MNG-1');
  // JSONL as before: line origins
  const lines = tmp.file('lines.jsonl', `${JSON.stringify(plain)}\n${JSON.stringify({ ...plain, id: 'P-2' })}\n`);
  assert.deepEqual(readIssues(lines).issues.map((i) => i.origin), [`${lines}:1`, `${lines}:2`]);
});

test('a name without a known extension (a pipe, /dev/stdin) is told by its text, read once', () => {
  assert.equal(detectIssueFormat('/dev/fd/63', JSON.stringify(GH_VIEW)), 'github-json');
  assert.equal(detectIssueFormat('/dev/fd/63', JSON.stringify([GH_VIEW])), 'github-json');
  assert.equal(detectIssueFormat('/dev/fd/63', JSON.stringify(JIRA_ISSUE)), 'jira-json');
  assert.equal(detectIssueFormat('/dev/fd/63', JSON.stringify({ issues: [JIRA_ISSUE] })), 'jira-json');
  assert.equal(detectIssueFormat('/dev/fd/63', `${JSON.stringify({ id: 'P-1', title: 'T' })}\n${JSON.stringify({ id: 'P-2', title: 'U' })}\n`), 'jsonl');
  assert.equal(detectIssueFormat('/dev/fd/63', '<rss><channel></channel></rss>'), 'jira-xml');
  assert.throws(() => detectIssueFormat('/dev/fd/63', 'Summary,Key\n'), /cannot tell the format of \/dev\/fd\/63/);
  const noExt = tmp.file('issues', JSON.stringify(GH_VIEW));
  assert.deepEqual(readIssues(noExt).issues.map((i) => i.id), ['42']);
});

test('issue files are read with a bound: /dev/zero is refused, not read for ever', () => {
  assert.throws(() => readIssueFile('/dev/zero', 1 << 16), (e: unknown) => e instanceof IssuelocError && e.message === '/dev/zero: over 64 KiB, the most read as one text');
  assert.throws(() => readIssueFile('/nonexistent/x.json'), /cannot read \/nonexistent\/x\.json/);
});
