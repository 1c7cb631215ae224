// The embedded default: batch jobs run in this process on a worker-thread pool (no queue).
// Each job kind gives what the command it stands for gives; failures are retried, then parked.
// The CLI runs in-process (runInProcess): batch's own executable runs are test/batch/queue.test.ts's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { openLocalizer } from '../../src/pipeline/localizer.js';
import { collectResults } from '../../src/batch/collect.js';
import { runLocalBatch } from '../../src/batch/local-batch.js';
import { planEvalJobs, planIndexJobs, planLocalizeJobs } from '../../src/batch/plan.js';
import { addToManifest } from '../../src/batch/results-folder.js';
import { batchStatus } from '../../src/batch/status.js';
import { runInProcess } from '../cli/in-process.js';

const repo = fixtureRepo([
  { id: 'A', message: 'init', files: { 'src/Dates.java': 'class Dates { int parseDate(String s) { return s.length(); } }', 'src/Table.java': 'class Table { void renderRows() {} }' } },
  { id: 'B', parents: ['A'], message: '[MNG-1] fix date parsing', files: { 'src/Dates.java': 'class Dates { int parseDate(String s) { return s.trim().length(); } }' } },
  { id: 'C', parents: ['B'], message: '[MNG-2] fix table rows', files: { 'src/Table.java': 'class Table { void renderRows() { int n; } }' } },
]);
const dir = mkdtempSync(join(tmpdir(), 'issueloc-batch-local-'));
after(() => {
  repo.remove();
  rmSync(dir, { recursive: true, force: true });
});
const line = (key: string, summary: string) => JSON.stringify({ key, summary, type: 'Bug', status: 'Closed', resolution: 'Fixed', created: 'Wed, 13 Apr 2011 02:34:34 +0000', resolved: null, description_html: `<p>${summary}</p>` });
const issuesFile = join(dir, 'issues.jsonl');
writeFileSync(issuesFile, `${line('MNG-1', 'parseDate fails on spaces')}\n${line('MNG-2', 'renderRows draws nothing')}\n`);

test('a dataset job writes what dataset build writes; collect joins the records; enqueue twice runs once', async () => {
  const ds = join(dir, 'direct.jsonl');
  const direct = await runInProcess(['dataset', 'build', '--repo', repo.dir, '--issues', issuesFile, '--key', 'MNG', '-o', ds, '--no-progress']);
  assert.equal(direct.code, 0, direct.err);
  const list = join(dir, 'repos.txt');
  writeFileSync(list, `# repository, issues, keys\n${repo.dir} ${issuesFile} MNG\n`);
  const results = join(dir, 'ds-results');
  const args = ['batch', 'enqueue', 'dataset', '--repos', list, '--results', results, '--no-progress'];
  const first = await runInProcess(args);
  assert.equal(first.code, 0, first.err);
  assert.match(first.out, /^ran 1 jobs in .* s: 1 done, 0 already done, 0 failed/);
  const second = await runInProcess(args);
  assert.match(second.out, /: 0 done, 1 already done, 0 failed/);
  const [id] = readdirSync(join(results, 'jobs'));
  assert.equal(readFileSync(join(results, 'jobs', id, 'result.jsonl'), 'utf8'), readFileSync(ds, 'utf8'));
  assert.equal(readFileSync(join(results, 'jobs', id, 'result.dropped.jsonl'), 'utf8'), readFileSync(join(dir, 'direct.dropped.jsonl'), 'utf8'));
  const out = join(dir, 'collected.jsonl');
  const c = await runInProcess(['batch', 'collect', '--results', results, '-o', out]);
  assert.equal(c.code, 0, c.err);
  assert.equal(readFileSync(out, 'utf8'), readFileSync(ds, 'utf8'));
});

