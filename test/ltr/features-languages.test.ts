// The language-aware feature groups of the learned ranker: language family, Go/Rust module files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { FeatureExtractor } from '../../src/ltr/features/extract.js';
import { FEATURES, type FeatureName } from '../../src/ltr/features/registry.js';
import { moduleNameOf } from '../../src/ltr/features/path-facts.js';
import { DEFAULT_CANDIDATES } from '../../src/ltr/train.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const unit = (kind: 'function' | 'class', qualifiedName: string, words: string[]): UnitTerms => ({
  kind, qualifiedName, startLine: 1, endLine: 4,
  body: [...words.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>())], bodyLength: words.length,
});

function extract(files: { path: string; units: UnitTerms[] }[], text: string) {
  const ci = buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
  const set = new FeatureExtractor(ci, DEFAULT_CANDIDATES).extract(parseIssue(text));
  const at = (id: string, name: FeatureName) => {
    const i = set.ids.indexOf(id);
    assert.ok(i >= 0, `${id} is a candidate (${set.ids.join(', ')})`);
    return set.features[i * FEATURES.length + FEATURES.indexOf(name)];
  };
  return { ci, set, at };
}

test('language family: one column per family, the share of the top candidates in it', () => {
  const { at } = extract([
    { path: 'lib/parse.py', units: [unit('function', 'parse_header', ['header', 'parse'])] },
    { path: 'src/Parser.java', units: [unit('class', 'Parser', ['header']), unit('function', 'Parser.parseHeader', ['header', 'parse'])] },
    { path: 'src/parse.c', units: [unit('function', 'parse_header', ['header', 'parse'])] },
  ], 'parse header fails');
  assert.equal(at('lib/parse.py:parse_header', 'langPython'), 1);
  assert.equal(at('lib/parse.py:parse_header', 'langJvm'), 0);
  assert.equal(at('src/Parser.java:Parser.parseHeader', 'langJvm'), 1);
  assert.equal(at('src/parse.c:parse_header', 'langC'), 1);
  assert.ok(Math.abs(at('src/parse.c:parse_header', 'languageShare') - 1 / 3) < 1e-6, 'one of the three candidates is C');
});

test('Go and Rust module files: package folder, module file, mod.rs, crate roots, doc.go', () => {
  assert.equal(moduleNameOf('rest/httpx/util.go'), 'httpx');
  assert.equal(moduleNameOf('src/printer.rs'), 'printer');
  assert.equal(moduleNameOf('src/de/mod.rs'), 'de');
  assert.equal(moduleNameOf('crates/grep-regex/src/lib.rs'), 'grep_regex');
  assert.equal(moduleNameOf('src/Main.java'), '');
  const { at } = extract([
    { path: 'rest/httpx/util.go', units: [unit('function', 'ParseForm', ['form', 'parse'])] },
    { path: 'rest/httpx/doc.go', units: [unit('function', 'helper', ['form'])] },
    { path: 'core/mapping/unmarshal.go', units: [unit('function', 'parse', ['form', 'parse'])] },
  ], 'httpx.ParseForm drops the form values');
  assert.equal(at('rest/httpx/util.go:ParseForm', 'moduleNamed'), 1);
  assert.equal(at('core/mapping/unmarshal.go:parse', 'moduleNamed'), 0);
  assert.equal(at('rest/httpx/doc.go:helper', 'isDocGo'), 1);
  assert.equal(at('rest/httpx/util.go:ParseForm', 'isDocGo'), 0);
  assert.equal(at('rest/httpx/doc.go:helper', 'folderBest'), at('rest/httpx/util.go:ParseForm', 'folderBest'), 'one folder, one best');
});
