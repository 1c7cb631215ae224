// Eval jobs in shards (in-process pool): the shards of a dataset, collected, give the results
// folder one `issueloc eval` of the whole dataset writes; a missing shard makes collect refuse,
// and --partial says in its tables how many issues it covers. The CLI runs in-process (runInProcess).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureRepo, type FixtureCommit } from '../repo/fixture-repo.js';
import { collectResults } from '../../src/batch/collect.js';
import { runLocalBatch } from '../../src/batch/local-batch.js';
import { planEvalJobs } from '../../src/batch/plan.js';
import { addToManifest } from '../../src/batch/results-folder.js';
import { runInProcess } from '../cli/in-process.js';

const TOPICS = ['parse date trim', 'render table rows', 'socket timeout retry', 'cache evict entry', 'json escape quote', 'thread pool shutdown', 'locale number format', 'zip archive entry'];
const cls = (i: number, extra = '') => `class F${i} { void ${TOPICS[i].split(' ').join('_')}() { ${extra} } }`;
const commits: FixtureCommit[] = [
  { id: 'A', message: 'init', files: Object.fromEntries(TOPICS.map((_, i) => [`src/F${i}.java`, cls(i)])) },
  ...TOPICS.map((_, i) => ({ id: `C${i}`, parents: [i === 0 ? 'A' : `C${i - 1}`], message: `[MNG-${i + 1}] fix ${TOPICS[i]}`, files: { [`src/F${i}.java`]: cls(i, 'int n;') } })),
];
const repo = fixtureRepo(commits);
const dir = mkdtempSync(join(tmpdir(), 'issueloc-eval-shards-'));
after(() => {
  repo.remove();
  rmSync(dir, { recursive: true, force: true });
});
const issueLine = (i: number) => JSON.stringify({
  key: `MNG-${i + 1}`, summary: `${TOPICS[i]} fails`, type: 'Bug', status: 'Closed', resolution: 'Fixed',
  created: 'Wed, 13 Apr 2011 02:34:34 +0000', resolved: null, description_html: `<p>the ${TOPICS[i].split(' ')[1]} is wrong in F${(i + 1) % TOPICS.length}</p>`,
});
const RETRIEVERS = 'bm25f,tfidf,lsi3';
const ds = join(dir, 'shop.jsonl');
const direct = join(dir, 'shop');
const shardedResults = join(dir, 'sharded');

const ready = (async () => {
  const issues = join(dir, 'issues.jsonl');
  writeFileSync(issues, TOPICS.map((_, i) => issueLine(i)).join('\n') + '\n');
  const built = await runInProcess(['dataset', 'build', '--repo', repo.dir, '--issues', issues, '--key', 'MNG', '-o', ds, '--no-progress']);
  assert.equal(built.code, 0, built.err);
  const e = await runInProcess(['eval', '--dataset', ds, '--repo', repo.dir, '--retrievers', RETRIEVERS, '--workers', '1', '--lsi-refit', '0', '-o', direct, '--no-progress']);
  assert.equal(e.code, 0, e.err);
})();

/** A results file's text: every file, LSI runs included, must be the same bytes. */
const bytesOf = (folder: string, f: string) => readFileSync(join(folder, f), 'utf8');
/** The files of a results folder but summary.json (whose settings and command the CLI words its own way, and timings). */
const filesOf = (folder: string) => readdirSync(folder).filter((f) => f !== 'summary.json').sort();
const summaryOf = (folder: string) => {
  const s = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8'));
  return { counts: s.counts, boundary: s.boundary, retrievers: s.retrievers, split: s.split, name: s.name };
};

