import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { CONTEXT_FRAME, DEEPER_FRAME, DEFAULT_SIGNAL_WEIGHTS, SignalResolver } from '../../src/retrieve/signals.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';

const fn = (qualifiedName: string, line: number): UnitTerms => ({
  kind: 'function', qualifiedName, startLine: line, endLine: line + 2, body: [['x', 1]], bodyLength: 1,
});
const file = (): UnitTerms => ({ ...fn('', 1), kind: 'file' });

/** A small repository of C++, Go, Rust, JavaScript and Python files. */
function reportIndex() {
  const files = [
    { path: 'include/fmt/ranges.h', units: [file(), fn('fmt.detail.write_range', 3)] },
    { path: 'include/fmt/format.h', units: [file(), fn('fmt.vformat', 3), fn('fmt.detail.buffer.push_back', 9)] },
    { path: 'src/jv.c', units: [file(), fn('jvp_number_cmp', 3)] },
    { path: 'src/decNumber/decNumber.c', units: [file(), fn('decCompare', 3)] },
    { path: 'core/mapping/unmarshaler.go', units: [file(), fn('Unmarshaler.processField', 3)] },
    { path: 'src/bytes.rs', units: [file(), fn('Bytes.slice', 3)] },
    { path: 'lib/core/settle.js', units: [file(), fn('settle', 3)] },
    { path: 'src/fetchers/stats-fetcher.js', units: [file(), fn('fetchStats', 3)] },
    { path: 'pkg/settle.py', units: [file(), fn('settle', 3)] },
  ];
  return buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
}

/** Per `path:qualifiedName` with a frame signal: the boost the frame signals give it. */
function frameBoosts(text: string): Record<string, number> {
  const ci = reportIndex();
  const weights = { ...DEFAULT_SIGNAL_WEIGHTS, mentionedFile: 0, mentionedUnit: 0, namedFunction: 0 };
  const { boost, reasons } = new SignalResolver(ci).boosts(extractIssueSignals(text), weights);
  const out: Record<string, number> = {};
  for (const [d] of reasons) out[`${ci.units[d].path}:${ci.units[d].qualifiedName}`] = Math.round(boost[d] * 1000) / 1000;
  return out;
}

const { frameFile: F, frameFunction: FN } = DEFAULT_SIGNAL_WEIGHTS;
const r = (x: number) => Math.round(x * 1000) / 1000;

test('a compiler error fires fully, its notes and include chain at the context strength', () => {
  const b = frameBoosts([
    'In file included from /opt/ce/libs/fmt/trunk/include/fmt/format.h:18,',
    '/opt/ce/libs/fmt/trunk/include/fmt/ranges.h:526:21: error: call of overloaded write is ambiguous',
  ].join('\n'));
  assert.equal(b['include/fmt/ranges.h:fmt.detail.write_range'], r(F));
  assert.equal(b['include/fmt/format.h:fmt.vformat'], r(F * CONTEXT_FRAME));
});

test('the top application frame fires fully, deeper ones less, library frames least', () => {
  const asan = [
    '    #0 0x5613e8af1585 in decCompare src/decNumber/decNumber.c:6209',
    '    #1 0x5613e8aa6cda in jvp_number_cmp src/jv.c:757',
  ].join('\n');
  const b = frameBoosts(asan);
  assert.equal(b['src/decNumber/decNumber.c:decCompare'], r(F + FN));
  assert.equal(b['src/jv.c:jvp_number_cmp'], r((F + FN) * DEEPER_FRAME));
  const v8 = [
    'AxiosError: Request failed',
    '    at settle (file:///app/node_modules/axios/lib/core/settle.js:19:12)',
    '    at async fetchStats (/app/src/fetchers/stats-fetcher.js:88:5)',
  ].join('\n');
  const j = frameBoosts(v8);
  // node_modules/axios/lib/core/settle.js is the repository's own code (the repository is axios): the top frame
  assert.equal(j['lib/core/settle.js:settle'], r(F + FN));
  assert.equal(j['src/fetchers/stats-fetcher.js:fetchStats'], r((F + FN) * DEEPER_FRAME));
  // a dependency's frame that matches only by file name is a library frame
  const dep = frameBoosts('    at settle (/app/node_modules/other/settle.js:19:12)\n    at fetchStats (/app/src/fetchers/stats-fetcher.js:88:5)');
  assert.equal(dep['lib/core/settle.js:settle'], r((F + FN) * CONTEXT_FRAME));
  assert.equal(dep['src/fetchers/stats-fetcher.js:fetchStats'], r(F + FN));
});

test('Go, Rust sites and a linker symbol reach function ranking; Python files keep full strength', () => {
  const go = 'github.com/zeromicro/go-zero/core/mapping.(*Unmarshaler).processField(0xc0001a2000)\n\t/home/u/go/pkg/mod/github.com/zeromicro/go-zero@v1.5.0/core/mapping/unmarshaler.go:612 +0x1d';
  // a module-cache frame of the repository's own module is its code: full strength
  assert.equal(frameBoosts(go)['core/mapping/unmarshaler.go:Unmarshaler.processField'], r(F + FN));
  assert.equal(frameBoosts("thread 'main' panicked at src/bytes.rs:1020:9:")['src/bytes.rs:Bytes.slice'], r(F));
  const linker = "main.cpp:(.text+0x1a): undefined reference to `fmt::detail::buffer<char>::push_back(char)'";
  assert.equal(frameBoosts(linker)['include/fmt/format.h:fmt.detail.buffer.push_back'], r(FN));
  // a V8 frame in node_modules that names a Python file: full strength, as Python frames always had
  assert.equal(frameBoosts('    at settle (/app/node_modules/pkg/settle.py:19:12)')['pkg/settle.py:settle'], r(F + FN));
});
