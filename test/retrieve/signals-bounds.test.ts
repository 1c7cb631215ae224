import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { SignalResolver } from '../../src/retrieve/signals.js';
import { extractIssueSignals, MAX_SIGNALS_PER_KIND } from '../../src/text/issue-signals.js';
import { MAX_DOTTED_PARTS, MAX_NAME_CHARS } from '../../src/text/mentions.js';
import { withCpuTime } from '../util/load-bound.js';

// Issue texts built to be hard (bench/text-speed.ts times them precisely, before -> after): each
// must give its right answer well inside a generous bound. `'main.' * N` took 19.6 s at 700 KB
// when resolving a dotted name rescanned its prefix for each of its parts.

const fn = (qualifiedName: string, line: number): UnitTerms => ({
  kind: 'function', qualifiedName, startLine: line, endLine: line + 2, body: [['x', 1]], bodyLength: 1,
});
const file = (): UnitTerms => ({ ...fn('', 1), kind: 'file' });

function sampleIndex() {
  const files = [
    { path: 'main.py', units: [file(), fn('main', 1)] },
    { path: 'pkg/mainx/main.py', units: [file(), fn('Main.run', 1)] },
    { path: 'django/db/models/query.py', units: [file(), fn('QuerySet.filter', 10)] },
    { path: 'web/index/index.js', units: [file(), fn('serve', 1)] },
    { path: 'src/x.py', units: [file(), fn('x', 1)] },
  ];
  return buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
}

const KB700 = 700 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(KB700 / unit.length)).slice(0, KB700);
/** CPU time, not wall-clock: a blow-up (quadratic scan, backtracking) costs minutes, a loaded machine only waits. */
const BOUND_CPU_MS = 5000;

function timed<T>(f: () => T): { value: T; ms: number } {
  const { value, cpuMs } = withCpuTime(f);
  return { value, ms: cpuMs };
}

test('700 KB adversarial issue texts resolve in bounded time and keep the real signals', () => {
  const ci = sampleIndex();
  const resolver = new SignalResolver(ci);
  const doc = (q: string) => ci.units.findIndex((u) => u.qualifiedName === q);
  const real = 'django.db.models.query.QuerySet.filter fails\n';
  const shapes: [string, string][] = [
    ['main. * N', fill('main.')],
    ['main.main ... (one name, many parts)', `${fill('main.')}main`],
    ['dots', fill('.')],
    ['spaces', fill(' ')],
    ['slashes', fill('/')],
    ['at lines', fill('\tat a.b.C.d(C.java:1)\n')],
    ['at without frames', fill('at ')],
    ['one 700 KB line of letters', fill('a')],
    ['File " without close', fill('File "')],
    ['distinct dotted names', Array.from({ length: 40_000 }, (_, i) => `main.f${i}`).join(' ').slice(0, KB700)],
  ];
  for (const [label, body] of shapes) {
    const { value: boosts, ms } = timed(() => resolver.boosts(extractIssueSignals(real + body)));
    assert.ok(ms < BOUND_CPU_MS, `${label}: ${ms.toFixed(0)} ms of CPU`);
    assert.ok((boosts.reasons.get(doc('QuerySet.filter')) ?? []).includes('mentionedUnit'), `${label}: the real dotted name still counts`);
  }
});

test('a dotted name of too many parts names nothing; mentions are capped per kind', () => {
  const ci = sampleIndex();
  const resolver = new SignalResolver(ci);
  const longName = `${'main.'.repeat(140_000)}main`;
  const { value, ms } = timed(() => resolver.resolveDotted(longName));
  assert.deepEqual(value, { files: [], rest: '' });
  assert.ok(ms < BOUND_CPU_MS, `${ms.toFixed(0)} ms of CPU`);
  const atCap = `${'pkg.'.repeat(MAX_DOTTED_PARTS - 2)}mainx.main`;
  assert.deepEqual(resolver.resolveDotted(atCap).files.map((f) => ci.filePaths[f]), ['pkg/mainx/main.py'], 'a name of exactly the cap resolves');
  const s = extractIssueSignals(`${longName} ${atCap} a.${'b'.repeat(MAX_NAME_CHARS)} ${'f'.repeat(MAX_NAME_CHARS + 1)}(x) g(y)`);
  assert.deepEqual(s.dottedNames, [atCap]);
  assert.deepEqual(s.calledNames, ['g']);
  const many = extractIssueSignals(Array.from({ length: 3000 }, (_, i) => `mod${i}.Cls${i} call${i}() x${i}.py`).join('\n'));
  for (const k of ['dottedNames', 'calledNames', 'filePaths', 'identifiers'] as const) assert.equal(many[k].length, MAX_SIGNALS_PER_KIND, k);
  assert.equal(many.dottedNames[0], 'mod0.Cls0', 'the first mentions are kept');
});

test('a file whose folder has its name is listed once (index/index.js)', () => {
  const ci = sampleIndex();
  const resolver = new SignalResolver(ci);
  assert.deepEqual(resolver.resolveDotted('web.index').files.map((f) => ci.filePaths[f]), ['web/index/index.js']);
  assert.deepEqual(resolver.resolveDotted('index').files.map((f) => ci.filePaths[f]), ['web/index/index.js']);
});
