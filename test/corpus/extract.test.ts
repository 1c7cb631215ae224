import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { extractorKey, extractUnits, extractUnitSpans } from '../../src/corpus/extract.js';
import { moduleIdOf } from '../../src/corpus/names.js';
import { isRustTestAttribute, unitVersionsKey } from '../../src/corpus/extract-specs.js';

// This file loads 14 grammars to parse a few lines each: V8's optimising compiler would spend
// ~15 s of CPU on their large lexers (measured on 2 cores). The baseline compiler suffices here.
setFlagsFromString('--liftoff-only');

/** `kind qualifiedName start-end` of each unit after the file unit. */
async function outline(path: string, lines: string[]): Promise<string[]> {
  const units = await extractUnits(path, lines.join('\n') + '\n');
  assert.equal(units[0].kind, 'file');
  assert.equal(units[0].id, path);
  assert.equal(units[0].qualifiedName, '');
  return units.slice(1).map((u) => `${u.kind} ${u.qualifiedName} ${u.startLine}-${u.endLine}`);
}

test('Python: the SWE-bench protocol (decorators, nesting, module/class-level blocks)', async () => {
  const src = [
    'import os',                           // 1
    '@decorator',                          // 2
    '@other(1)',                           // 3
    'def top(a):',                         // 4
    '    def inner():',                    // 5
    '        pass',                        // 6
    '    class Local:',                    // 7
    '        def hidden(self): pass',      // 8
    '    return inner',                    // 9
    '    # trailing comment in the block', // 10
    '',                                    // 11
    'class Outer(Base):',                  // 12
    '    class Inner:',                    // 13
    '        async def method(self):',     // 14
    '            return 1',                // 15
    '    @property',                       // 16
    '    def value(self):',                // 17
    '        return self._v',              // 18
    '    @value.setter',                   // 19
    '    def value(self, v):',             // 20
    '        self._v = v',                 // 21
    '    if PY3:',                         // 22
    '        def py3(self): pass',         // 23
    '    else:',                           // 24
    '        def py2(self): pass',         // 25
    'try:',                                // 26
    '    import fast',                     // 27
    'except ImportError:',                 // 28
    '    def fallback(): pass',            // 29
    'finally:',                            // 30
    '    def cleanup(): pass',             // 31
    'for n in ():',                        // 32
    '    def looped(): pass',              // 33
    'while False:',                        // 34
    '    def whiled(): pass',              // 35
    'with ctx():',                         // 36
    '    def withed(): pass',              // 37
    'match x:',                            // 38
    '    case 1:',                         // 39
    '        def matched(): pass',         // 40 (ref_eval does not enter match)
    'f = lambda: 1',                       // 41
  ];
  assert.deepEqual(await outline('pkg/m.py', src), [
    'function top 2-9',
    'class Outer 12-25',
    'class Outer.Inner 13-15',
    'function Outer.Inner.method 14-15',
    'function Outer.value 16-18',
    'function Outer.value 19-21',
    'function Outer.py3 23-23',
    'function Outer.py2 25-25',
    'function fallback 29-29',
    'function cleanup 31-31',
    'function looped 33-33',
    'function whiled 35-35',
    'function withed 37-37',
  ]);
  const units = await extractUnits('pkg/m.py', src.join('\n'));
  const top = units.find((u) => u.qualifiedName === 'top')!;
  assert.equal(top.id, 'pkg/m.py:top');
  assert.equal(top.text, src.slice(1, 9).join('\n'));
});

test('Java: classes, interfaces, enums, records, annotations in the span', async () => {
  assert.deepEqual(await outline('src/main/java/x/Foo.java', [
    'package x;',                                        // 1
    '@Deprecated',                                       // 2
    'public class Foo<T> extends Bar {',                 // 3
    '  @Override',                                       // 4
    '  public int bar(int x) {',                         // 5
    '    return new Runnable() { public void run() {} }.hashCode();', // 6
    '  }',                                               // 7
    '  Foo() {}',                                        // 8
    '  static class Inner { void m() {} }',              // 9
    '  interface I { void n(); default void d() {} }',   // 10
    '  enum E { A { void z() {} }; void e() {} }',       // 11
    '  record R(int a) { R { } int g() { return a; } }', // 12
    '}',                                                 // 13
  ]), [
    'class Foo 2-13',
    'function Foo.bar 4-7',
    'function Foo.Foo 8-8',
    'class Foo.Inner 9-9',
    'function Foo.Inner.m 9-9',
    'class Foo.I 10-10',
    'function Foo.I.n 10-10',
    'function Foo.I.d 10-10',
    'class Foo.E 11-11',
    'function Foo.E.e 11-11',
    'class Foo.R 12-12',
    'function Foo.R.R 12-12',
    'function Foo.R.g 12-12',
  ]);
});