test('3 eval shards, collected, write the bytes one issueloc eval of the whole dataset writes', async () => {
  await ready;
  const enq = await runInProcess(['batch', 'enqueue', 'eval', '--dataset', ds, '--repo', repo.dir, '--retrievers', RETRIEVERS, '--shards', '3', '--results', shardedResults, '--no-progress']);
  assert.equal(enq.code, 0, enq.err);
  assert.match(enq.out, /^ran 3 jobs in .*: 3 done/);
  const out = join(dir, 'metrics.jsonl');
  const c = await runInProcess(['batch', 'collect', '--results', shardedResults, '--kind', 'eval', '-o', out]);
  assert.equal(c.code, 0, c.err);
  const merged = join(dir, 'metrics.eval', 'shop');
  const want = filesOf(direct);
  assert.ok(want.includes('table3.test.md') && want.includes('metrics.validation.json') && want.includes('run.lsi3.txt'), want.join(' '));
  assert.deepEqual(filesOf(merged), want);
  for (const f of want) assert.equal(bytesOf(merged, f), bytesOf(direct, f), f);
  assert.deepEqual(summaryOf(merged), summaryOf(direct));
  // the shards split the work: each evaluated some issues, none all of them
  const per = readdirSync(join(shardedResults, 'jobs')).map((id) => readFileSync(join(shardedResults, 'jobs', id, 'result.jsonl'), 'utf8').split('\n').filter(Boolean).length);
  const whole = readFileSync(join(direct, 'per-issue.jsonl'), 'utf8').split('\n').filter(Boolean).length;
  assert.equal(per.length, 3);
  assert.ok(per.every((n) => n > 0 && n < whole), per.join(','));
  assert.equal(per.reduce((a, b) => a + b, 0), whole);
  // the metric lines: one per split and retriever, the table's means
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => `${l.split}/${l.retriever}`), ['test/bm25f', 'test/tfidf', 'test/lsi3', 'validation/bm25f', 'validation/tfidf', 'validation/lsi3']);
  const table = JSON.parse(readFileSync(join(direct, 'metrics.test.json'), 'utf8'));
  assert.equal(lines[0].metrics.MRR.mean, table.rows[0].cells.MRR.mean);
});

test('a missing eval shard: collect refuses (exit 1); --partial writes what is there and its tables say so', async () => {
  await ready;
  const results = join(dir, 'partial');
  const jobs = await planEvalJobs([ds], results, { repo: repo.dir, retrievers: RETRIEVERS.split(','), split: 'temporal', shardSize: 3 });
  assert.equal(jobs.length, 3, 'ceil(8 rows / 3)');
  assert.equal(new Set(jobs.map((j) => j.id)).size, 3);
  addToManifest(results, jobs);
  assert.equal((await runLocalBatch([jobs[0], jobs[2]])).done, 2);
  const out = join(dir, 'partial.jsonl');
  const refused = await runInProcess(['batch', 'collect', '--results', results, '-o', out]);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^issueloc: 1 of 3 eval jobs have no usable result: eval shop\.jsonl shard 2\/3 \([0-9a-f]{32}\): no result;/);
  assert.equal(existsSync(out) || existsSync(join(dir, 'partial.eval')), false);

  const c = collectResults(results, out, { partial: true });
  assert.equal(c.collected, 2);
  const folder = join(dir, 'partial.eval', 'shop');
  const md = readFileSync(join(folder, 'table3.test.md'), 'utf8');
  const whole = (split: string) => JSON.parse(readFileSync(join(direct, 'summary.json'), 'utf8')).counts[split] as number;
  const got = readFileSync(join(folder, 'per-issue.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.retriever === 'bm25f' && r.split === 'test').length;
  assert.ok(got < whole('test'), `${got} of ${whole('test')}`);
  assert.match(md, new RegExp(`^### shop: test split \\(${got} of ${whole('test')} issues; 1 of 3 shards missing\\)`));
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines[0].partial, { issues: got, of: whole('test'), shards: 3, missingShards: [1] });
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'partial.missing.jsonl'), 'utf8')).label, 'eval shop.jsonl shard 2/3');

  // the last shard done: a complete collect replaces the partial folder with the whole run's
  assert.equal((await runLocalBatch(jobs)).done, 1);
  collectResults(results, out);
  for (const f of filesOf(direct)) assert.equal(bytesOf(folder, f), bytesOf(direct, f), f);
  assert.equal(existsSync(join(dir, 'partial.missing.jsonl')), false);
});

test('issueloc eval --workers 2 writes the bytes --workers 1 writes (rows and runs in work order)', async () => {
  await ready;
  const two = join(dir, 'two', 'shop');
  const e = await runInProcess(['eval', '--dataset', ds, '--repo', repo.dir, '--retrievers', RETRIEVERS, '--workers', '2', '--lsi-refit', '0', '-o', two, '--no-progress']);
  assert.equal(e.code, 0, e.err);
  assert.equal(JSON.parse(readFileSync(join(two, 'summary.json'), 'utf8')).workers, 2);
  assert.deepEqual(filesOf(two), filesOf(direct));
  for (const f of filesOf(direct)) assert.equal(bytesOf(two, f), bytesOf(direct, f), f);
  assert.deepEqual(summaryOf(two), summaryOf(direct));
});
