import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ISSUE_TEXT } from '../../src/eval/issue-text.js';
import { reciprocalRank } from '../../src/metrics/ranking-metrics.js';
import { readResults, RunFileWriter, writeResults, type RunSummary } from '../../src/eval/results.js';
import { runEvaluation, type EvalOptions } from '../../src/eval/run-eval.js';
import { PAPER_TEXT_SETTINGS } from '../../src/eval/text-settings.js';
import { parseQrels, parseRun } from '../../src/eval/trec.js';
import { IssuelocError } from '../../src/errors.js';
import { buildEvalFixture } from './eval-fixture.js';

const fx = buildEvalFixture();
after(() => fx.cleanup());

function options(over: Partial<EvalOptions> = {}): EvalOptions {
  return {
    dataset: fx.writeDataset('d.jsonl'), repo: fx.repo, retrievers: ['bm25f', 'tfidf', 'rvsm', 'lsi3', 'lsi1000'],
    split: 'temporal', text: PAPER_TEXT_SETTINGS, issueText: DEFAULT_ISSUE_TEXT, includeTests: true,
    retrieverSettings: {}, workers: 1, runDepth: 1000, ...over,
  };
}

test('bad records are skipped with reasons; positives that are not candidates are dropped and counted', async () => {
  const run = await runEvaluation(options());
  assert.equal(run.counts.records, 7);
  assert.equal(run.counts.skippedRecords, 2);
  const reasons = new Map(run.skipped.map((s) => [s.id, s.reason]));
  assert.match(reasons.get('FIX-5') ?? '', /a-priori commit deadbeef.* is not in the repository/);
  assert.match(reasons.get('FIX-6') ?? '', /positive file src\/http\/Missing\.java does not exist at the a-priori state/);
  assert.equal(run.counts.evaluated, 5);
  assert.equal(run.counts.positivesNotCandidates, 1, 'README.md is not a source file');
  assert.equal(run.counts.issuesWithoutPositives, 1);
  const fix7 = run.rows.filter((r) => r.issue === 'FIX-7');
  assert.equal(fix7.length, 5);
  for (const r of fix7) assert.ok(Object.values(r.values).every((v) => v === null), 'no positives: every metric undefined, never NaN');
});

test('temporal split by first commit: the earlier half is validation; work runs in a-priori order', async () => {
  const run = await runEvaluation(options());
  const split = new Map(run.issues.map((i) => [i.id, i.split]));
  // First commits: FIX-1 and FIX-7 at t=2000, FIX-2 3000, FIX-3 4000, FIX-4 5000 → 3 validation, 2 test.
  assert.deepEqual([...split].filter(([, s]) => s === 'validation').map(([id]) => id).sort(), ['FIX-1', 'FIX-2', 'FIX-7']);
  assert.deepEqual([...split].filter(([, s]) => s === 'test').map(([id]) => id).sort(), ['FIX-3', 'FIX-4']);
  assert.deepEqual(run.issues.map((i) => i.id), ['FIX-1', 'FIX-7', 'FIX-2', 'FIX-3', 'FIX-4']);
});

test('each issue finds its file first with BM25F+; LSI with k ≥ files ranks as TF-IDF', async () => {
  const run = await runEvaluation(options({ split: 'all' }));
  for (const id of ['FIX-1', 'FIX-2', 'FIX-3', 'FIX-4']) {
    const r = run.rows.find((x) => x.issue === id && x.retriever === 'bm25f');
    assert.deepEqual(r?.positiveRanks, [1], `${id}: ${r?.top.join(', ')}`);
  }
  for (const id of ['FIX-1', 'FIX-2', 'FIX-3', 'FIX-4']) {
    const a = run.rows.find((x) => x.issue === id && x.retriever === 'tfidf');
    const b = run.rows.find((x) => x.issue === id && x.retriever === 'lsi1000');
    assert.deepEqual(b?.positiveRanks, a?.positiveRanks);
  }
  assert.equal(run.stats.lsi1000.cosine, 5);
  assert.ok(run.stats.lsi3.fits >= 1, 'lsi3 < 6 files: an SVD is fitted');
  assert.ok(run.stats.blobs.blobHits > 0, 'later states reuse cached blobs');
});

test('worker threads give the same rows as one thread, in the same order', async () => {
  const one = await runEvaluation(options({ workers: 1 }));
  const two = await runEvaluation(options({ workers: 2 }));
  assert.equal(two.workers, 2);
  assert.deepEqual(two.rows, one.rows, 'the same rows, in work order');
});