test('JavaScript: classes, declarations, top-level arrows, prototype and CommonJS assignments', async () => {
  assert.deepEqual(await outline('lib/a.js', [
    'function Foo() {}',                           // 1
    'Foo.prototype.bar = function () {',           // 2
    '  return 1;',                                 // 3
    '};',                                          // 4
    'module.exports.helper = () => 2;',            // 5
    'export default function () {}',               // 6
    'const obj = { m() {} };',                     // 7
    'export function* gen() {}',                   // 8
    'class Widget extends Base {',                 // 9
    '  constructor() { super(); }',                // 10
    '  static create() { return function () {}; }', // 11
    '  onClick = () => {};',                       // 12
    '}',                                           // 13
    'const handler = async (e) => {',              // 14
    '  const nested = () => 1;',                   // 15
    '};',                                          // 16
    'let n = 3, f = function () {};',              // 17
  ]), [
    'function Foo 1-1',
    'function Foo.bar 2-4',
    'function helper 5-5',
    'function default 6-6',
    'function obj.m 7-7',
    'function gen 8-8',
    'class Widget 9-13',
    'function Widget.constructor 10-10',
    'function Widget.create 11-11',
    'function Widget.onClick 12-12',
    'function handler 14-16',
    'function f 17-17',
  ]);
  assert.deepEqual(await outline('web/App.jsx', ['export const App = () => <div/>;']), ['function App 1-1']);
  assert.deepEqual(await outline('a.mjs', ['export class M {}']), ['class M 1-1']);
});

test('TypeScript: decorators, namespaces, interfaces, abstract classes, .tsx', async () => {
  assert.deepEqual(await outline('src/a.ts', [
    '@Component({})',                                   // 1
    'export class Foo implements I {',                  // 2
    '  @HostListener("click")',                         // 3
    '  onClick(): void {}',                             // 4
    '  get v(): number { return 1; }',                  // 5
    '  static #priv() {}',                              // 6
    '}',                                                // 7
    'export const arrow = async (a: number): Promise<void> => {};', // 8
    'interface I { m(): void; }',                       // 9
    'abstract class Abs { abstract am(): void; }',      // 10
    'export namespace NS { export function inNs() {} }', // 11
    'function overload(a: string): void;',              // 12
    'function overload(a: any) {}',                     // 13
    'type T = { a: number };',                          // 14
  ]), [
    'class Foo 1-7',
    'function Foo.onClick 3-4',
    'function Foo.v 5-5',
    'function Foo.#priv 6-6',
    'function arrow 8-8',
    'class I 9-9',
    'function I.m 9-9',
    'class Abs 10-10',
    'function Abs.am 10-10',
    'function NS.inNs 11-11',
    'function overload 13-13',
  ]);
  assert.deepEqual(await outline('ui/View.tsx', [
    'export function View(p: Props) {',
    '  return <div>{p.x}</div>;',
    '}',
    'export const Item = ({ x }: { x: string }) => <li>{x}</li>;',
  ]), ['function View 1-3', 'function Item 4-4']);
  assert.deepEqual(await outline('a.mts', ['export function m() {}']), ['function m 1-1']);
});

test('Go: functions, methods as Receiver.method (pointer and type arguments dropped), types', async () => {
  assert.deepEqual(await outline('server.go', [
    'package x',                                            // 1
    '// Foo does',                                          // 2
    'func Foo() {}',                                        // 3
    'func (s *Server) Serve(x int) error {',                // 4
    '  f := func() {}',                                     // 5
    '  return nil',                                         // 6
    '}',                                                    // 7
    'func (s Server) Name() string { return "" }',          // 8
    'func (l *List[T]) Push(v T) {}',                       // 9
    'type Server struct { a int }',                         // 10
    'type I interface { M() }',                             // 11
    'type ID int',                                          // 12
  ]), [
    'function Foo 3-3',
    'function Server.Serve 4-7',
    'function Server.Name 8-8',
    'function List.Push 9-9',
    'class Server 10-10',
    'class I 11-11',
  ]);
});

