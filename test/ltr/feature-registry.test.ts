// The features of the learned ranker are one registry (src/ltr/features/registry.ts): the docs
// table, the feature cache's key and the extractor's columns follow from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCodeIndex, DEFAULT_INDEX_SETTINGS } from '../../src/index/code-index.js';
import type { UnitTerms } from '../../src/index/blob-terms.js';
import { FeatureExtractor } from '../../src/ltr/features/extract.js';
import { FEATURE_GROUPS, FEATURE_REGISTRY, FEATURE_VERSION, FEATURES, featureVersion, type FeatureEntry } from '../../src/ltr/features/registry.js';
import { featureTable, withFeatureTable, TABLE_BEGIN, TABLE_END } from '../../src/ltr/features/table.js';
import { FeatureCache, featureCacheKey } from '../../src/ltr/feature-cache.js';
import { DEFAULT_CANDIDATES } from '../../src/ltr/train.js';
import { parseIssue } from '../../src/text/parsed-issue.js';

const DOC = fileURLToPath(new URL('../../../docs/learning-to-rank.md', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../bench/docs-features.js', import.meta.url));

test('feature registry: unique names, one-line docs, each group contiguous in column order', () => {
  assert.deepEqual(FEATURES, FEATURE_REGISTRY.map((f) => f.name));
  assert.equal(new Set(FEATURES).size, FEATURES.length, 'feature names are unique');
  for (const f of FEATURE_REGISTRY) {
    assert.match(f.doc, /^\S[^\n]*\S$/, `${f.name}: one non-empty line`);
    assert.ok(f.normalise === 'max' || f.normalise === 'none', f.name);
  }
  const groups = FEATURE_REGISTRY.map((f) => f.group).filter((g, j, all) => j === 0 || all[j - 1] !== g);
  assert.deepEqual(groups, FEATURE_GROUPS.map((g) => g.name), 'each group once, in the registry order');
  assert.ok(FEATURE_GROUPS.every((g) => Object.keys(g.features).length > 0));
});

test('feature registry: the table in docs/learning-to-rank.md is the registry\'s (npm run docs:features writes it)', () => {
  const doc = readFileSync(DOC, 'utf8');
  assert.ok(doc.includes(`${TABLE_BEGIN}\n${featureTable()}\n${TABLE_END}`), 'docs/learning-to-rank.md: feature table differs from the registry: run npm run docs:features');
  for (const f of FEATURE_REGISTRY) assert.ok(doc.includes(`| \`${f.name}\` | ${f.group} |`), f.name);
});

test('feature registry: the table escapes pipes and replaces only the text between its markers', () => {
  const entry: FeatureEntry = { name: 'pipeline', group: 'g', doc: 'a | b', normalise: 'max' };
  assert.match(featureTable([entry]), /\| 0 \| `pipeline` \| g \| a \\\| b \| ÷ max \|$/);
  const md = `before\n${TABLE_BEGIN}\nstale\n${TABLE_END}\nafter\n`;
  assert.equal(withFeatureTable(md), `before\n${TABLE_BEGIN}\n${featureTable()}\n${TABLE_END}\nafter\n`);
  assert.equal(withFeatureTable(withFeatureTable(md)), withFeatureTable(md));
  assert.throws(() => withFeatureTable('no table here'), /no feature table/);
});

test('docs-features script: --check fails on a stale table, a run rewrites it, a file without the markers is an error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-docs-features-'));
  try {
    const file = join(dir, 'doc.md');
    writeFileSync(file, `# x\n\n${TABLE_BEGIN}\n| stale |\n${TABLE_END}\n`);
    const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args, file], { encoding: 'utf8' });
    const stale = run('--check');
    assert.equal(stale.status, 1);
    assert.match(stale.stderr, /differs from the registry/);
    assert.equal(run().status, 0);
    assert.equal(readFileSync(file, 'utf8'), `# x\n\n${TABLE_BEGIN}\n${featureTable()}\n${TABLE_END}\n`);
    assert.equal(run('--check').status, 0);
    writeFileSync(file, '# no table\n');
    const bad = run('--check');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^docs-features: .*doc\.md: no feature table/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('FEATURE_VERSION follows the registry: any change of a name, group, normalisation or order changes it (and the cache folder), a reworded doc does not', () => {
  assert.equal(FEATURE_VERSION, featureVersion(FEATURE_REGISTRY));
  const list = [...FEATURE_REGISTRY];
  const variants: [string, FeatureEntry[]][] = [
    ['renamed', list.map((f, j) => (j === 3 ? { ...f, name: 'bm25f' as const } : f))],
    ['regrouped', list.map((f, j) => (j === 3 ? { ...f, group: 'other' } : f))],
    ['renormalised', list.map((f, j) => (j === 3 ? { ...f, normalise: f.normalise === 'max' ? 'none' as const : 'max' as const } : f))],
    ['reordered', [list[1], list[0], ...list.slice(2)]],
    ['one more', [...list, { ...list[0], name: 'pipelineRank' }]],
    ['one fewer', list.slice(0, -1)],
  ];
  const versions = new Set([FEATURE_VERSION, featureVersion(list, 999), ...variants.map(([, v]) => featureVersion(v))]);
  assert.equal(versions.size, variants.length + 2, 'every variant has its own version');
  assert.equal(featureVersion(list.map((f) => ({ ...f, doc: `${f.doc}, reworded` }))), FEATURE_VERSION);

  const settings = { candidates: DEFAULT_CANDIDATES, history: true };
  assert.equal(basename(new FeatureCache(tmpdir(), settings).dir), featureCacheKey(settings, FEATURE_VERSION));
  assert.notEqual(featureCacheKey(settings, featureVersion(variants[0][1])), featureCacheKey(settings));
});

