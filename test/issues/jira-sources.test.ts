import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readIssues, detectIssueFormat } from '../../src/issues/read.js';
import { IssuelocError } from '../../src/errors.js';
import { tempFiles } from './tmp-files.js';
import { fixtureData } from '../fixtures/data.js';

const tmp = tempFiles();
after(() => tmp.remove());

test('jira-jsonl: a slice of the Maven Jira bugs reads with HTML bodies cleaned, dates in ISO, type category', () => {
  const lines = readFileSync(fixtureData('maven-mng.jsonl'), 'utf8').split('\n').slice(0, 3).join('\n');
  const path = tmp.file('maven.jsonl', lines);
  assert.equal(detectIssueFormat(path), 'jira-jsonl');
  const { issues, format } = readIssues(path);
  assert.equal(format, 'jira-jsonl');
  assert.equal(issues.length, 3);
  const i = issues[0];
  assert.equal(i.id, 'MNG-5064');
  assert.equal(i.type, 'Bug');
  assert.equal(i.category, 'Bug');
  assert.equal(i.resolution, 'Fixed');
  assert.equal(i.created, '2011-04-13T02:34:34.000Z');
  assert.equal(i.resolved, '2011-07-27T05:29:17.000Z');
  assert.equal(i.bodyFormat, 'html');
  assert.match(i.bodyRaw, /<p>/);
  assert.doesNotMatch(i.body, /<p>|<span/);
  assert.match(i.body, /mvn -nsu clean install/);
  assert.equal(i.origin, `${path}:1`);
});

test('jira-jsonl: a corrupt line fails naming file and line, or is skipped and counted', () => {
  const path = tmp.file('bad.jsonl', '{"key":"MNG-1","summary":"a","description_html":"<p>x</p>"}\n{"key": "MNG-2", oops\n\n{"key":"MNG-3","summary":"c","description_html":""}\n');
  assert.throws(() => readIssues(path), (e: unknown) => e instanceof IssuelocError && e.message.startsWith(`${path}:2: not valid JSON`));
  const r = readIssues(path, { skipInvalid: true });
  assert.deepEqual(r.issues.map((i) => i.id), ['MNG-1', 'MNG-3']);
  assert.equal(r.invalid.length, 1);
  assert.match(r.invalid[0], /:2: /);
});

test('jira-jsonl: a duplicate id and an unreadable date are record errors', () => {
  const dup = tmp.file('dup.jsonl', '{"key":"MNG-1","summary":"a","description_html":""}\n{"key":"MNG-1","summary":"b","description_html":""}\n');
  assert.throws(() => readIssues(dup), /dup\.jsonl:2: duplicate issue id MNG-1 \(first at .*dup\.jsonl:1\)/);
  const date = tmp.file('date.jsonl', '{"key":"MNG-1","summary":"a","description_html":"","created":"yesterday-ish"}\n');
  assert.throws(() => readIssues(date), /date\.jsonl:1: unreadable date 'yesterday-ish'/);
});

test('jira-json: REST search pages with wiki bodies, nested names, resolution date', () => {
  const doc = {
    startAt: 0,
    issues: [
      { key: 'AVRO-7', fields: { summary: 'Schema fails', description: 'h2. Steps\n{code}x = 1{code}', issuetype: { name: 'Improvement' }, status: { name: 'Resolved' }, resolution: { name: 'Fixed' }, created: '2011-04-13T02:34:34.000+0000', resolutiondate: '2011-04-14T10:00:00.000-0200', labels: ['java'] } },
      { key: 'AVRO-8', fields: { summary: 'ADF body', description: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'hello' }] }] }, issuetype: { name: 'Wish' }, resolution: null, created: '2011-04-13T02:34:34.000+0000' } },
    ],
  };
  const path = tmp.file('search.json', JSON.stringify([doc]));
  assert.equal(detectIssueFormat(path), 'jira-json');
  const { issues } = readIssues(path);
  assert.deepEqual(issues.map((i) => [i.id, i.category, i.resolution]), [['AVRO-7', 'Improvement', 'Fixed'], ['AVRO-8', 'Other', '']]);
  assert.equal(issues[0].bodyFormat, 'jira-wiki');
  assert.equal(issues[0].resolved, '2011-04-14T12:00:00.000Z');
  assert.deepEqual(issues[0].labels, ['java']);
  assert.equal(issues[1].body, 'hello');
  assert.throws(() => readIssues(tmp.file('broken.json', '{"issues": [')), /broken\.json: not valid JSON/);
});

test('jira-xml: RSS export items with attributes, escaped HTML description and labels', () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="0.92"><channel><title>Jira</title>
<item><title>[MNG-10] Broken thing</title><key id="1">MNG-10</key><summary>Broken thing</summary>
<type id="1" iconUrl="x">Bug</type><status id="6">Closed</status><resolution id="1">Fixed</resolution>
<created>Wed, 13 Apr 2011 02:34:34 +0000</created><resolved>Thu, 14 Apr 2011 02:34:34 +0100</resolved>
<description>&lt;p&gt;Fails in &lt;tt&gt;Foo.bar()&lt;/tt&gt; &amp;amp; more&lt;/p&gt;</description>
<labels><label>core</label><label>regression</label></labels></item>
<item><key id="2">MNG-11</key><summary>Second</summary><type>New Feature</type><created>Wed, 13 Apr 2011 02:34:34 +0000</created><description></description></item>
</channel></rss>`;
  const path = tmp.file('export.xml', xml);
  const { issues } = readIssues(path);
  assert.deepEqual(issues.map((i) => [i.id, i.title, i.type, i.category]), [['MNG-10', 'Broken thing', 'Bug', 'Bug'], ['MNG-11', 'Second', 'New Feature', 'New Feature']]);
  assert.equal(issues[0].resolved, '2011-04-14T01:34:34.000Z');
  assert.deepEqual(issues[0].labels, ['core', 'regression']);
  assert.match(issues[0].body, /Fails in Foo\.bar\(\) & more/);
  assert.throws(() => readIssues(tmp.file('bad.xml', '<rss><channel><item></channel></rss>')), /bad\.xml:1: not valid XML/);
});

test('jira-csv: repeated Labels columns, quoted multi-line description, Jira CSV dates', () => {
  const csv = 'Summary,Issue key,Issue Type,Status,Resolution,Created,Resolved,Description,Labels,Labels\n' +
    '"Crash, sometimes",TIKA-5,Sub-task,Closed,Fixed,13/Apr/11 2:34 PM,14/Apr/11 9:05 AM,"line one\n*bold* line two",parser,pdf\n' +
    'Other,TIKA-6,Test,Open,,01/Jan/20 12:00 AM,,,,\n';
  const path = tmp.file('export.csv', csv);
  const { issues } = readIssues(path);
  assert.deepEqual(issues.map((i) => [i.id, i.title, i.category]), [['TIKA-5', 'Crash, sometimes', 'Task'], ['TIKA-6', 'Other', 'Other']]);
  assert.equal(issues[0].created, '2011-04-13T14:34:00.000Z');
  assert.equal(issues[1].created, '2020-01-01T00:00:00.000Z');
  assert.deepEqual(issues[0].labels, ['parser', 'pdf']);
  assert.equal(issues[0].bodyRaw, 'line one\n*bold* line two');
  assert.equal(issues[0].origin, `${path}:3`);
  assert.throws(() => readIssues(tmp.file('nokey.csv', 'Summary,Key\na,b\n')), /no 'Issue key' column/);
});
