import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregate, evaluateQuery, PAPER_METRICS } from '../../src/metrics/ranking-metrics.js';
import { metricTable, toCsv, toJson, toMarkdown, writeTable } from '../../src/eval/tables.js';
import { IssuelocError } from '../../src/errors.js';

const ranked = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
// bm25f: one issue with positive at rank 1, one issue without positives (undefined everywhere)
const bm25 = aggregate([evaluateQuery(ranked, ['a']).values, evaluateQuery(ranked, []).values]);
// tfidf: positive at rank 2
const tfidf = aggregate([evaluateQuery(ranked, ['b']).values]);
// empty: only issues without positives
const empty = aggregate([evaluateQuery(ranked, []).values]);

test('Table 3 shape: a row per retriever, the paper columns, an Average row', () => {
  const t = metricTable([{ label: 'bm25f', aggregates: bm25 }, { label: 'tfidf', aggregates: tfidf }], { title: 'Maven test split' });
  assert.deepEqual(t.columns, [...PAPER_METRICS]);
  assert.deepEqual(t.rows.map((r) => r.label), ['bm25f', 'tfidf', 'Average']);
  assert.equal(t.rows[2].cells.MRR.mean, 0.75); // mean of 1 and 0.5
  const md = toMarkdown(t);
  assert.match(md, /^### Maven test split\n\n\| Retriever \| P@1 \| P@5 \| P@10 \| H@1 \| H@5 \| H@10 \| R@1 \| R@5 \| R@10 \| RP \| MRR \|\n/);
  assert.match(md, /\| bm25f \| \*\*1\.000\*\* \| /);
  assert.match(md, /\| Average \| 0\.500 \| /);
  assert.match(md, /- bm25f: 1 of 2 issues have no positives and are left out of the means\./);
});

test('undefined means print as – (never NaN) in Markdown, empty in CSV, null in JSON', () => {
  const t = metricTable([{ label: 'bm25f', aggregates: bm25 }, { label: 'nothing', aggregates: empty }], { average: false });
  const md = toMarkdown(t);
  assert.doesNotMatch(md, /NaN/);
  assert.match(md, /\| nothing \| – \| – \|/);
  assert.match(md, /^- –: no defined value/m);
  const csv = toCsv(t);
  assert.doesNotMatch(csv, /NaN/);
  assert.equal(csv.split('\r\n')[2], 'nothing,,,,,,,,,,,,0,1');
  const json = JSON.parse(toJson(t)) as { rows: { label: string; cells: Record<string, { mean: number | null }> }[] };
  assert.equal(json.rows[1].cells.MRR.mean, null);
  assert.equal(json.rows[0].cells['R@1'].mean, 1);
});

test('transposed layout puts metrics in rows (replication-package layout)', () => {
  const t = metricTable([{ label: 'bm25f', aggregates: bm25 }, { label: 'tfidf', aggregates: tfidf }], { columns: ['P@1', 'MRR'] });
  const md = toMarkdown(t, { layout: 'metrics-as-rows', markBest: false });
  assert.match(md, /\| Metric \| bm25f \| tfidf \| Average \|\n\|---\|---:\|---:\|---:\|\n\| P@1 \| 1\.000 \| 0\.000 \| 0\.500 \|\n\| MRR \| 1\.000 \| 0\.500 \| 0\.750 \|/);
});

test('writeTable writes md, csv and json; CSV quotes labels with commas', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-tables-'));
  try {
    const t = metricTable([{ label: 'lsi,500', aggregates: tfidf }], { rowHeader: 'Project' });
    const paths = writeTable(dir, 'table3', t);
    assert.deepEqual(paths.map((p) => p.slice(dir.length + 1)), ['table3.md', 'table3.csv', 'table3.json']);
    assert.match(readFileSync(paths[1], 'utf8'), /^Project,P@1,.*\r\n"lsi,500",0,/);
    assert.throws(() => writeTable(dir, '../x', t), IssuelocError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad table input throws', () => {
  assert.throws(() => metricTable([]), /at least one row/);
  assert.throws(() => metricTable([{ label: 'a', aggregates: tfidf }, { label: 'a', aggregates: tfidf }]), /'a' appears twice/);
});