test('extractor: columns in registry order, each "max" column divided by its largest value, every value in [0, 1]', () => {
  const fn = (qualifiedName: string, line: number, words: string[]): UnitTerms => ({
    kind: 'function', qualifiedName, startLine: line, endLine: line + 3,
    body: [...words.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>())], bodyLength: words.length,
  });
  const files = [
    { path: 'pkg/parse.py', units: [fn('Parser.parse_header', 1, ['header', 'parse', 'split']), fn('Parser._split', 9, ['split', 'line'])] },
    { path: 'pkg/io/read.py', units: [fn('read_file', 1, ['open', 'parse_header', 'header'])] },
  ];
  const ci = buildCodeIndex('c0ffee', DEFAULT_INDEX_SETTINGS, files, { files: files.length, skipped: {}, parsedBlobs: 0, cachedBlobs: 0 });
  const text = 'Parser.parse_header fails on an empty header\nread_file calls parse_header and the split loses a line';
  const set = new FeatureExtractor(ci, DEFAULT_CANDIDATES).extract(parseIssue(text), {
    files: new Map([['pkg/parse.py', { changes: 4, fixes: 2, fixRecency: 0.5, fixWeighted: 0.3, changeRecency: 0.7 }]]),
    messageScores: new Map([['pkg/io/read.py', 0.4], ['pkg/parse.py', 0.1]]),
    fieldScores: new Map([['pkg/parse.py', 2.5], ['pkg/io/read.py', 5]]),
  });
  const n = set.docs.length;
  assert.equal(n, 3);
  assert.equal(set.features.length, n * FEATURES.length);
  FEATURE_REGISTRY.forEach((f, j) => {
    const column = Array.from({ length: n }, (_, i) => set.features[i * FEATURES.length + j]);
    assert.ok(column.every((v) => v >= 0 && v <= 1), `${f.name}: ${column}`);
    if (f.normalise === 'max' && column.some((v) => v > 0)) assert.equal(Math.max(...column), 1, f.name);
  });
  const at = (i: number, name: string) => set.features[i * FEATURES.length + FEATURES.indexOf(name as (typeof FEATURES)[number])];
  const row = (id: string) => set.ids.indexOf(id);
  assert.equal(at(row('pkg/parse.py:Parser.parse_header'), 'fixes'), 1);
  assert.equal(at(row('pkg/io/read.py:read_file'), 'fixes'), 0);
  assert.equal(at(row('pkg/io/read.py:read_file'), 'messageSim'), 1);
  assert.ok(Math.abs(at(row('pkg/parse.py:Parser._split'), 'messageSim') - 0.25) < 1e-6);
  assert.equal(at(row('pkg/io/read.py:read_file'), 'historyField'), 1);
  assert.equal(at(row('pkg/parse.py:Parser._split'), 'historyField'), 0.5);
  assert.equal(at(row('pkg/parse.py:Parser._split'), 'isPrivate'), 1);
  assert.equal(at(0, 'pipeline'), 1);
});
