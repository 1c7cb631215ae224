import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customPattern, githubPattern, jiraPattern, linksOf } from '../../src/dataset/links.js';

const MNG = [jiraPattern(['MNG'])];

test('Jira keys: first line only, word boundaries, several per commit, ids normalised', () => {
  assert.deepEqual(linksOf('[MNG-5064] fix -nsu; see also MNG-012\n\nMNG-99 in the body', MNG).ids, ['MNG-5064', 'MNG-12']);
  assert.deepEqual(linksOf('XMNG-1 and MNG-2a and MNG-3_ and MNGX-4', MNG).ids, []);
  assert.deepEqual(linksOf('mng-7 lower case', MNG).ids, []);
  assert.deepEqual(linksOf('mng-7 lower case', [jiraPattern(['MNG'], true)]).ids, ['MNG-7']);
  assert.deepEqual(linksOf('MNG-1 and MNG-1 again, MNG-2', MNG).ids, ['MNG-1', 'MNG-2']);
  assert.deepEqual(linksOf('AVRO-1 THRIFT-22 x', [jiraPattern()]).ids, ['AVRO-1', 'THRIFT-22']);
});

test('GitHub references: #N, GH-N, fixes #N; not owner/repo#N nor HTML entities', () => {
  const gh = [githubPattern()];
  assert.deepEqual(linksOf('Fix crash (fixes #12, closes GH-0034)', gh).ids, ['12', '34']);
  assert.deepEqual(linksOf('See psf/requests#77 and &#123; and abc#5', gh).ids, []);
  assert.deepEqual(linksOf('#8: start of line', gh).ids, ['8']);
});

test('reverts: keys after the revert word are not links; a git revert links nothing', () => {
  const plain = linksOf('Revert "[MNG-8563] Provide a weak cache (#2087)"\n\nThis reverts commit 0123456789abcdef.', MNG);
  assert.deepEqual(plain, { ids: [], revert: true, revertedIds: ['MNG-8563'] });
  const fix = linksOf('[MNG-7634] Revert MNG-5982 and MNG-7417', MNG);
  assert.deepEqual(fix, { ids: ['MNG-7634'], revert: true, revertedIds: ['MNG-5982', 'MNG-7417'] });
  const body = linksOf('[MNG-1] undo the change\n\nThis reverts commit abcdef1234.', MNG);
  assert.deepEqual(body, { ids: [], revert: true, revertedIds: ['MNG-1'] });
  assert.equal(linksOf('[MNG-2] Reverse the order', MNG).revert, false);
});

test('custom patterns: first group is the id, else the whole match; bad patterns are named', () => {
  assert.deepEqual(linksOf('Fix BZ 56012 and bz 1', [customPattern('\\b[Bb][Zz] (\\d+)')]).ids, ['56012', '1']);
  assert.deepEqual(linksOf('ticket T42 done', [customPattern('T\\d+')]).ids, ['T42']);
  assert.throws(() => customPattern('('), /invalid link pattern '\('/);
  assert.throws(() => customPattern('x*'), /matches the empty string/);
});
