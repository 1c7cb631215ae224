// Minified code (every function on one line): each unit gets its own source text, not the whole
// line, and a huge file's units stay bounded (issue 12, item 8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { extractUnits, MAX_TEXT_OUTSIDE_UNIT, MAX_UNITS_PER_FILE } from '../../src/corpus/extract.js';
import { GitRepo } from '../../src/repo/git.js';
import { indexCommit } from '../../src/index/index-commit.js';
import { Localizer } from '../../src/retrieve/localize.js';
import { cleanup, commitFiles, tempDir } from '../repo/git-fixture.js';
import { minifiedJs } from './minified-js.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

test('a 3 MB one-line file holds more units than the cap: the first MAX_UNITS_PER_FILE are kept, the file unit keeps the whole text', async () => {
  const text = minifiedJs(3_000_000);
  const units = await extractUnits('web/app.js', text);
  assert.equal(units.length - 1, MAX_UNITS_PER_FILE);
  assert.equal(units[0].text, text);
});

test('a 1 MB one-line JavaScript file: each unit holds its own short, distinct text', async () => {
  const text = minifiedJs(1_000_000);
  assert.ok(text.length > 990_000 && !text.includes('\n'));
  const units = await extractUnits('web/app.js', text);
  assert.equal(units[0].kind, 'file');
  assert.equal(units[0].text, text, 'the file unit keeps the whole text');
  const inner = units.slice(1);
  assert.ok(inner.length > 20_000 && inner.length < MAX_UNITS_PER_FILE, `every unit of a 1 MB file is kept (${inner.length})`);
  assert.ok(inner.every((u) => u.startLine === 1 && u.endLine === 1));
  assert.ok(inner.every((u) => u.text.length < 100), `longest ${Math.max(...inner.map((u) => u.text.length))}`);
  assert.equal(new Set(inner.map((u) => `${u.qualifiedName}\t${u.text}`)).size, inner.length, 'distinct texts');
  const byName = new Map(inner.map((u) => [u.qualifiedName, u.text]));
  assert.equal(byName.get('f7'), 'function f7(a,b){var c=a+b;return c*7+"w7a"}');
  assert.equal(byName.get('g7'), 'var g7=function(x){return x.map(function(y){return y+"w7b"})};'.slice(0, -1), 'the declaration, from `var`');
  assert.equal(byName.get('K7.m7'), 'm7(a){return this.v+a+"w7d"}');
  assert.match(byName.get('K7') ?? '', /^class K7\{m7\(a\).*"w7e"\}\}$/);
});

test('formatted code keeps whole lines (indentation, trailing comment), as the SWE-bench protocol takes them', async () => {
  const src = 'class A:\n    @property\n    def x(self):  # getter\n        return 1  # one\n';
  const units = await extractUnits('a.py', src);
  assert.equal(units.find((u) => u.qualifiedName === 'A.x')?.text, '    @property\n    def x(self):  # getter\n        return 1  # one');
  // a long line outside the unit, below the threshold, still gives the line
  const pad = 'x'.repeat(MAX_TEXT_OUTSIDE_UNIT - 20);
  const js = await extractUnits('b.js', `var ${pad}=1;function f(){return 2}\n`);
  assert.equal(js[1].text, `var ${pad}=1;function f(){return 2}`);
  const longer = await extractUnits('b.js', `var ${pad}${pad}=1;function f(){return 2}\n`);
  assert.equal(longer[1].text, 'function f(){return 2}');
});

test('text outside the unit is measured in characters of the string (astral and accented characters)', async () => {
  const pad = '😀é'.repeat(MAX_TEXT_OUTSIDE_UNIT);
  const units = await extractUnits('c.js', `var s="${pad}";function g(){return "ü"}var t=1;\n`);
  assert.equal(units.find((u) => u.qualifiedName === 'g')?.text, 'function g(){return "ü"}');
});

test('indexing the 1 MB minified file ranks the function holding a word first', async () => {
  const dir = tempDir('issueloc-minified-');
  try {
    const commit = commitFiles(join(dir, 'repo'), { 'web/app.js': minifiedJs(1_000_000) });
    const repo = await GitRepo.open(join(dir, 'repo'));
    const { codeIndex } = await indexCommit(repo, commit, { cacheDir: join(dir, 'cache') });
    await repo.close();
    assert.ok(codeIndex.units.length > 1000 && codeIndex.units.length <= MAX_UNITS_PER_FILE);
    const l = new Localizer(codeIndex);
    const loc = l.localize(l.queryOf(parseIssue('w123a')), { top: 5 });
    assert.equal(loc.functions[0]?.id, 'web/app.js:f123', JSON.stringify(loc.functions));
    assert.ok(loc.functions[0].matchedTerms?.includes('w123a'));
    assert.ok(loc.functions.slice(1).every((f) => !f.matchedTerms?.includes('w123a')), 'no other function holds the word');
  } finally {
    cleanup(dir);
  }
});
