import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { SignalResolver, type SignalName } from '../../src/retrieve/signals.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';

const fn = (qualifiedName: string, line: number): UnitTerms => ({
  kind: 'function', qualifiedName, startLine: line, endLine: line + 2, body: [['x', 1]], bodyLength: 1,
});
const file = (): UnitTerms => ({ ...fn('', 1), kind: 'file' });

/** One small repository of Rust, C++, Go, Java and Python files. */
function multiIndex() {
  const files = [
    { path: 'grep-regex/src/literal.rs', units: [file(), fn('LiteralSets.new', 3), fn('LiteralSets.to_regex', 9)] },
    { path: 'crates/ignore/src/walk/mod.rs', units: [file(), fn('WalkBuilder.build', 3)] },
    { path: 'src/bytes_mut.rs', units: [file(), fn('BytesMut.make_mut', 3)] },
    { path: 'include/fmt/format.h', units: [file(), fn('fmt.detail.checker.run', 3), fn('fmt.vformat', 9)] },
    { path: 'src/fmt.cc', units: [file(), fn('fmt.print', 3)] },
    { path: 'net/http/server.go', units: [file(), fn('ListenAndServe', 3), fn('Server.Serve', 9)] },
    { path: 'gson/src/main/java/com/google/gson/Gson.java', units: [file(), fn('Gson.toJson', 3)] },
    { path: 'other/Gson.java', units: [file(), fn('Gson.toJson', 3)] },
    { path: 'third/Gson.java', units: [file(), fn('Gson.toJson', 3)] },
    { path: 'fourth/Gson.java', units: [file(), fn('Gson.toJson', 3)] },
    { path: 'pkg/walk.py', units: [file(), fn('Walk.build', 3), fn('new', 9)] },
  ];
  return buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
}

/** `path:qualifiedName` of each document the signal fired on, sorted. */
function firedOn(text: string, signal: SignalName): string[] {
  const ci = multiIndex();
  const { reasons } = new SignalResolver(ci).boosts(extractIssueSignals(text));
  return [...reasons].filter(([, r]) => r.includes(signal)).map(([d]) => `${ci.units[d].path}:${ci.units[d].qualifiedName}`).sort();
}

test('Rust paths `crate::module::item` resolve through Cargo layouts (src dropped, `-` as `_`, mod.rs)', () => {
  const ci = multiIndex();
  const r = new SignalResolver(ci);
  const paths = (fs: number[]) => fs.map((f) => ci.filePaths[f]);
  assert.deepEqual(paths(r.resolveScoped(['grep_regex', 'literal', 'LiteralSets']).files), ['grep-regex/src/literal.rs']);
  assert.equal(r.resolveScoped(['grep_regex', 'literal', 'LiteralSets']).rest, 'LiteralSets');
  assert.deepEqual(paths(r.resolveScoped(['crate', 'walk', 'WalkBuilder']).files), ['crates/ignore/src/walk/mod.rs']);
  assert.deepEqual(paths(r.resolveScoped(['fmt', 'format']).files), ['include/fmt/format.h']);
  // a C++ namespace that happens to be a file name is no mention of that file (one part only)
  assert.deepEqual(r.resolveScoped(['fmt', 'print']).files, []);
  assert.deepEqual(firedOn('`grep_regex::literal::LiteralSets` is wrong', 'mentionedUnit'), [
    'grep-regex/src/literal.rs:LiteralSets.new', 'grep-regex/src/literal.rs:LiteralSets.to_regex',
  ]);
});

test('`Type::method`, `ns::Class::method`, `Class#method` and Go `pkg.Func` name their units', () => {
  assert.deepEqual(firedOn('calling BytesMut::make_mut twice', 'mentionedUnit'), ['src/bytes_mut.rs:BytesMut.make_mut']);
  assert.deepEqual(firedOn('fmt::v10::detail::checker::run fails; see fmt::print', 'mentionedUnit'), [
    'include/fmt/format.h:fmt.detail.checker.run', 'src/fmt.cc:fmt.print',
  ]);
  assert.deepEqual(firedOn('Gson#toJson drops nulls', 'mentionedUnit').length, 4);
  assert.deepEqual(firedOn('http.ListenAndServe hangs, http.Server.Serve too', 'mentionedUnit'), [
    'net/http/server.go:ListenAndServe', 'net/http/server.go:Server.Serve',
  ]);
  // Python files keep the Python rules: `Walk::build` or `x::new` names nothing there
  assert.deepEqual(firedOn('Walk::build', 'mentionedUnit'), []);
  assert.deepEqual(firedOn('x::new', 'namedFunction'), ['grep-regex/src/literal.rs:LiteralSets.new']);
});

test('a JVM frame resolves its file by its class, among files of one base name', () => {
  const text = 'Exception in thread "main" java.lang.NullPointerException\n\tat com.google.gson.Gson$Adapter.toJson(Gson.java:42)\n';
  assert.deepEqual(firedOn(text, 'frameFile'), ['gson/src/main/java/com/google/gson/Gson.java:Gson.toJson']);
  assert.deepEqual(firedOn(text, 'frameFunction'), ['gson/src/main/java/com/google/gson/Gson.java:Gson.toJson']);
});

test('a C/C++ debugger frame fires frameFile and frameFunction', () => {
  const text = '    #0 0x4f3b2c in fmt::detail::checker::run() /home/u/fmt/include/fmt/format.h:123:5\n';
  assert.deepEqual(firedOn(text, 'frameFunction'), ['include/fmt/format.h:fmt.detail.checker.run']);
});
