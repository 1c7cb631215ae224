import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findInlineCodeNames } from '../../src/text/mentions.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';

test('inline code spans give their identifiers; dotted names also their last part', () => {
  const text = 'Calling `simplify` on ``Model.save()`` fails.\n```python\nnot_inline()\n```\n';
  assert.deepEqual(findInlineCodeNames(text), ['simplify', 'Model.save', 'save']);
  assert.deepEqual(extractIssueSignals(text).inlineCode, ['simplify', 'Model.save', 'save']);
});

test('no backticks, no names; an unclosed backtick is not a span', () => {
  assert.deepEqual(findInlineCodeNames('plain words only'), []);
  assert.deepEqual(findInlineCodeNames('a lone ` backtick\nand `another'), []);
});