test('localize shards give the rankings openLocalizer gives, collected in issue-file order', async () => {
  const jsonl = join(dir, 'to-localize.jsonl');
  const texts = ['parseDate fails on spaces', 'renderRows draws nothing', 'Table rows', 'date parse trim'];
  writeFileSync(jsonl, texts.map((text, i) => JSON.stringify({ id: `I${i}`, text, ...(i === 0 ? { rev: repo.sha('A') } : {}) })).join('\n') + '\n');
  const results = join(dir, 'loc-results');
  const cache = join(dir, 'loc-cache');
  const jobs = await planLocalizeJobs(repo.dir, jsonl, results, { shards: 3, top: 5, rev: 'HEAD', cacheDir: cache });
  addToManifest(results, jobs);
  assert.equal((await runLocalBatch(jobs, { concurrency: 2 })).done, 3);
  const out = join(dir, 'rankings.jsonl');
  collectResults(results, out);
  const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => r.id), ['I0', 'I1', 'I2', 'I3']);
  const localizer = await openLocalizer({ repo: repo.dir, cacheDir: cache });
  try {
    for (const [i, text] of texts.entries()) {
      const r = await localizer.localize(text, { top: 5, rev: i === 0 ? repo.sha('A') : undefined });
      assert.equal(rows[i].commit, r.commit);
      const round = (items: typeof r.files) => items.map((it) => ({ ...it, score: Number(it.score.toPrecision(6)) }));
      assert.ok(r.files.length > 0);
      assert.deepEqual(rows[i].files, round(r.files));
      assert.deepEqual(rows[i].functions, round(r.functions));
    }
  } finally {
    await localizer.close();
  }
});

test('a pool thread keeps its localizer warm across localize jobs: later jobs say warm, rankings as a fresh localizer gives', async () => {
  const jsonl = join(dir, 'warm.jsonl');
  const texts = ['parseDate fails on spaces', 'renderRows draws nothing', 'date parse trim'];
  writeFileSync(jsonl, texts.map((text, i) => JSON.stringify({ id: `W${i}`, text })).join('\n') + '\n');
  const results = join(dir, 'warm-results');
  const cache = join(dir, 'warm-cache');
  const jobs = await planLocalizeJobs(repo.dir, jsonl, results, { shards: 3, top: 5, rev: 'HEAD', cacheDir: cache });
  addToManifest(results, jobs);
  assert.equal((await runLocalBatch(jobs, { concurrency: 1 })).done, 3);
  const warm = jobs.map((j) => JSON.parse(readFileSync(join(results, 'jobs', j.id, 'job.json'), 'utf8')).warm);
  assert.deepEqual(warm.slice().sort(), [false, true, true], 'one thread: the first job opens the localizer, the next two find it open');
  const out = join(dir, 'warm-rankings.jsonl');
  collectResults(results, out);
  const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const localizer = await openLocalizer({ repo: repo.dir, cacheDir: cache });
  try {
    for (const [i, text] of texts.entries()) {
      const r = await localizer.localize(text, { top: 5 });
      const round = (items: typeof r.files) => items.map((it) => ({ ...it, score: Number(it.score.toPrecision(6)) }));
      assert.deepEqual(rows[i].files, round(r.files));
      assert.deepEqual(rows[i].functions, round(r.functions));
    }
  } finally {
    await localizer.close();
  }
});

test('enqueue localize --level file --model none: each line holds the files openLocalizer ranks with that model, nothing else', async () => {
  const jsonl = join(dir, 'level-model.jsonl');
  const texts = ['parseDate fails on spaces', 'renderRows draws nothing'];
  writeFileSync(jsonl, texts.map((text, i) => JSON.stringify({ id: `L${i}`, text })).join('\n') + '\n');
  const results = join(dir, 'level-results');
  const cache = join(dir, 'level-cache');
  const r = await runInProcess(['batch', 'enqueue', 'localize', '--repo', repo.dir, '--issues', jsonl, '--results', results, '--cache-dir', cache, '--level', 'file', '--model', 'none', '--top', '3', '--no-progress']);
  assert.equal(r.code, 0, r.err);
  const out = join(dir, 'level.jsonl');
  collectResults(results, out);
  const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const localizer = await openLocalizer({ repo: repo.dir, cacheDir: cache, model: 'none' });
  try {
    for (const [i, text] of texts.entries()) {
      const want = await localizer.localize(text, { top: 3 });
      assert.deepEqual(Object.keys(rows[i]), ['line', 'id', 'commit', 'files']);
      assert.deepEqual(rows[i].files, want.files.map((it) => ({ ...it, score: Number(it.score.toPrecision(6)) })));
    }
  } finally {
    await localizer.close();
  }
  const bad = await runInProcess(['batch', 'enqueue', 'localize', '--repo', repo.dir, '--issues', jsonl, '--results', results, '--level', 'class']);
  assert.equal(bad.code, 2);
});

