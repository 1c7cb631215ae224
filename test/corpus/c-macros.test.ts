import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskCMacros } from '../../src/corpus/c-macros.js';
import { extractorOf } from '../../src/corpus/extract.js';

test('maskCMacros: macros become spaces, every line and column kept', () => {
  const text = [
    '#ifdef X',
    'class EXPORT Gadget : Base {',
    '  int f() const FMT_NOEXCEPT { return 1; }',
    '#else',
    'class Other {',
    '#endif',
    '};',
    'FMT_BEGIN_NAMESPACE',
    'static JV_ATTR int g(void);',
    '#define LONG(a) \\',
    '  (a)',
    'int x = MAX;',
  ].join('\n');
  const masked = maskCMacros(text);
  assert.equal(masked.length, text.length);
  assert.deepEqual(masked.split('\n').map((l) => l.length), text.split('\n').map((l) => l.length));
  assert.deepEqual(masked.split('\n').map((l) => l.trim().replace(/\s+/g, ' ')), [
    '',
    'class Gadget : Base {',
    'int f() const { return 1; }',
    '', '', '',
    '};',
    '',
    'static int g(void);',
    '#define LONG(a) \\',
    '(a)',
    'int x = MAX;',
  ]);
});

test('extractorOf: C and C++ headers have their own extractor (declarations are units there)', () => {
  assert.equal(extractorOf('include/a.h'), 'cpp-header');
  assert.equal(extractorOf('include/a.hpp'), 'cpp-header');
  assert.equal(extractorOf('src/a.cc'), 'cpp');
  assert.equal(extractorOf('src/a.c'), 'c');
  assert.equal(extractorOf('a.py'), 'python');
});
