import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSourceFile, notSourceReason, selectSources } from '../../src/corpus/select.js';
import { candidateFileFilter } from '../../src/dataset/source-files.js';

const entry = (path: string, size = 10) => ({ path, mode: '100644', blob: 'x'.repeat(40), size });

test('selectSources keeps code, counts docs, vendored, tests, other languages and big files', () => {
  const entries = [
    entry('src/app.py'),
    entry('README.md'),
    entry('static/vendor/jquery.js'),
    entry('pip/_vendor/six.py'),
    entry('tests/test_app.py'),
    entry('web/main.ts'),
    entry('src/huge.py', 5_000_000),
  ];
  const all = selectSources(entries);
  assert.deepEqual(all.sources.map((s) => s.entry.path), ['src/app.py', 'web/main.ts']);
  assert.deepEqual(all.skipped, { nonSource: 1, otherLanguages: 0, vendored: 2, tests: 1, tooLarge: 1, buildOutput: 0 });
  const py = selectSources(entries, { languages: ['python'], includeTests: true });
  assert.deepEqual(py.sources.map((s) => s.entry.path), ['src/app.py', 'tests/test_app.py']);
  assert.equal(py.skipped.otherLanguages, 2, 'main.ts and jquery.js');
});

test('isSourceFile: one rule, options in the order of checks; the index and the dataset differ only by their options', () => {
  const rule = { includeTests: false, includeVendored: false };
  assert.equal(notSourceReason('README.md', rule), 'nonSource');
  assert.equal(notSourceReason('web/main.ts', { ...rule, languages: ['python'] }), 'otherLanguages');
  assert.equal(notSourceReason('pip/_vendor/test_six.py', rule), 'vendored', 'vendored is checked before tests');
  assert.equal(notSourceReason('tests/test_app.py', rule), 'tests');
  assert.equal(notSourceReason('src/app.py', { ...rule, maxFileBytes: 10 }, 11), 'tooLarge');
  assert.equal(isSourceFile('src/app.py', { ...rule, maxFileBytes: 10 }), true, 'no size given: the cap is not checked');
  assert.equal(isSourceFile('pip/_vendor/six.py', { ...rule, includeVendored: true }), true);
  // dataset mining and eval: vendored folders and (by default) tests are candidates; the index leaves both out
  const candidate = candidateFileFilter();
  assert.deepEqual(['pip/_vendor/six.py', 'tests/test_app.py', 'src/app.py', 'README.md'].map(candidate), [true, true, true, false]);
  assert.deepEqual(['tests/test_app.py', 'src/app.py'].map(candidateFileFilter(false)), [false, true]);
  const index = selectSources([entry('pip/_vendor/six.py'), entry('tests/test_app.py'), entry('src/app.py')]);
  assert.deepEqual(index.sources.map((s) => s.entry.path), ['src/app.py']);
});
