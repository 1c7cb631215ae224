import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseByType, correlateCounts, STATS_METRICS } from '../../src/stats/type-analysis.js';
import { kruskalWallis } from '../../src/stats/kruskal.js';
import { conoverMarkdown, correlationMarkdown, typeAnalysisMarkdown } from '../../src/stats/report.js';

const issues = [
  { category: 'Bug', values: { MRR: 1, 'P@1': 1 } },
  { category: 'Bug', values: { MRR: 0.5, 'P@1': 0 } },
  { category: 'Bug', values: { MRR: 1, 'P@1': 1 } },
  { category: 'Task', values: { MRR: 0.1, 'P@1': 0 } },
  { category: 'Task', values: { MRR: 0.2, 'P@1': 0 } },
  { category: 'Task', values: { MRR: null, 'P@1': null } },
  { category: 'New Feature', values: { MRR: 0.3, 'P@1': 0 } },
  { category: 'Wish', values: { MRR: 0.05, 'P@1': 0 } },
];

test('Hit@k is not among the tested metrics', () => {
  assert.ok(!STATS_METRICS.some((m) => m.startsWith('H@')));
});

test('type analysis: specific groups per category, held-out groups = complements incl. other types', () => {
  const [mrr] = analyseByType(issues, { metrics: ['MRR'] });
  assert.equal(mrr.nUndefined, 1);
  assert.deepEqual(mrr.specific.kruskal.groups.map((g) => [g.label, g.n]), [['Bug', 3], ['Task', 2]]);
  assert.deepEqual(mrr.specific.kruskal.excluded.map((e) => e.label), ['Improvement', 'New Feature']);
  const expected = kruskalWallis({ Bug: [1, 0.5, 1], Task: [0.1, 0.2] });
  assert.equal(mrr.specific.kruskal.H, expected.H);
  // held out: Bug → all non-Bug (Task 2, New Feature 1, Wish 1), Improvement → all 7 defined values
  assert.deepEqual(mrr.heldOut.kruskal.groups.map((g) => [g.label, g.n]),
    [['Bug', 4], ['Task', 5], ['Improvement', 7], ['New Feature', 6]]);
  assert.equal(mrr.specific.conover.pairs.length, 1);
  assert.equal(mrr.heldOut.conover.pairs.length, 6);
});

test('Markdown reports print – for undefined statistics and list exclusions', () => {
  const analyses = analyseByType(issues, { metrics: ['MRR', 'P@1'] });
  const md = typeAnalysisMarkdown(analyses, 'Maven, BM25F');
  assert.doesNotMatch(md, /NaN/);
  // scipy: kruskal([1, .5, 1], [.1, .2]) -> H = 3.1579, p = 0.0756; eps2 = H / 4 = 0.789 (not bold: p >= 0.05)
  assert.match(md, /\| MRR \| 0\.789 \/ 0\.076 \| /);
  assert.match(md, /- New Feature: excluded \(1 issue, fewer than 2 observations\)\./);
  assert.match(md, /- MRR: 1 issues without positives left out\./);
  const c = conoverMarkdown(analyses[0].specific.conover, 'Conover');
  assert.match(c, /\| Bug \| Task \| > \| /);
  const corr = correlateCounts('Maven', [3, 1, 4, 0, 0, 2, 1, 0], issues.map((i) => i.values), ['MRR', 'P@1']);
  assert.equal(corr.byMetric.MRR.n, 7);
  const cm = correlationMarkdown([corr, correlateCounts('tiny', [1, 2], issues.slice(0, 2).map((i) => i.values), ['MRR'])], ['MRR'], 'Identifiers');
  assert.match(cm, /\| tiny \| – \|/);
  assert.match(cm, /- tiny \/ MRR: needs at least 3 pairs, got 2\./);
});
