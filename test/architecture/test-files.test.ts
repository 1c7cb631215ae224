// `npm test` runs `dist/test/*.test.js dist/test/*/*.test.js`, not the whole of dist/test/: node 20
// would run every module under a `test` folder as a test file, helpers too (one process each, for
// nothing). This keeps every test file where that pattern finds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

test('every test file is test/X.test.ts or test/DIR/X.test.ts, the depths npm test runs', () => {
  const files = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  assert.ok(files.length > 100, `only ${files.length} test files found`);
  assert.deepEqual(files.filter((f) => f.split(/[\\/]/).length > 2), [], 'test files too deep for the pattern of npm test');
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.test;
  assert.match(script, / dist\/test\/\*\.test\.js dist\/test\/\*\/\*\.test\.js$/);
});
