// The docs' regression tables equal what bench/regressions/ says (npm run bench:tables writes them),
// and the table writer: layouts, reference rows, the mean column, markers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { IssuelocError } from '../../src/errors.js';
import { REGRESSIONS_DIR, ROOT, loadRegression, readRegression, regressionNames, type Regression } from '../../bench/lib/regressions.js';
import { docFiles, regressionTable, rewriteRegressionTables } from '../../bench/lib/regression-tables.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

const load = (name: string) => loadRegression(REGRESSIONS_DIR, name);

test('every regression table in README.md and docs/ matches bench/regressions/ (else: npm run bench:tables)', () => {
  let sections = 0;
  for (const file of docFiles()) {
    const text = readFileSync(file, 'utf8');
    const { text: rewritten, changed } = rewriteRegressionTables(text, relative(ROOT, file), load);
    assert.deepEqual(changed, [], `${relative(ROOT, file)}: tables differ from bench/regressions/: run npm run bench:tables`);
    assert.equal(rewritten, text);
    sections += text.match(/<!-- regression:/g)?.length ?? 0;
  }
  const results = readFileSync(join(ROOT, 'docs', 'results.md'), 'utf8');
  assert.match(results, /<!-- regression:swebench-lite-lexical,swebench-lite-model -->\n\n\| system \| file Acc@1\/3\/5 \| module Acc@5\/10 \| function Acc@5\/10 \| mean of 7 \|/);
  assert.match(results, /\| \*\*issueloc default\*\*: the built-in model, then the placement rules \| 63\.5 \/ 79\.2 \/ 85\.4 \| 71\.9 \/ 79\.9 \| 57\.7 \/ 65\.7 \| 71\.9 \|/);
  assert.ok(sections >= 1);
});

test('every file of bench/regressions/ reads, and its table rows name rows it expects', () => {
  const names = regressionNames(REGRESSIONS_DIR);
  assert.ok(names.includes('swebench-lite-lexical') && names.includes('swebench-lite-model'), names.join(', '));
  for (const name of names) {
    const reg = load(name);
    assert.ok(Object.keys(reg.expected).length > 0, `${name}: no expected values`);
    assert.ok(reg.command.includes('--json'), `${name}: the command must print --json`);
  }
});

/** A regression of two rows for the table writer (nothing is run). */
function regression(table: Regression['table'], expected: Regression['expected']): Regression {
  return {
    name: 'r', path: '/r.json', description: '', command: ['node', 'x.js'], dataset: { path: 'd', sha256: '0'.repeat(64) },
    repositories: [], evaluated: 2, tolerance: 0.01, expected, table,
  };
}

test('a levels table groups the cut-offs of a level; a metrics table has a column per metric and MRR to 3 decimals', () => {
  const expected = { lexical: { 'file Acc@1': 50, 'file Acc@5': 100, 'function Acc@10': 0, 'file MRR': 0.625 } };
  const levels = regression({ layout: 'levels', first: 'system', mean: 'mean', rows: [
    { label: 'published', metrics: { 'file Acc@1': 10, 'file Acc@5': 20, 'function Acc@10': 30, 'file MRR': 0.1 } },
    { row: 'lexical', label: '**ours**' },
  ] }, expected);
  assert.equal(regressionTable([levels]), [
    '| system | file Acc@1/5 | function Acc@10 | file MRR | mean |',
    '|---|---|---|---|---|',
    '| published | 10.0 / 20.0 | 30.0 | 0.100 | 15.0 |',
    '| **ours** | 50.0 / 100.0 | 0.0 | 0.625 | 37.7 |',
    '',
  ].join('\n'));
  const metrics = regression({ layout: 'metrics', first: 'configuration', rows: [{ row: 'lexical', label: 'lexical' }, { label: 'target', metrics: { 'file Acc@5': 82 } }] }, expected);
  assert.equal(regressionTable([metrics]), [
    '| configuration | file Acc@1 | file Acc@5 | function Acc@10 | file MRR |',
    '|---|---|---|---|---|',
    '| lexical | 50.0 | 100.0 | 0.0 | 0.625 |',
    '| target | – | 82.0 | – | – |',
    '',
  ].join('\n'));
});

test('a section is rewritten when its regression changes, and the text outside it is kept', () => {
  const reg = regression({ layout: 'levels', first: 'system', rows: [{ row: 'lexical', label: 'ours' }] }, { lexical: { 'file Acc@1': 50 } });
  const doc = 'intro\n\n<!-- regression:r -->\n\n| system | file Acc@1 |\n|---|---|\n| ours | 50.0 |\n\n<!-- /regression -->\n\nafter\n';
  assert.deepEqual(rewriteRegressionTables(doc, 'doc.md', () => reg), { text: doc, changed: [] });
  reg.expected.lexical['file Acc@1'] = 49.6;
  const { text, changed } = rewriteRegressionTables(doc, 'doc.md', () => reg);
  assert.deepEqual(changed, ['r']);
  assert.equal(text, doc.replace('| ours | 50.0 |', '| ours | 49.6 |'));
  assert.throws(() => rewriteRegressionTables('<!-- regression:r -->\n| x |\n', 'doc.md', () => reg),
    (e: unknown) => e instanceof IssuelocError && /doc\.md: 1 <!-- regression:… --> markers but 0 <!-- \/regression -->/.test(e.message));
});

test('a table row naming a row the regression does not expect is refused', () => {
  const raw = JSON.parse(readFileSync(join(REGRESSIONS_DIR, 'swebench-lite-model.json'), 'utf8')) as { table: { rows: unknown[] } };
  raw.table.rows.push({ row: 'no such row', label: 'x' });
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'bad-table.json'), JSON.stringify(raw));
    assert.throws(() => readRegression(join(dir, 'bad-table.json')), /bad-table\.json: table row 3 shows row "no such row", which "expected" does not hold/);
  } finally {
    cleanup(dir);
  }
});