test('C: functions inside preprocessor blocks, multi-line declarators, named structs', async () => {
  assert.deepEqual(await outline('src/m.c', [
    '#include <stdio.h>',                 // 1
    'struct point { int x; };',           // 2
    'typedef struct { int y; } anon_t;',  // 3
    '#ifdef X',                           // 4
    'static int *guarded(void) { return 0; }', // 5
    '#else',                              // 6
    'int other(int a,',                   // 7
    '          int b)',                   // 8
    '{',                                  // 9
    '    return a + b;',                  // 10
    '}',                                  // 11
    '#endif',                             // 12
    'int proto(void);',                   // 13
  ]), [
    'class point 2-2',
    'function guarded 5-5',
    'function other 7-11',
  ]);
});

test('C++: namespaces qualify, out-of-line Foo::bar is Foo.bar, templates in the span', async () => {
  assert.deepEqual(await outline('src/foo.cpp', [
    'namespace ns { namespace inner {',              // 1
    'class Foo : public Bar {',                      // 2
    ' public:',                                      // 3
    '  Foo();',                                      // 4
    '  int bar(int x) { return x; }',                // 5
    '  virtual ~Foo() {}',                           // 6
    '  struct In { void m() {} };',                  // 7
    '};',                                            // 8
    '}}',                                            // 9
    'int ns::inner::Foo::baz() const { return 1; }', // 10
    'Foo::Foo() : a(1) {}',                          // 11
    'template <typename T>',                         // 12
    'void tmpl(T t) {}',                             // 13
    'Foo& Foo::operator=(const Foo& o) { return *this; }', // 14
    'namespace { void anon() {} }',                  // 15
    'extern "C" { void cfun() {} }',                 // 16
  ]), [
    'class ns.inner.Foo 2-8',
    'function ns.inner.Foo.bar 5-5',
    'function ns.inner.Foo.~Foo 6-6',
    'class ns.inner.Foo.In 7-7',
    'function ns.inner.Foo.In.m 7-7',
    'function ns.inner.Foo.baz 10-10',
    'function Foo.Foo 11-11',
    'function tmpl 12-13',
    'function Foo.operator= 14-14',
    'function anon 15-15',
    'function cfun 16-16',
  ]);
  // .h is C by extension but parsed with the C++ grammar, so C++ headers work.
  assert.deepEqual(await outline('include/w.h', ['class W { int f() { return 1; } };']), ['class W 1-1', 'function W.f 1-1']);
  assert.deepEqual(await outline('a.hpp', ['struct S { void g(); };', 'void S::g() {}']), ['class S 1-1', 'function S.g 1-1', 'function S.g 2-2']);
});

test('C#: attributes in the span, constructors, properties, operators, nested types', async () => {
  assert.deepEqual(await outline('Lib/Foo.cs', [
    'using System;',                                         // 1
    'namespace N.M {',                                       // 2
    '  [Serializable]',                                      // 3
    '  public class Foo : IBar {',                           // 4
    '    [Fact]',                                            // 5
    '    [Trait("a", "b")]',                                 // 6
    '    public int Bar(int x)',                             // 7
    '    {',                                                 // 8
    '      return x;',                                       // 9
    '    }',                                                 // 10
    '    public Foo() {}',                                   // 11
    '    ~Foo() {}',                                         // 12
    '    public int P { get { return 1; } set {} }',         // 13
    '    public static Foo operator +(Foo a, Foo b) => a;',  // 14
    '    struct S { void M() {} }',                          // 15
    '    interface I { void N(); }',                         // 16
    '    record R(int A) { int G() => A; }',                 // 17
    '  }',                                                   // 18
    '}',                                                     // 19
  ]), [
    'class Foo 3-18',
    'function Foo.Bar 5-10',
    'function Foo.Foo 11-11',
    'function Foo.~Foo 12-12',
    'function Foo.P 13-13',
    'function Foo.operator+ 14-14',
    'class Foo.S 15-15',
    'function Foo.S.M 15-15',
    'class Foo.I 16-16',
    'function Foo.I.N 16-16',
    'class Foo.R 17-17',
    'function Foo.R.G 17-17',
  ]);
});

test('Ruby: modules and classes qualify, singleton methods, private def', async () => {
  assert.deepEqual(await outline('lib/m.rb', [
    'module M',                 // 1
    '  class Foo < Bar',        // 2
    '    def bar(x)',           // 3
    '      x',                  // 4
    '    end',                  // 5
    '    def self.cm; end',     // 6
    '    class << self',        // 7
    '      def sc; end',        // 8
    '    end',                  // 9
    '    private def priv; end', // 10
    '  end',                    // 11
    'end',                      // 12
    'class A::B; def q; end; end', // 13
    'def top; end',             // 14
  ]), [
    'class M 1-12',
    'class M.Foo 2-11',
    'function M.Foo.bar 3-5',
    'function M.Foo.cm 6-6',
    'function M.Foo.sc 8-8',
    'function M.Foo.priv 10-10',
    'class A.B 13-13',
    'function A.B.q 13-13',
    'function top 14-14',
  ]);
});

