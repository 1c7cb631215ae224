import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstWords } from '../../src/text/first-words.js';

test('firstWords keeps the text up to the end of the n-th word, with the white space inside', () => {
  assert.equal(firstWords('  fix  the\ncrash in parser', 3), '  fix  the\ncrash');
  assert.equal(firstWords('one two', 5), 'one two');
  assert.equal(firstWords('', 2), '');
});
