// Hostile issue documents (issue 31, F8): a Jira API v3 description nested thousands deep is bad
// input (IssuelocError naming the source), never a stack overflow.
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
