import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_TITLE_WEIGHT, queryTermsOf, titleOf } from '../../src/retrieve/query.js';

test('query terms: counts, plus the title weight for each token of the first line', () => {
  const text = '\n  StatReloader misses changes\nThe reloader skips manage.py; changes are lost.';
  assert.equal(titleOf(text), 'StatReloader misses changes');
  const plain = queryTermsOf(text, { stem: false, titleWeight: 0 });
  assert.equal(plain.get('changes'), 2);
  assert.equal(plain.get('reloader'), 2, 'from StatReloader and from the body');
  const q = queryTermsOf(text, { stem: false });
  assert.equal(q.get('changes'), 2 + DEFAULT_TITLE_WEIGHT);
  assert.equal(q.get('statreloader'), 1 + DEFAULT_TITLE_WEIGHT, 'the whole identifier is a title token too');
  assert.equal(q.get('manage'), 1, 'body-only tokens keep their count');
  assert.equal(queryTermsOf('', { stem: false }).size, 0);
  assert.equal(titleOf('x'.repeat(1000)).length, 300);
});