test('PHP: classes, interfaces, traits, enums, guarded functions; namespaces do not qualify', async () => {
  assert.deepEqual(await outline('src/Foo.php', [
    '<?php',                                                        // 1
    'namespace App\\Http;',                                         // 2
    '#[Attr]',                                                      // 3
    'class Foo extends Bar implements I {',                         // 4
    '    public function bar($x) { return function() {}; }',       // 5
    '    public static function make(): static {}',                 // 6
    '}',                                                            // 7
    'interface I { public function n(); }',                         // 8
    'trait T { function t() {} }',                                  // 9
    "enum E: string { case A = 'a'; public function label() {} }",  // 10
    'function top() { function inner() {} }',                       // 11
    "if (!function_exists('h')) { function h() {} }",               // 12
  ]), [
    'class Foo 3-7',
    'function Foo.bar 5-5',
    'function Foo.make 6-6',
    'class I 8-8',
    'function I.n 8-8',
    'class T 9-9',
    'function T.t 9-9',
    'class E 10-10',
    'function E.label 10-10',
    'function top 11-11',
    'function h 12-12',
  ]);
});

test('Rust: impl blocks give Type.method, traits, inline modules, attributes in the span', async () => {
  assert.deepEqual(await outline('src/lib.rs', [
    'mod m {',                                       // 1
    '  pub fn inner() {}',                           // 2
    '}',                                             // 3
    '#[derive(Debug)]',                              // 4
    'struct S { a: i32 }',                           // 5
    'impl S {',                                      // 6
    '  #[inline]',                                   // 7
    '  pub fn new() -> Self { S { a: 1 } }',         // 8
    '}',                                             // 9
    'impl<T> Display for Vec<T> { fn fmt(&self) {} }', // 10
    'trait Tr { fn req(&self); fn def(&self) {} }',  // 11
    'fn top() { fn nested() {} }',                   // 12
    'enum E { A }',                                  // 13
    'impl m::P { fn q() {} }',                       // 14
    'mod declared;',                                 // 15
  ]), [
    'function m.inner 2-2',
    'class S 4-5',
    'function S.new 7-8',
    'function Vec.fmt 10-10',
    'class Tr 11-11',
    'function Tr.req 11-11',
    'function Tr.def 11-11',
    'function top 12-12',
    'class E 13-13',
    'function P.q 14-14',
  ]);
});

