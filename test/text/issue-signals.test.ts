import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countIdentifiers, extractIssueSignals } from '../../src/text/issue-signals.js';
import { findIdentifiers } from '../../src/text/identifiers.js';
import { IssuelocError } from '../../src/errors.js';

test('identifier patterns of the method notes (HTTPServer counts, lone HTTP does not)', () => {
  const hits = (s: string) => findIdentifiers(s).map((h) => `${h.pattern}:${h.text}`);
  assert.deepEqual(hits('HTTPServer'), ['camelCase:HTTPServer']);
  assert.deepEqual(hits('HTTP Hello abc123 UTF8 _private'), []);
  assert.deepEqual(hits('getFoo iPhone MyISAM'), ['camelCase:getFoo', 'camelCase:iPhone', 'camelCase:MyISAM']);
  assert.deepEqual(hits('MAX_SIZE HTTP_2_PROTOCOL get_queryset name__icontains __init__ Foo_bar'), [
    'upperSnake:MAX_SIZE', 'upperSnake:HTTP_2_PROTOCOL', 'lowerSnake:get_queryset', 'lowerSnake:name__icontains',
  ]);
  assert.deepEqual(hits('org.apache.Foo sympy.core.Basic self.assertEqual foo.v2.10 os.path.join 3.0.3.'), [
    'dotted:org.apache.Foo', 'dotted:sympy.core.Basic', 'dotted:self.assertEqual', 'dotted:foo.v2.10',
  ]);
  // a dotted word that is not a dotted path is classified part by part; sentence dots are trimmed
  assert.deepEqual(hits('See foo_bar.baz_qux and HTTPServer.java. Done.'), [
    'lowerSnake:foo_bar', 'lowerSnake:baz_qux', 'camelCase:HTTPServer',
  ]);
});

test('countIdentifiers counts occurrences per pattern and file-name mentions', () => {
  const c = countIdentifiers('HTTPServer HTTPServer HTTP MAX_SIZE foo_bar org.apache.Foo in Foo.java and src/x/y.py, y.py:12');
  assert.deepEqual(c, { upperSnake: 1, lowerSnake: 1, dotted: 1, camelCase: 2, total: 5, distinct: 4, fileNames: 3 });
  assert.deepEqual(countIdentifiers(''), { upperSnake: 0, lowerSnake: 0, dotted: 0, camelCase: 0, total: 0, distinct: 0, fileNames: 0 });
});

test('extractIssueSignals: paths, dotted names, called names, identifiers', () => {
  const text = [
    'Calling `sympy.core.Basic.subs()` with MAX_SIZE breaks HTTPServer; HTTP is fine.',
    'See src/foo/bar.py, Foo.java, lib\\x.rs and ./pkg/a.go.',
    'Link: https://github.com/o/r/blob/main/src/y.py and https://docs.python.org/3/library/os.html',
    'org.apache.Foo, django.db.models.query, e.g. github.com, pom.xml, setup.cfg.',
    'obj.method(1); if(x) {}; foo_bar(2); self.assertEqual(a, b); 3(4)',
  ].join('\n');
  const s = extractIssueSignals(text);
  assert.deepEqual(s.filePaths, ['src/foo/bar.py', 'Foo.java', 'lib/x.rs', 'pkg/a.go', 'src/y.py']);
  assert.deepEqual(s.dottedNames, ['sympy.core.Basic.subs', 'org.apache.Foo', 'django.db.models.query', 'obj.method']);
  assert.deepEqual(s.calledNames, ['sympy.core.Basic.subs', 'obj.method', 'foo_bar', 'self.assertEqual']);
  assert.deepEqual(s.identifiers, ['MAX_SIZE', 'HTTPServer', 'org.apache.Foo', 'foo_bar', 'self.assertEqual']);
  assert.deepEqual(s.frames, []);
});

test('an issue that is only a stack trace gives frames and file paths', () => {
  const s = extractIssueSignals('Traceback (most recent call last):\n  File "/x/requests/models.py", line 12, in json\n');
  assert.equal(s.frames.length, 1);
  assert.equal(s.frames[0].function, 'json');
  assert.deepEqual(s.filePaths, ['/x/requests/models.py']);
});

test('1 MB bodies built to be hard complete and stay correct (linear-time scans)', () => {
  const mb = (unit: string) => unit.repeat(Math.ceil((1 << 20) / unit.length));
  // Each body would take minutes with a backtracking pattern; the scans here are linear. The
  // speed itself is measured by bench/text-speed.ts, not asserted.
  const bodies = [
    mb('a'),
    mb('at at a.b(c at '),
    mb('File "'),
    mb('.go:1 .rs:1:2 panicked at '),
    mb('a.b.c.D(x.py:1:2 '),
    mb('_'),
    mb('(('),
    'panicked at '.repeat(80_000) + 'src/x.rs:1:2',
    mb('\tat org.apache.maven.DefaultMaven.execute(DefaultMaven.java:12)\n'),
  ];
  const counts = bodies.map((b) => extractIssueSignals(b).frames.length);
  assert.deepEqual(counts, [0, 0, 0, 0, 0, 0, 0, 1, 1]);
  assert.equal(countIdentifiers(mb('foo_bar ')).lowerSnake, 131072);
});

test('bad input: a non-string is an IssuelocError', () => {
  assert.throws(() => extractIssueSignals(null as unknown as string), IssuelocError);
  assert.throws(() => countIdentifiers(42 as unknown as string), IssuelocError);
});

test('scoped names: `::` paths of Rust and C++, `Class#method`; not URL fragments, issue numbers or slices', () => {
  const s = extractIssueSignals(
    'use crate::module::func; Type::method and ::ns::Class::~Class, std::vector<int>::iterator, '
    + 'Gson#toJson, docs/a.html#Foo, issue #12, Foo#12, x[::2], .. note:: see src/foo.rs:12:5 and foo.go:42');
  assert.deepEqual(s.scopedNames, ['crate::module::func', 'Type::method', 'ns::Class::~Class', 'std::vector', 'Gson#toJson']);
  assert.deepEqual(s.filePaths, ['src/foo.rs', 'foo.go']);
});

test('scoped names of a full Rust backtrace drop the symbols\' hashes, so they name the functions', () => {
  const s = extractIssueSignals([
    '  19:     0x558b1035b5b1 - mycrate::Foo::run::h0712a4b45b3332c6',
    '                               at /home/u/mycrate/src/main.rs:4:61',
    '  31:     0x558b1035b76c - mycrate::main::h968f82fbf22e8095',
  ].join('\n'));
  assert.deepEqual(s.scopedNames, ['mycrate::Foo::run', 'mycrate::main']);
});
