import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractUnits, extractUnitSpans } from '../../src/corpus/extract.js';
import { bodyTerms } from '../../src/index/code-index.js';
import { tokenize } from '../../src/text/tokenize.js';
import { isSpace, UnitBodyCounter, type BodyRange } from '../../src/index/unit-bodies.js';

/** A small deterministic generator (tests repeat). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ['def', ' ', '\n', '\t', 'parseHTTPServer', 'GitHub_token_v2', '__init__', 'x', '_', '(', ')', ':', 'café', '\u00a0', '\u2003', '\ufeff',
  '\u0085', '\u180e', '\u200b', '\u3000', 'the', 'running', 'BM25F', '9', 'snake_case_name', '  ', '.', 'self', '\r', '\v', '\x1c'];

test('every \\s character is a space to isSpace and no other character is', () => {
  for (let c = 0; c < 0x10000; c++) assert.equal(isSpace(c), /\s/.test(String.fromCharCode(c)), `char ${c.toString(16)}`);
});

test('the body terms of ranges of a text are bodyTerms of their slices (cut, stem, ranges inside words)', () => {
  const next = rng(7);
  for (const stem of [false, true]) {
    const counter = new UnitBodyCounter(stem);
    for (let round = 0; round < 300; round++) {
      let text = '';
      const n = Math.floor(next() * 80);
      for (let i = 0; i < n; i++) text += PIECES[Math.floor(next() * PIECES.length)];
      const ranges: BodyRange[] = [{ from: 0, to: text.length, maxWords: 0 }];
      for (let k = 0; k < 6; k++) {
        const a = Math.floor(next() * (text.length + 1));
        const b = a + Math.floor(next() * (text.length - a + 1));
        ranges.push({ from: a, to: b, maxWords: Math.floor(next() * 6) });
      }
      const got = counter.unitBodies(text, ranges);
      ranges.forEach((r, i) => assert.deepEqual({ body: [...got[i].body], bodyLength: got[i].bodyLength }, bodyTerms(text.slice(r.from, r.to), r.maxWords, stem), JSON.stringify({ text, r })));
      assert.equal(JSON.stringify(got.map((g) => g.body)), JSON.stringify(ranges.map((r) => bodyTerms(text.slice(r.from, r.to), r.maxWords, stem).body)));
    }
  }
});

test('the name terms of a qualified name are the counts of its tokens, in first-seen order, by the body\'s dictionary', () => {
  const next = rng(11);
  for (const stem of [false, true]) {
    const counter = new UnitBodyCounter(stem);
    const [body] = counter.unitBodies('parse_token running', [{ from: 0, to: 19, maxWords: 0 }]);
    for (let round = 0; round < 300; round++) {
      let name = '';
      const n = Math.floor(next() * 12);
      for (let i = 0; i < n; i++) name += PIECES[Math.floor(next() * PIECES.length)];
      const got = counter.nameTerms(name);
      const want = new Map<string, number>();
      for (const t of tokenize(name, { stem })) want.set(t, (want.get(t) ?? 0) + 1);
      assert.deepEqual([...got], [...want], JSON.stringify(name));
      assert.equal(got.terms, body.body.terms);
    }
  }
});

test('the spans of a file\'s units are where extractUnits takes their text from', async () => {
  const text = 'import os\n\n@decorator\nclass A(Base):\n    """Doc."""\n    def run(self, x):\n        return x\n\n\ndef top():\n    pass\n';
  const units = await extractUnits('pkg/a.py', text);
  const spans = await extractUnitSpans('pkg/a.py', text);
  assert.equal(spans.length, 4);
  assert.deepEqual(spans.map((s) => text.slice(s.from, s.to)), units.map((u) => u.text));
  assert.deepEqual(spans.map((s) => [s.kind, s.qualifiedName, s.startLine, s.endLine]), units.map((u) => [u.kind, u.qualifiedName, u.startLine, u.endLine]));
});