test('Rust: test-only items (#[cfg(test)] mod, #[test] fn) give no units; other cfgs do', async () => {
  assert.deepEqual(await outline('src/lib.rs', [
    'pub fn parse(x: u32) -> u32 { x }',             // 1
    '#[cfg(test)]',                                  // 2
    'mod tests {',                                   // 3
    '  use super::*;',                               // 4
    '  #[test]',                                     // 5
    '  fn parses() { assert_eq!(parse(1), 1); }',    // 6
    '}',                                             // 7
    '#[test]',                                       // 8
    'fn top_test() {}',                              // 9
    '#[cfg(all(test, feature = "x"))]',              // 10
    '// a helper of the tests',                      // 11
    'fn helper() {}',                                // 12
    '#[tokio::test]',                                // 13
    'async fn runs() {}',                            // 14
    '#[cfg(not(test))]',                             // 15
    'fn real() {}',                                  // 16
    '#[cfg(feature = "test")]',                      // 17
    'impl S { fn with_feature() {} }',               // 18
    '#[rstest]',                                     // 19
    '#[case(1, 2)]',                                 // 20
    'fn adds(#[case] a: u32, #[case] b: u32) {}',    // 21
    '#[test_case(1, 2 ; "one and two")]',            // 22
    '#[test_case(3, 4)]',                            // 23
    'fn sums(a: u32, b: u32) {}',                    // 24
    '#[async_std::test]',                            // 25
    'async fn awaits() {}',                          // 26
    '#[rstest::fixture]',                            // 27
    'fn repo() -> u32 { 1 }',                        // 28
    '#[test_log::test(tokio::test)]',                // 29
    'async fn logs() {}',                            // 30
    '#[inline]',                                     // 31
    'fn tested_elsewhere() {}',                      // 32
  ]), [
    'function parse 1-1',
    'function real 15-16',
    'function S.with_feature 18-18',
    'function tested_elsewhere 31-32',
  ]);
  const withTests = await extractUnitSpans('src/lib.rs', '#[cfg(test)]\nmod tests {\n  #[test]\n  fn parses() {}\n}\n', undefined, { testItems: true });
  assert.deepEqual(withTests.map((u) => u.qualifiedName), ['', 'tests.parses'], 'an index with tests keeps them');
  assert.equal(extractorKey('src/lib.rs'), 'rust@3', 'Rust blob cache entries of before are not read');
  assert.equal(extractorKey('src/app.py'), 'python');
  assert.equal(isRustTestAttribute('#[cfg(test)]'), true);
  assert.equal(isRustTestAttribute('#[ cfg( all(test, unix) ) ]'), true);
  assert.equal(isRustTestAttribute('#[test]'), true);
  assert.equal(isRustTestAttribute('#[bench]'), true);
  assert.equal(isRustTestAttribute('#[cfg(any(test, feature = "x"))]'), false, 'also built outside tests');
  assert.equal(isRustTestAttribute('#[cfg(testing)]'), false);
  assert.equal(isRustTestAttribute('#[derive(Test)]'), false);
  assert.equal(isRustTestAttribute('#[rstest]'), true);
  assert.equal(isRustTestAttribute('#[test_case::test_case(1 => 2)]'), true);
  assert.equal(isRustTestAttribute('#[test_cases]'), false);
  assert.equal(isRustTestAttribute('#[rstest_reuse::template]'), false);
});

test('Kotlin, Scala, Swift: classes, objects and their functions', async () => {
  assert.deepEqual(await outline('src/Foo.kt', [
    '@Ann',                                          // 1
    'class Foo(val a: Int) : Bar() {',               // 2
    '  fun bar(): Int = 1',                          // 3
    '  companion object { fun create() = Foo(1) }',  // 4
    '}',                                             // 5
    'object Single { fun s() {} }',                  // 6
    'fun top(x: Int) { fun nested() {} }',           // 7
  ]), ['class Foo 1-5', 'function Foo.bar 3-3', 'function Foo.create 4-4', 'class Single 6-6', 'function Single.s 6-6', 'function top 7-7']);
  assert.deepEqual(await outline('src/Foo.scala', [
    'class Foo(a: Int) extends Bar {',
    '  def bar(x: Int): Int = x',
    '}',
    'object Foo { def apply(): Foo = new Foo(1) }',
    'trait T { def t: Int }',
  ]), ['class Foo 1-3', 'function Foo.bar 2-2', 'class Foo 4-4', 'function Foo.apply 4-4', 'class T 5-5', 'function T.t 5-5']);
  assert.deepEqual(await outline('Sources/Foo.swift', [
    'class Foo: Bar {',
    '  func bar(x: Int) -> Int { return x }',
    '  init() {}',
    '}',
    'extension Foo { func ext() {} }',
    'protocol P { func p() }',
    'func top() {}',
  ]), ['class Foo 1-4', 'function Foo.bar 2-2', 'function Foo.init 3-3', 'class Foo 5-5', 'function Foo.ext 5-5', 'class P 6-6', 'function P.p 6-6', 'function top 7-7']);
});

test('other languages and unparsable text give the file unit only', async () => {
  const lua = await extractUnits('init.lua', 'function f() end\n');
  assert.deepEqual(lua.map((u) => u.kind), ['file']);
  assert.equal(lua[0].endLine, 1);
  const junk = await extractUnits('broken.py', ')))(((\n\x00\n');
  assert.equal(junk[0].kind, 'file');
  assert.equal(junk[0].endLine, 2);
  const empty = await extractUnits('empty.py', '');
  assert.deepEqual(empty.map((u) => [u.kind, u.startLine, u.endLine]), [['file', 1, 1]]);
});

