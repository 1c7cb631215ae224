// bench/peers: the Lucene output parser, the time summaries and ratios, the jar lookup and the
// query lines (no Java, no data); and the driver's one-line skip when the data is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../bench/lib/regressions.js';
import { luceneJars, parseLuceneOutput, quantile, queryLine, ratios, ratioTable, summarise } from '../../bench/peers/peer-stats.js';

test('parseLuceneOutput reads the index line and the timed queries, hits of the first round', () => {
  const run = parseLuceneOutput('index 1200 3\nq 0 0 2000000 1000000 7\nq 0 1 4000000 3000000 0\nq 1 0 1000000 1000000 7\n');
  assert.deepEqual(run, {
    indexMillis: 1200, docs: 3, hits: [7, 0],
    times: [{ wallMs: 2, cpuMs: 1 }, { wallMs: 4, cpuMs: 3 }, { wallMs: 1, cpuMs: 1 }],
  });
});

test('parseLuceneOutput refuses a stray line and a missing index line, naming the line', () => {
  assert.throws(() => parseLuceneOutput('index 1 1\nException in thread main\n'), /line 2 .*Exception/);
  assert.throws(() => parseLuceneOutput('q 0 0 1 1 1\n'), /no index line/);
  assert.throws(() => parseLuceneOutput('index 1 1\nq 0 0 -5 1 1\n'), /line 2/);
});

test('quantile is the nearest rank; summarise gives median, p90 and mean CPU', () => {
  const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
  assert.equal(quantile(xs, 0.5), 5);
  assert.equal(quantile(xs, 0.9), 9);
  assert.ok(Number.isNaN(quantile([], 0.5)));
  const s = summarise(xs.map((x) => ({ wallMs: x, cpuMs: x / 2 })));
  assert.deepEqual(s, { queries: 10, medianMs: 5, p90Ms: 9, cpuMs: 2.75 });
});

test('ratios divide ours by the peer; the table holds one row per engine', () => {
  const peer = { queries: 4, medianMs: 2, p90Ms: 8, cpuMs: 4 };
  const ours = { queries: 4, medianMs: 1, p90Ms: 4, cpuMs: 6 };
  assert.deepEqual(ratios(ours, peer), { median: 0.5, p90: 0.5, cpu: 1.5 });
  const table = ratioTable({ name: 'Lucene', summary: peer }, [{ name: 'ours', summary: ours }]).split('\n');
  assert.equal(table.length, 4);
  assert.equal(table[3], '| ours | 1.00 | 4.00 | 6.00 | 0.50 | 0.50 | 1.50 |');
});

test('luceneJars picks core and analyzers-common of Lucene 4, newest first', () => {
  assert.deepEqual(luceneJars(['lucene-core-4.9.0.jar', 'lucene-core-4.10.4.jar', 'lucene-analyzers-common-4.10.4.jar', 'lucene-core-8.0.jar']),
    { core: 'lucene-core-4.10.4.jar', analyzers: 'lucene-analyzers-common-4.10.4.jar' });
  assert.equal(luceneJars(['lucene-core-4.10.4.jar']), undefined);
});

test('queryLine writes term and weight pairs, without terms the whitespace tokeniser would split', () => {
  assert.equal(queryLine(new Map([['sympi', 3], ['a b', 1], ['zero', 0], ['matrix', 1]])), 'sympi\t3\tmatrix\t1');
});

test('the driver skips with one line when the issue file is absent', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'bench', 'peers', 'lucene.js'), '--issues', join(ROOT, 'no-such-file.jsonl')], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^peers: skipped: no issue file .*no-such-file\.jsonl.*\n$/);
});
