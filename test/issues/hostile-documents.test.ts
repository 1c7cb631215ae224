// Hostile issue documents (issue 31, F8, F9): a Jira API v3 description nested thousands deep,
// Jira XML with an external, oversized or deeply nested entity: bad input (IssuelocError naming
// the source), never a stack overflow or a parser error, and an external entity is never read.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { IssuelocError } from '../../src/errors.js';
import { adfText, MAX_ADF_DEPTH } from '../../src/issues/jira-json.js';
import { readIssues } from '../../src/issues/read.js';
import { readSingleIssue } from '../../src/issues/single-issue.js';
import { tempFiles } from './tmp-files.js';

const tmp = tempFiles();
after(() => tmp.remove());

/** A Jira REST issue whose description nests `depth` paragraphs (as text: JSON.stringify overflows first). */
function deepIssue(depth: number): string {
  const desc = `{"type":"doc","content":[${'{"type":"paragraph","content":['.repeat(depth)}{"type":"text","text":"deep words"}${']}'.repeat(depth)}]}`;
  return `{"key":"X-1","fields":{"summary":"Deep","description":${desc}}}`;
}

const isInputError = (source: RegExp) => (e: unknown) => e instanceof IssuelocError && e.exitCode === 2 && source.test(e.message) && /nests deeper than/.test(e.message);

test('adfText: paragraphs, headings and list items on their lines, walked without recursion', () => {
  const doc = { type: 'doc', content: [
    { type: 'heading', content: [{ type: 'text', text: 'Title' }] },
    { type: 'paragraph', content: [{ type: 'text', text: 'a ' }, { type: 'text', text: 'b' }] },
    { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'text', text: 'one' }] }, { type: 'listItem', content: [{ type: 'text', text: 'two' }] }] },
    null, 'x', { type: 'paragraph' },
  ] };
  assert.equal(adfText(doc), 'Title\n\na b\n\none\n\ntwo\n\n\n\n\n', 'as the recursive walk read it');
  assert.equal(adfText({ type: 'text', text: 'plain' }), 'plain');
  assert.equal(adfText(null), '');
  const nested = JSON.parse(deepIssue(MAX_ADF_DEPTH - 2)) as { fields: { description: unknown } };
  assert.match(adfText(nested.fields.description), /^deep words\n+$/, 'a document just within the cap is read');
});

test('a Jira issue nested 4,000 deep: one input error naming the source, from localize, the web page and the issue files', () => {
  assert.throws(() => readSingleIssue(deepIssue(4000), 'auto', 'deep.json'), isInputError(/^issue \(from deep\.json\): /));
  assert.throws(() => readSingleIssue(deepIssue(4000), 'jira', 'stdin'), isInputError(/from stdin/));
  const path = tmp.file('deep.json', deepIssue(4000));
  assert.throws(() => readIssues(path), isInputError(/deep\.json#0: /));
  const skipped = readIssues(path, { skipInvalid: true });
  assert.equal(skipped.issues.length, 0);
  assert.match(skipped.invalid[0], /deep\.json#0: .*nests deeper than/);
});

const xml = (doctype: string, summary: string, description = 'text') => `<?xml version="1.0"?>\n${doctype}\n<rss><channel><item><key>X-1</key><summary>${summary}</summary><description>${description}</description></item></channel></rss>\n`;

test('Jira XML: an external entity is refused unread; an oversized entity or deep nesting is bad input naming the file', () => {
  const secret = tmp.file('secret.txt', 'TOP-SECRET-LINE\n');
  const cases: [string, string, RegExp][] = [
    ['external.xml', xml(`<!DOCTYPE rss [ <!ENTITY x SYSTEM "file://${secret}"> ]>`, 'a &x;'), /external\.xml: not a readable Jira XML export \(External entities/],
    ['big.xml', xml(`<!DOCTYPE rss [ <!ENTITY big "${'y'.repeat(50_000)}"> ]>`, 'a &big;'), /big\.xml: not a readable Jira XML export \(Entity "big" size/],
    ['nested.xml', xml('', 'deep', `${'<d>'.repeat(4000)}x${'</d>'.repeat(4000)}`), /nested\.xml: not a readable Jira XML export \(Maximum nested tags/],
  ];
  for (const [name, text, message] of cases) {
    assert.throws(() => readIssues(tmp.file(name, text)), (e: unknown) => e instanceof IssuelocError && e.exitCode === 2 && message.test(e.message) && !e.message.includes('TOP-SECRET'), name);
  }
  const small = readIssues(tmp.file('small.xml', xml('<!DOCTYPE rss [ <!ENTITY who "the cart"> ]>', 'Fix &who;')));
  assert.equal(small.issues[0].title, 'Fix the cart', 'a small internal entity is expanded');
});
