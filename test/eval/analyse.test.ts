import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identifierCorrelations, typeAnalysisOf, typeAnalysisReport } from '../../src/eval/analyse.js';
import { markdownToHtml, table3AcrossProjects, table4ByProject } from '../../src/eval/html-report.js';
import type { ResultsFolder, RunSummary } from '../../src/eval/results.js';
import type { IssueResultRow } from '../../src/eval/run-eval.js';
import { toMarkdown } from '../../src/eval/tables.js';

function row(issue: string, category: string, mrr: number | null, identifiers = 0, retriever = 'bm25f'): IssueResultRow {
  const v = (x: number | null) => x;
  return {
    issue, retriever, split: 'test', type: category, category, identifiers, fileNames: 0, candidates: 10, positives: mrr === null ? 0 : 1,
    positiveRanks: [], retrieved: 10, top: [],
    values: { 'P@1': v(mrr === null ? null : mrr === 1 ? 1 : 0), 'P@5': v(mrr), 'P@10': v(mrr), 'H@1': v(mrr), 'H@5': v(mrr), 'H@10': v(mrr), 'R@1': v(mrr), 'R@5': v(mrr), 'R@10': v(mrr), RP: v(mrr), MRR: v(mrr) },
  };
}

test('type analysis: a type with fewer than two issues is excluded and said; undefined values are counted, never NaN', () => {
  const rows = [
    row('1', 'Bug', 1), row('2', 'Bug', 0.5), row('3', 'Bug', 0.25), row('4', 'Improvement', 0.1), row('5', 'Improvement', 0.2),
    row('6', 'Task', 1), row('7', 'Bug', null),
  ];
  const t = typeAnalysisOf(rows, 'bm25f', 'category');
  const mrr = t.analyses.find((a) => a.metric === 'MRR');
  assert.ok(mrr);
  assert.equal(mrr.nUndefined, 1);
  assert.deepEqual(mrr.specific.kruskal.excluded.map((e) => e.label).sort(), ['New Feature', 'Task']);
  assert.ok(mrr.specific.kruskal.H !== null && Number.isFinite(mrr.specific.kruskal.H));
  const md = typeAnalysisReport(t, 'Types');
  assert.match(md, /Task: excluded \(1 issue, fewer than 2 observations\)/);
  assert.match(md, /1 issues without positives left out/);
  assert.doesNotMatch(md, /NaN/);
  assert.ok(t.means.every((m) => m.value === null || Number.isFinite(m.value)));
});

test('identifier correlations: all issues plus each group with at least three issues', () => {
  const rows = [row('1', 'Bug', 1, 5), row('2', 'Bug', 0.5, 3), row('3', 'Bug', 0.2, 1), row('4', 'Task', 0.3, 2)];
  const c = identifierCorrelations(rows, 'category');
  assert.deepEqual(c.map((r) => r.label), ['all issues', 'Bug']);
  assert.ok(Math.abs((c[1].byMetric.MRR.rho as number) - 1) < 1e-12, 'more identifiers, higher MRR in this sample');
});

function folder(name: string, rows: IssueResultRow[], retrievers: string[]): ResultsFolder {
  const summary = { name, retrievers, dataset: '', repo: '', settings: {}, split: 'temporal' } as unknown as RunSummary;
  return { dir: `/r/${name}`, summary, rows };
}

test('Tables 3 and 4 across projects average the projects\' means', () => {
  const a = folder('A', [row('1', 'Bug', 1), row('2', 'Bug', 0), row('1', 'Bug', 0.5, 0, 'tfidf'), row('2', 'Bug', 0.5, 0, 'tfidf')], ['bm25f', 'tfidf']);
  const b = folder('B', [row('1', 'Bug', 0.2), row('1', 'Bug', 0.4, 0, 'tfidf')], ['bm25f', 'tfidf']);
  const t3 = table3AcrossProjects([a, b]);
  const bm = t3.rows.find((r) => r.label === 'BM25F+');
  assert.ok(Math.abs((bm?.cells.MRR.mean as number) - (0.5 + 0.2) / 2) < 1e-12);
  const t4 = table4ByProject([a, b]);
  assert.ok(Math.abs((t4.rows.find((r) => r.label === 'B')?.cells.MRR.mean as number) - 0.3) < 1e-12);
  const html = markdownToHtml(toMarkdown(t4));
  assert.match(html, /<table>/);
  assert.match(html, /<th>Project<\/th>/);
  assert.match(html, /<strong>0\.500<\/strong>/, 'best value bold');
});
