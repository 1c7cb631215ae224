import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DatasetIssue } from '../../src/dataset/record.js';
import { DEFAULT_ISSUE_TEXT, detectBodyFormat, issueQueryText } from '../../src/eval/issue-text.js';
import { PAPER_TEXT_SETTINGS, textSettingsLabel, tokenizerFor } from '../../src/eval/text-settings.js';

const issue = (bodyRaw: string): DatasetIssue => ({
  id: 'X-1', title: 'Crash in ParserFactory', body: '', bodyRaw, type: 'Bug', category: 'Bug', created: null, resolved: null, labels: [],
});

test('body formats are recognised from their markup', () => {
  assert.equal(detectBodyFormat('<p>Hello <tt>Foo</tt></p>'), 'html');
  assert.equal(detectBodyFormat('h2. Steps\n{code:java}\nfoo();\n{code}'), 'jira-wiki');
  assert.equal(detectBodyFormat('Use {{Foo.bar()}} here'), 'jira-wiki');
  assert.equal(detectBodyFormat('## Steps\n```python\nfoo()\n```'), 'markdown');
  assert.equal(detectBodyFormat('plain words only, a < b and c > d'), 'text');
});

test('query text: title. body, with the code-block and formatting variants', () => {
  const wiki = 'See [the docs|http://example.org/docs] please.\n{code}\nparseTokens(stream);\n{code}';
  const keep = issueQueryText(issue(wiki), DEFAULT_ISSUE_TEXT);
  assert.ok(keep.startsWith('Crash in ParserFactory. '));
  assert.match(keep, /parseTokens\(stream\)/);
  const removed = issueQueryText(issue(wiki), { ...DEFAULT_ISSUE_TEXT, code: 'remove', formatting: 'remove-formatting' });
  assert.doesNotMatch(removed, /parseTokens/);
  assert.doesNotMatch(removed, /example\.org/, 'link targets dropped when formatting is removed');
  const marker = issueQueryText(issue(wiki), { ...DEFAULT_ISSUE_TEXT, code: 'marker' });
  assert.match(marker, /codeblock/);
  assert.equal(issueQueryText(issue('')), 'Crash in ParserFactory');
  const html = issueQueryText(issue('<p>The <tt>ParserFactory</tt> &amp; friends</p>'));
  assert.match(html, /The ParserFactory & friends/);
});

test('text settings: the paper setting lower-cases and stems without sub-tokens', () => {
  const t = tokenizerFor(PAPER_TEXT_SETTINGS);
  assert.deepEqual(t.tokenize('ParserFactory is running'), ['parserfactori', 'run']);
  const split = tokenizerFor({ ...PAPER_TEXT_SETTINGS, splitIdentifiers: true });
  assert.ok(split.tokenize('ParserFactory').includes('factori'));
  const cased = tokenizerFor({ lowercase: false, stem: false, splitIdentifiers: false });
  assert.deepEqual(cased.tokenize('ParserFactory'), ['ParserFactory']);
  assert.equal(textSettingsLabel(PAPER_TEXT_SETTINGS), 'lower+stem');
});
