// `issueloc eval`, `stats` and `report` end to end on a tiny repository built by the test.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEvalFixture } from '../eval/eval-fixture.js';
import { runInProcess } from './in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');
const fx = buildEvalFixture();
after(() => fx.cleanup());

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('eval writes a results folder and prints the test-split table; stats and report read it', () => {
  const out = join(fx.dir, 'results', 'demo');
  const data = fx.writeDataset('demo.jsonl');
  const r = cli('eval', '--dataset', data, '--repo', fx.repo, '-o', out, '--retrievers', 'bm25f,tfidf,lsi3', '--workers', '1', '--no-progress');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /5 of 7 issues evaluated \(2 records skipped/);
  assert.match(r.out, /### demo: test split \(2 issues\)/);
  assert.match(r.out, /\| BM25F\+ \|/);
  for (const f of ['run.bm25f.txt', 'run.lsi3.txt', 'qrels.test.txt', 'table3.test.md', 'summary.json']) assert.ok(existsSync(join(out, f)), f);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  assert.match(summary.command, /^issueloc eval --dataset /);

  const types = cli('stats', out, '--by', 'type', '--split', 'all', '--no-charts');
  assert.equal(types.code, 0, types.err);
  assert.match(types.out, /Kruskal|ε² \/ p/);
  assert.match(types.out, /Improvement: excluded \(1 issue, fewer than 2 observations\)/);
  const ids = cli('stats', out, '--by', 'identifiers', '--json', '--no-charts');
  assert.equal(ids.code, 0, ids.err);
  const lines = ids.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.retriever), ['bm25f', 'tfidf', 'lsi3']);
  assert.ok(existsSync(join(out, 'stats', 'identifiers.json')));

  const html = join(fx.dir, 'report.html');
  const rep = cli('report', join(fx.dir, 'results'), '-o', html);
  assert.equal(rep.code, 0, rep.err);
  const page = readFileSync(html, 'utf8');
  assert.match(page, /<svg/);
  assert.match(page, /<h2 id="demo">demo<\/h2>/);
  assert.doesNotMatch(page, /NaN/);
});

test('eval --json prints one object per issue result, then a summary', () => {
  const out = join(fx.dir, 'results-json');
  const r = cli('eval', '--dataset', fx.writeDataset('j.jsonl'), '--repo', fx.repo, '-o', out, '--retrievers', 'rvsm', '--split', 'all', '--workers', '1', '--json', '--no-progress');
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.filter((l) => l.kind === 'issue').length, 5);
  assert.equal(lines.at(-1).kind, 'summary');
  assert.equal(lines.at(-1).counts.skippedRecords, 2);
});

// the first through the executable, the others through its main in a worker thread (runInProcess)
test('bad input exits 2 with a one-line message naming it', async () => {
  const missing = cli('eval', '--dataset', join(fx.dir, 'none.jsonl'), '--repo', fx.repo, '-o', join(fx.dir, 'x'), '--no-progress');
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^issueloc: cannot read .*none\.jsonl/);
  const retr = await runInProcess(['eval', '--dataset', fx.writeDataset('r.jsonl'), '--repo', fx.repo, '-o', join(fx.dir, 'x'), '--retrievers', 'bm25,tfidf']);
  assert.equal(retr.code, 2);
  assert.match(retr.err, /unknown retriever 'bm25'/);
  const one = await runInProcess(['eval', '--dataset', fx.writeDataset('one.jsonl', [fx.records[0]]), '--repo', fx.repo, '-o', join(fx.dir, 'x'), '--no-progress']);
  assert.equal(one.code, 2);
  assert.match(one.err, /temporal split needs at least 2 issues/);
  const stats = await runInProcess(['stats', join(fx.dir, 'nothing-here'), '--by', 'type']);
  assert.equal(stats.code, 2);
  assert.match(stats.err, /is not a results folder/);
  const report = await runInProcess(['report', fx.dir + '/repo', '-o', join(fx.dir, 'r.html')]);
  assert.equal(report.code, 2);
  assert.match(report.err, /no results folder/);
});
