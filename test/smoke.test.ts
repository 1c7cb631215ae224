import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IssuelocError } from '../src/errors.js';

test('IssuelocError carries an exit code', () => {
  const e = new IssuelocError('bad input: x');
  assert.equal(e.exitCode, 2);
  assert.equal(e.message, 'bad input: x');
});
