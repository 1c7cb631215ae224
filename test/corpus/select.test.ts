import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectSources } from '../../src/corpus/select.js';

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
  assert.deepEqual(all.skipped, { nonSource: 1, otherLanguages: 0, vendored: 2, tests: 1, tooLarge: 1 });
  const py = selectSources(entries, { languages: ['python'], includeTests: true });
  assert.deepEqual(py.sources.map((s) => s.entry.path), ['src/app.py', 'tests/test_app.py']);
  assert.equal(py.skipped.otherLanguages, 2, 'main.ts and jquery.js');
});