test('JavaScript: the functions inside an AMD module (define / require factories), not one unit for the module', async () => {
  assert.deepEqual(await outline('src/plugins/Export.js', [
    "define(['a', 'b'], function (A, B) {",        // 1
    "  'use strict';",                             // 2
    '  var Export = function () {',                // 3
    '    A.call(this);',                           // 4
    '  };',                                        // 5
    '  Export.prototype.main = function (cb) {',   // 6
    '    return cb();',                            // 7
    '  };',                                        // 8
    '  function helper() { return 1; }',           // 9
    '  return Export;',                            // 10
    '});',                                         // 11
  ]), ['function Export 3-5', 'function Export.main 6-8', 'function helper 9-9']);
  // a factory that returns its API, a sugared factory (arrow), and an object-literal module
  assert.deepEqual(await outline('src/util.js', [
    'define(function (require) {',                 // 1
    '  return { get: function () {}, set() {} };', // 2
    '});',                                         // 3
    "require(['x'], (x) => { const run = () => x; });", // 4
    'define({ init: function () {} });',           // 5
    'other([], function () { function no() {} });', // 6
  ]), ['function get 2-2', 'function set 2-2', 'function run 4-4', 'function init 5-5']);
});

test('JavaScript/TypeScript: object-literal methods and function-valued properties qualify by the object (also Object.assign)', async () => {
  assert.deepEqual(await outline('lib/api.js', [
    'module.exports = {',                        // 1
    '  f() {},',                                 // 2
    '  g: () => 1,',                             // 3
    "  'h-i': function () {},",                  // 4
    '  nested: { deep() {} },',                  // 5
    '  value: 1,',                               // 6
    '  [computed]: () => 2,',                    // 7
    '};',                                        // 8
    'const api = { get(id) { return id; } };',  // 9
    'Foo.prototype = { bar() {} };',             // 10
    'exports.util = { u: async () => {} };',     // 11
    'module.exports = () => 0;',                 // 12
    'Object.assign(Headers.prototype, {',        // 13
    '  set: function (k, v) {},',                // 14
    '});',                                       // 15
    'Object.assign(Headers, { from(x) {} });',   // 16
    'other.assign(X, { no() {} });',             // 17
  ]), [
    'function f 2-2',
    'function g 3-3',
    'function h-i 4-4',
    'function nested.deep 5-5',
    'function api.get 9-9',
    'function Foo.bar 10-10',
    'function util.u 11-11',
    'function module.exports 12-12',
    'function Headers.set 14-14',
    'function Headers.from 16-16',
  ]);
  assert.deepEqual(await outline('src/api.ts', [
    'export const handlers = {',
    '  onLoad: (e: Event): void => {},',
    '} as const;',
    'export default { name: "x", methods: { click() {} } };',
  ]), ['function handlers.onLoad 2-2', 'function methods.click 4-4']);
});

test('Rust: macro_rules! definitions are units; methods of trait impls qualify by the type', async () => {
  assert.deepEqual(await outline('src/macros.rs', [
    '#[macro_export]',                                 // 1
    'macro_rules! bail {',                             // 2
    '    ($e:expr) => { return Err($e.into()) };',     // 3
    '}',                                               // 4
    'mod inner {',                                     // 5
    '    pub struct Printer<W> { w: W }',              // 6
    '    impl<W: Write> Printer<W> {',                 // 7
    '        pub fn new(w: W) -> Self { Printer { w } }', // 8
    '    }',                                           // 9
    '    impl<W> fmt::Debug for Printer<W> {',         // 10
    '        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }', // 11
    '    }',                                           // 12
    '}',                                               // 13
  ]), [
    'function bail 1-4',
    'class inner.Printer 6-6',
    'function inner.Printer.new 8-8',
    'function inner.Printer.fmt 11-11',
  ]);
});

test('Go: grouped type declarations; value and pointer receivers are both Type.Method', async () => {
  assert.deepEqual(await outline('pkg/store.go', [
    'package store',                                   // 1
    'type (',                                          // 2
    '  Store struct { m map[string]int }',             // 3
    '  Getter interface { Get(k string) int }',        // 4
    ')',                                               // 5
    'func (s *Store) Get(k string) int { return s.m[k] }', // 6
    'func (s Store) Len() int { return len(s.m) }',    // 7
    'func New() *Store { return &Store{} }',           // 8
  ]), [
    'class Store 3-3',
    'class Getter 4-4',
    'function Store.Get 6-6',
    'function Store.Len 7-7',
    'function New 8-8',
  ]);
});