test('enqueue localize checks each line\'s "rev": one line naming file:line and the revision, exit 2, no job run', async () => {
  const jsonl = join(dir, 'bad-rev.jsonl');
  writeFileSync(jsonl, [{ text: 'parseDate fails' }, { text: 'renderRows', rev: repo.sha('A') }, { text: 'rows', rev: 'no-such-branch' }].map((l) => JSON.stringify(l)).join('\n') + '\n');
  const results = join(dir, 'bad-rev-results');
  const r = await runInProcess(['batch', 'enqueue', 'localize', '--repo', repo.dir, '--issues', jsonl, '--results', results, '--shards', '2']);
  assert.equal(r.code, 2, r.err);
  assert.equal(r.err, `issueloc: ${jsonl}:3: "rev": unknown revision 'no-such-branch' in ${repo.dir}\n`);
  assert.equal(existsSync(join(results, 'jobs')), false, 'no job ran');
  writeFileSync(jsonl, `${JSON.stringify({ text: 'x', rev: 7 })}\n`);
  await assert.rejects(planLocalizeJobs(repo.dir, jsonl, results, { shards: 1, top: 5, rev: 'HEAD' }), { message: `${jsonl}:1: "rev" must be a string (a git revision)` });
});

test('a failing attempt is retried with back-off, then parked with its error; bad input is parked at once', async () => {
  const results = join(dir, 'failing');
  const jobs = await planIndexJobs([{ repo: repo.dir, rev: 'HEAD' }], results, { cacheDir: join(dir, 'fail-cache') });
  addToManifest(results, jobs);
  writeFileSync(join(results, 'tmp'), 'not a folder');
  const t0 = Date.now();
  const r = await runLocalBatch(jobs, { attempts: 3, backoffMs: 200 });
  assert.equal(r.failed, 1);
  assert.ok(Date.now() - t0 >= 600, 'back-off of 200 + 400 ms');
  const s = await batchStatus(results);
  assert.equal(s.jobs[0].state, 'failed');
  assert.equal(s.jobs[0].attempts, 3);
  assert.match(s.jobs[0].error ?? '', /EEXIST|ENOTDIR/);
  assert.equal(existsSync(join(results, 'jobs', jobs[0].id)), false);
  rmSync(join(results, 'tmp'));
  assert.equal((await runLocalBatch(jobs)).done, 1); // tried again: done, the failure cleared
  assert.equal((await batchStatus(results)).counts.done, 1);

  const gone = fixtureRepo([{ id: 'A', message: 'x', files: { 'a.py': 'def f(): pass\n' } }]);
  const bad = join(dir, 'bad');
  const badJobs = await planIndexJobs([{ repo: gone.dir, rev: 'HEAD' }], bad);
  addToManifest(bad, badJobs);
  gone.remove();
  const b = await runLocalBatch(badJobs, { attempts: 5, backoffMs: 10_000 });
  assert.equal(b.failed, 1);
  const st = await batchStatus(bad);
  assert.equal(st.jobs[0].attempts, 1);
  assert.match(st.jobs[0].error ?? '', new RegExp(gone.dir.replace(/[/.]/g, '\\$&')));
  const refused = await runInProcess(['batch', 'collect', '--results', bad, '-o', join(dir, 'bad.jsonl')]);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^issueloc: 1 of 1 index jobs have no usable result: index .*: no result;/);
});

test('an eval job, collected, writes the results folder issueloc eval writes, and one metrics line per split and retriever', async () => {
  const ds = join(dir, 'eval-ds.jsonl');
  const built = await runInProcess(['dataset', 'build', '--repo', repo.dir, '--issues', issuesFile, '--key', 'MNG', '-o', ds, '--no-progress']);
  assert.equal(built.code, 0, built.err);
  const direct = join(dir, 'eval-direct');
  const e = await runInProcess(['eval', '--dataset', ds, '--repo', repo.dir, '--retrievers', 'bm25f,tfidf', '--split', 'all', '--workers', '1', '-o', direct, '--no-progress']);
  assert.equal(e.code, 0, e.err);
  const results = join(dir, 'eval-results');
  const jobs = await planEvalJobs([ds], results, { repo: repo.dir, retrievers: ['bm25f', 'tfidf'], split: 'all' });
  addToManifest(results, jobs);
  assert.equal((await runLocalBatch(jobs)).done, 1);
  const out = join(dir, 'eval-metrics.jsonl');
  collectResults(results, out);
  const merged = join(dir, 'eval-metrics.eval', 'eval-ds');
  for (const f of ['per-issue.jsonl', 'run.bm25f.txt', 'run.tfidf.txt', 'qrels.txt']) assert.equal(readFileSync(join(merged, f), 'utf8'), readFileSync(join(direct, f), 'utf8'), f);
  const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => [r.dataset, r.split, r.retriever]), [['eval-ds', 'all', 'bm25f'], ['eval-ds', 'all', 'tfidf']]);
  assert.equal(typeof rows[0].metrics.MAP?.mean, 'number');
});
