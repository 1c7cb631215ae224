import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { SignalResolver } from '../../src/retrieve/signals.js';
import { extractIssueSignals } from '../../src/text/issue-signals.js';
import { Localizer } from '../../src/retrieve/localize.js';
import { DEFAULT_TITLE_WEIGHT } from '../../src/retrieve/query.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const fn = (qualifiedName: string, line: number, words: string[]): UnitTerms => ({
  kind: 'function', qualifiedName, startLine: line, endLine: line + 2,
  body: [...words.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>())], bodyLength: words.length,
});
const file = (words: string[]): UnitTerms => ({ ...fn('', 1, words), kind: 'file' });

function sampleIndex() {
  const files = [
    { path: 'django/db/models/query.py', units: [file(['query', 'filter']), fn('QuerySet.filter', 10, ['filter', 'query']), fn('QuerySet.exclude', 20, ['exclude'])] },
    { path: 'django/db/models/sql/query.py', units: [file(['sql', 'query']), fn('Query.add_q', 5, ['add', 'query'])] },
    { path: 'django/utils/text.py', units: [file(['text']), fn('slugify', 1, ['slug', 'text'])] },
    { path: 'src/main/java/org/apache/catalina/connector/Request.java', units: [file(['request']), fn('Request.getParameter', 3, ['parameter'])] },
  ];
  return buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
}

const ids = (ci: ReturnType<typeof sampleIndex>, docs: Iterable<number>) =>
  [...docs].map((d) => `${ci.units[d].path}:${ci.units[d].qualifiedName}`).sort();

test('paths resolve by the longest suffix; a bare ambiguous name resolves to all its files', () => {
  const ci = sampleIndex();
  const r = new SignalResolver(ci);
  assert.deepEqual(r.resolvePath('/usr/lib/python3/site-packages/django/db/models/query.py').map((f) => ci.filePaths[f]), ['django/db/models/query.py']);
  assert.deepEqual(r.resolvePath('C:\\work\\django\\db\\models\\sql\\query.py').map((f) => ci.filePaths[f]), ['django/db/models/sql/query.py']);
  assert.equal(r.resolvePath('query.py').length, 2);
  assert.deepEqual(r.resolvePath('vendor/left_pad.py'), []);
});

test('dotted names resolve to a file and the unit inside it', () => {
  const ci = sampleIndex();
  const r = new SignalResolver(ci);
  const { files, rest } = r.resolveDotted('django.db.models.query.QuerySet.filter');
  assert.deepEqual(files.map((f) => ci.filePaths[f]), ['django/db/models/query.py']);
  assert.equal(rest, 'QuerySet.filter');
  const java = r.resolveDotted('org.apache.catalina.connector.Request');
  assert.deepEqual(java.files.map((f) => ci.filePaths[f]), ['src/main/java/org/apache/catalina/connector/Request.java']);
  assert.deepEqual(r.resolveDotted('other.pkg.query').files, [], 'one matching component of several is no match');
});

test('a Python traceback boosts the frame’s file and function; named functions are boosted', () => {
  const ci = sampleIndex();
  const r = new SignalResolver(ci);
  const issue = [
    'Traceback (most recent call last):',
    '  File "/home/u/venv/lib/python3.11/site-packages/django/db/models/query.py", line 12, in filter',
    '    return self._filter_or_exclude(False, args, kwargs)',
    'TypeError: boom. Also `slugify()` drops dashes.',
  ].join('\n');
  const { boost, reasons } = r.boosts(extractIssueSignals(issue));
  const boosted = [...reasons.keys()];
  assert.ok(ids(ci, boosted).includes('django/db/models/query.py:QuerySet.filter'));
  assert.ok(ids(ci, boosted).includes('django/utils/text.py:slugify'));
  const filterDoc = ci.units.findIndex((u) => u.qualifiedName === 'QuerySet.filter');
  const excludeDoc = ci.units.findIndex((u) => u.qualifiedName === 'QuerySet.exclude');
  assert.ok(boost[filterDoc] > boost[excludeDoc], 'the frame function beats its file-mate');
  assert.ok(reasons.get(filterDoc)!.includes('frameFunction'));
  assert.equal(boost[ci.units.findIndex((u) => u.qualifiedName === 'Query.add_q')], 0);
});

test('each call of boosts gives its own boosts in the reused array: the documents of the call before are back to 0', () => {
  const ci = sampleIndex();
  const r = new SignalResolver(ci);
  const slugify = ci.units.findIndex((u) => u.qualifiedName === 'slugify');
  const filter = ci.units.findIndex((u) => u.qualifiedName === 'QuerySet.filter');
  const first = r.boosts(extractIssueSignals('`slugify()` drops dashes'));
  assert.ok(first.boost[slugify] > 0);
  const fresh = new SignalResolver(ci).boosts(extractIssueSignals('see django/db/models/query.py'));
  const second = r.boosts(extractIssueSignals('see django/db/models/query.py'));
  assert.equal(second.boost[slugify], 0);
  assert.ok(second.boost[filter] > 0);
  assert.deepEqual([...second.boost], [...fresh.boost]);
  assert.deepEqual([...second.reasons.keys()], [...fresh.reasons.keys()]);
});

test('signals reorder the ranking; signals: false leaves BM25F alone', () => {
  const ci = sampleIndex();
  const text = `${'query filter '.repeat(30)}slow. Traceback: File "django/utils/text.py", line 2, in slugify`;
  const q = parseIssue(text).queryTerms({ stem: false, titleWeight: DEFAULT_TITLE_WEIGHT });
  const rankOf = (signals: Record<string, number> | false) => {
    const r = new Localizer(ci, { signals }).localize(q, { signals: extractIssueSignals(text), top: 10 });
    return r.functions.findIndex((f) => f.id === 'django/utils/text.py:slugify');
  };
  const withSignals = rankOf({ frameFile: 0.5, frameFunction: 0.5 });
  const without = rankOf(false);
  assert.ok(withSignals >= 0 && (without < 0 || withSignals < without), `with ${withSignals}, without ${without}`);
});