test('Java and Kotlin: inner classes qualify; anonymous classes and lambdas belong to their method', async () => {
  assert.deepEqual(await outline('src/main/java/x/Outer.java', [
    'public class Outer {',                                            // 1
    '  class Inner {',                                                 // 2
    '    class Deepest { void m() {} }',                               // 3
    '  }',                                                             // 4
    '  void run() {',                                                  // 5
    '    Runnable r = () -> { class Local { void hidden() {} } };',    // 6
    '    new Thread(new Runnable() { public void run() {} }).start();', // 7
    '  }',                                                             // 8
    '  enum Kind { A, B; Kind next() { return B; } }',                 // 9
    '  interface Visitor { void visit(); }',                           // 10
    '  record Pair(int a, int b) {}',                                  // 11
    '}',                                                               // 12
  ]), [
    'class Outer 1-12',
    'class Outer.Inner 2-4',
    'class Outer.Inner.Deepest 3-3',
    'function Outer.Inner.Deepest.m 3-3',
    'function Outer.run 5-8',
    'class Outer.Kind 9-9',
    'function Outer.Kind.next 9-9',
    'class Outer.Visitor 10-10',
    'function Outer.Visitor.visit 10-10',
    'class Outer.Pair 11-11',
  ]);
  assert.deepEqual(await outline('src/O.kt', [
    'class O {',                                   // 1
    '  inner class In {',                          // 2
    '    fun m() {',                               // 3
    '      val r = object : Runnable {',           // 4
    '        override fun run() {}',               // 5
    '      }',                                     // 6
    '      list.forEach { x -> println(x) }',      // 7
    '    }',                                       // 8
    '  }',                                         // 9
    '}',                                           // 10
    'interface I {',                               // 11
    '  fun i()',                                   // 12
    '}',                                           // 13
    'enum class E {',                              // 14
    '  A, B;',                                     // 15
    '  fun f() {}',                                // 16
    '}',                                           // 17
  ]), ['class O 1-10', 'class O.In 2-9', 'function O.In.m 3-8', 'class I 11-13', 'function I.i 12-12', 'class E 14-17', 'function E.f 16-16']);
});

test('C/C++: functions and classes behind macros, split #ifdef headers, BEGIN/END macro lines', async () => {
  assert.deepEqual(await outline('src/gadget.cpp', [
    'FMT_BEGIN_NAMESPACE',                                // 1
    'class EXPORT Gadget : public Base {',                // 2
    ' public:',                                           // 3
    '  int size() const FMT_NOEXCEPT { return n_; }',     // 4
    '  FMT_CONSTEXPR20 void grow(int n) { n_ += n; }',    // 5
    '};',                                                 // 6
    'static JV_ATTR int foo(int x) { return x; }',        // 7
    'FMT_API void vprint(int fd) {}',                     // 8
    'FMT_END_NAMESPACE',                                  // 9
  ]), [
    'class Gadget 2-6',
    'function Gadget.size 4-4',
    'function Gadget.grow 5-5',
    'function foo 7-7',
    'function vprint 8-8',
  ]);
  assert.deepEqual(await outline('src/main.c', [
    '#ifdef WIN32',                                       // 1
    'int wmain(int argc, wchar_t* wargv[]) { return 0; }', // 2
    'int umain(int argc, char* argv[]) {',                // 3
    '#else',                                              // 4
    'int main(int argc, char* argv[]) {',                 // 5
    '#endif',                                             // 6
    '  return run(argc, argv);',                          // 7
    '}',                                                  // 8
    '#if 0',                                              // 9
    'int dead(void) {',                                   // 10
    '#else',                                              // 11
    'int live(void) {',                                   // 12
    '#endif',                                             // 13
    '  return 1;',                                        // 14
    '}',                                                  // 15
    'static void after(void) {}',                         // 16
  ]), ['function wmain 2-2', 'function umain 3-8', 'function live 12-15', 'function after 16-16']);
});