test('results folder: runs and qrels re-check the metrics (trec_eval recip_rank), tables have no NaN', async () => {
  const out = join(fx.dir, 'results');
  const retrievers = ['bm25f', 'tfidf'];
  const writer = new RunFileWriter(out, retrievers);
  const run = await runEvaluation(options({ retrievers }), (_i, _s, o) => writer.add(o));
  writer.commit();
  const summary: RunSummary = {
    tool: 'issueloc eval', name: 'fixture', dataset: 'd.jsonl', repo: fx.repo, settings: {}, retrievers, split: 'temporal',
    counts: run.counts, boundary: run.boundary, timings: run.timings, stats: run.stats, workers: run.workers,
  };
  writeResults(out, summary, run);
  for (const f of ['summary.json', 'per-issue.jsonl', 'skipped.jsonl', 'qrels.txt', 'qrels.test.txt', 'qrels.validation.txt',
    'run.bm25f.txt', 'run.tfidf.txt', 'table3.test.md', 'table3.validation.csv', 'metrics.test.json']) {
    assert.ok(existsSync(join(out, f)), f);
  }
  assert.deepEqual(readdirSync(out).filter((f) => f.includes('.tmp-')), [], 'no temporary files left');
  const qrels = parseQrels(readFileSync(join(out, 'qrels.txt'), 'utf8'));
  assert.equal(qrels.has('FIX-7'), false, 'an issue without positives has no qrels line');
  const parsed = parseRun(readFileSync(join(out, 'run.bm25f.txt'), 'utf8'));
  for (const q of parsed.queries) {
    const rr = reciprocalRank(q.ranking.map((x) => x.id), qrels.get(q.qid) ?? []);
    const ours = run.rows.find((r) => r.issue === q.qid && r.retriever === 'bm25f')?.values.MRR ?? null;
    assert.equal(rr, ours, q.qid);
  }
  for (const f of ['table3.test.md', 'table3.validation.md', 'metrics.test.csv', 'table3.test.json']) {
    assert.doesNotMatch(readFileSync(join(out, f), 'utf8'), /NaN/, f);
  }
  assert.match(readFileSync(join(out, 'table3.validation.md'), 'utf8'), /1 of 3 issues have no positives/);
  const back = readResults(out);
  assert.equal(back.rows.length, run.rows.length);
  assert.equal(back.summary.name, 'fixture');
});

test('bad input: unreadable dataset, nothing evaluable, one issue for a temporal split', async () => {
  await assert.rejects(runEvaluation(options({ dataset: join(fx.dir, 'nope.jsonl') })), (e: Error) => e instanceof IssuelocError && /cannot read/.test(e.message));
  const bad = fx.writeDataset('bad.jsonl', [fx.records[4], fx.records[5]]);
  await assert.rejects(runEvaluation(options({ dataset: bad })), /no record of .* could be evaluated: 2 skipped/);
  const one = fx.writeDataset('one.jsonl', [fx.records[0]]);
  await assert.rejects(runEvaluation(options({ dataset: one })), /temporal split needs at least 2 issues/);
  const ok = await runEvaluation(options({ dataset: one, split: 'all' }));
  assert.equal(ok.counts.evaluated, 1);
  await assert.rejects(runEvaluation(options({ repo: join(fx.dir, 'nowhere') })), /not a git repository/);
});

test('--mirrors: each record is evaluated in its own repository; records of absent repositories are skipped', async () => {
  mkdirSync(join(fx.dir, 'mirrors', 'demo+proj'), { recursive: true });
  symlinkSync(fx.repo, join(fx.dir, 'mirrors', 'demo+proj', 'repo'));
  const recs = [
    { ...fx.records[0], repo: 'demo/proj' },
    { ...fx.records[2], repo: 'demo/proj' },
    { ...fx.records[3], repo: 'other/absent' },
  ];
  const run = await runEvaluation(options({ dataset: fx.writeDataset('m.jsonl', recs), repo: undefined, mirrors: join(fx.dir, 'mirrors'), split: 'all', retrievers: ['bm25f'] }));
  assert.equal(run.counts.evaluated, 2);
  assert.match(run.skipped[0].reason, /repository other\/absent is not under/);
  assert.ok(run.issues.every((i) => i.repoPath.endsWith(join('demo+proj', 'repo'))));
  assert.deepEqual(run.rows.map((r) => r.positiveRanks), [[1], [1]]);
});

test('a benchmark file is evaluated as it is (loadDataset): Loc-Bench rows need no import; SWE-bench needs --mirrors', async () => {
  const row = (id: string, base: string, files: string[], text: string) => ({
    instance_id: id, repo: 'demo/proj', base_commit: base, problem_statement: text, patch: '', category: 'Bug Report',
    edit_functions: files.map((f) => `${f}:X.f`), edit_files: files, patch_files: files,
  });
  const file = join(fx.dir, 'locbench.jsonl');
  writeFileSync(file, [
    row('demo__proj-1', fx.commits[0], ['src/http/Cookie.java'], 'Cookie header parsing fails\nA quoted cookie value returns null.'),
    row('demo__proj-2', fx.commits[2], ['src/http/Session.java'], 'Session expires too early\nA session expired exactly at its timeout.'),
  ].map((r) => JSON.stringify(r)).join('\n') + '\n');
  const run = await runEvaluation(options({ dataset: file, split: 'all', retrievers: ['bm25f'] }));
  assert.equal(run.counts.evaluated, 2);
  assert.deepEqual(run.rows.map((r) => r.positiveRanks), [[1], [1]]);
  const swe = join(fx.dir, 'swe.jsonl');
  writeFileSync(swe, `${JSON.stringify({ instance_id: 'demo__proj-3', repo: 'demo/proj', base_commit: fx.commits[0], problem_statement: 't', patch: '' })}\n`);
  await assert.rejects(runEvaluation(options({ dataset: swe, split: 'all' })), /swe\.jsonl: reading the gold of a SWE-bench file needs its repositories/);
});