test('C/C++: a header declaration and its out-of-line definition share the qualified name', async () => {
  const header = await outline('include/ns/gadget.h', [
    '#ifndef GADGET_H',                            // 1
    '#define GADGET_H',                            // 2
    'namespace ns {',                              // 3
    'class GADGET_API Gadget {',                   // 4
    ' public:',                                    // 5
    '  Gadget();',                                 // 6
    '  virtual void run() = 0;',                   // 7
    '  static Gadget& get();',                     // 8
    '  template <typename T> void put(T v);',      // 9
    '  int size() const { return n_; }',           // 10
    ' private:',                                   // 11
    '  void (*callback_)(int);',                   // 12
    '  int n_;',                                   // 13
    '};',                                          // 14
    'int helper(const char* s);',                  // 15
    '}  // namespace ns',                          // 16
    'extern int counter;',                         // 17
    '#endif',                                      // 18
  ]);
  assert.deepEqual(header, [
    'class ns.Gadget 4-14',
    'function ns.Gadget.Gadget 6-6',
    'function ns.Gadget.run 7-7',
    'function ns.Gadget.get 8-8',
    'function ns.Gadget.put 9-9',
    'function ns.Gadget.size 10-10',
    'function ns.helper 15-15',
  ]);
  const source = await outline('src/gadget.cc', [
    '#include "ns/gadget.h"',                                  // 1
    'namespace ns {',                                          // 2
    'Gadget::Gadget() : n_(0) {}',                             // 3
    'Gadget& Gadget::get() { static Gadget g; return g; }',    // 4
    'int helper(const char* s) { return 0; }',                 // 5
    'int forward(int);',                                       // 6
    '}',                                                       // 7
    'template <typename T> void ns::Gadget::put(T v) {}',      // 8
  ]);
  assert.deepEqual(source, ['function ns.Gadget.Gadget 3-3', 'function ns.Gadget.get 4-4', 'function ns.helper 5-5', 'function ns.Gadget.put 8-8']);
  const names = (lines: string[]) => new Set(lines.map((l) => l.split(' ')[1]));
  for (const name of names(source)) assert.ok(names(header).has(name), name);
  // a C source file's prototypes are not units (only headers declare)
  assert.deepEqual(await outline('src/m.c', ['int proto(void);', 'int proto(void) { return 0; }']), ['function proto 2-2']);
});

test('C++ namespaces, Rust inline mods and TS namespaces qualify names but are no modules: the module is the top-level class or function', async () => {
  const modules = async (path: string, lines: string[]) => (await extractUnits(path, lines.join('\n') + '\n')).slice(1).map((u) => `${u.qualifiedName} → ${moduleIdOf(u)}`);
  assert.deepEqual(await modules('src/format.cc', [
    'namespace fmt {',                                   // 1
    'class Formatter { void format_width(int w) {} };',  // 2
    'void vprint(int w) {}',                             // 3
    'namespace detail { struct Buffer { void grow() {} }; }', // 4
    '}',                                                 // 5
    'namespace a::b { class Widget { void resize() {} }; }',  // 6
    'void fmt::detail::Buffer::clear() {}',              // 7: out of line, after the namespaces
    'void fmt::print() {}',                              // 8
    'void Other::run() {}',                              // 9: no namespace known: Other is the class
    'namespace { void anon() {} }',                      // 10
  ]), [
    'fmt.Formatter → src/format.cc:fmt.Formatter',
    'fmt.Formatter.format_width → src/format.cc:fmt.Formatter',
    'fmt.vprint → src/format.cc:fmt.vprint',
    'fmt.detail.Buffer → src/format.cc:fmt.detail.Buffer',
    'fmt.detail.Buffer.grow → src/format.cc:fmt.detail.Buffer',
    'a.b.Widget → src/format.cc:a.b.Widget',
    'a.b.Widget.resize → src/format.cc:a.b.Widget',
    'fmt.detail.Buffer.clear → src/format.cc:fmt.detail.Buffer',
    'fmt.print → src/format.cc:fmt.print',
    'Other.run → src/format.cc:Other',
    'anon → src/format.cc:anon',
  ]);
  assert.deepEqual(await modules('src/lib.rs', [
    'mod parser {',
    '  pub struct Tokenizer;',
    '  impl Tokenizer { pub fn next(&self) {} }',
    '  pub fn parse() {}',
    '}',
    'impl Config { fn load() {} }',
  ]), [
    'parser.Tokenizer → src/lib.rs:parser.Tokenizer',
    'parser.Tokenizer.next → src/lib.rs:parser.Tokenizer',
    'parser.parse → src/lib.rs:parser.parse',
    'Config.load → src/lib.rs:Config',
  ]);
  assert.deepEqual(await modules('src/a.ts', ['export namespace NS { export function inNs() {} export class K { m() {} } }']), [
    'NS.inNs → src/a.ts:NS.inNs', 'NS.K → src/a.ts:NS.K', 'NS.K.m → src/a.ts:NS.K',
  ]);
  // Python is unchanged: the first part is the module
  assert.deepEqual(await modules('p.py', ['class A:', '    class B:', '        def m(self): pass']), ['A → p.py:A', 'A.B → p.py:A', 'A.B.m → p.py:A']);
});

test('unitVersionsKey names every language whose units changed, as the blob keys do (the mined-commit cache is keyed by it)', () => {
  assert.equal(unitVersionsKey(), extractorKey('src/lib.rs'));
  assert.equal(extractorKey('src/a.py'), 'python');
});
