// Training-data export on a tiny repository built here: positives, hard negatives, the
// consistency filter, the listwise window, and the export-training command end to end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { GitRepo } from '../../src/repo/git.js';
import { exportTraining, issueQuery } from '../../src/training-data/export.js';
import type { DatasetRecord } from '../../src/dataset/record.js';
import { pyFunction, trainingRecord } from './records.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
let root: string, work: string, commit: string, repo: GitRepo;

const fn = pyFunction;
before(async () => {
  root = tempDir('issueloc-train-');
  work = join(root, 'repo');
  commit = commitFiles(work, {
    'app/parser.py': fn('parse_header', 'header token colon split') + fn('parse_body', 'body chunk length'),
    'app/net.py': fn('open_socket', 'socket connect host port') + fn('close_socket', 'socket close shutdown'),
    'app/cache.py': fn('evict', 'cache evict least recently used') + fn('warm', 'cache warm preload'),
    'app/render.py': fn('render_page', 'html template page') + fn('render_header', 'html header title'),
  });
  repo = await GitRepo.open(work);
});
after(async () => {
  await repo.close();
  cleanup(root);
});

const record = (id: string, title: string, body: string, positives: string[]): DatasetRecord => trainingRecord(commit, id, title, body, positives);

const RECORDS = [
  record('A-1', 'Header parsing splits on the wrong colon', 'parse_header splits the header token at every colon; the html title and the socket host are fine', ['app/parser.py:parse_header']),
  record('A-2', 'Socket close does not shutdown', 'close_socket does not shutdown the socket; the cache and the html page are fine', ['app/net.py:close_socket']),
  // The text points nowhere near the fix: dropped by the consistency filter (top 1 here).
  record('A-3', 'Evict is slow', 'least recently used cache evict takes long, and the page title shows it', ['app/render.py:render_header']),
  record('A-4', 'Gone', 'a function that no longer exists', ['app/old.py:gone']),
];

test('contrastive examples: issue as query, positives, top-ranked non-positives as hard negatives', async () => {
  const { contrastive, listwise, dropped } = await exportTraining(RECORDS, repo, { cacheDir: join(root, 'cache'), negatives: 3, filterTop: 1, listwiseSize: 4 });
  assert.deepEqual(contrastive.map((c) => c.issue_id), ['A-1', 'A-2']);
  const a1 = contrastive[0];
  assert.equal(a1.query, issueQuery(RECORDS[0]));
  assert.deepEqual(a1.pos_ids, ['app/parser.py:parse_header']);
  assert.match(a1.pos[0], /^app\/parser\.py\ndef parse_header\(x\):/);
  assert.equal(a1.neg_ids.length, 3);
  assert.ok(!a1.neg_ids.includes('app/parser.py:parse_header'));
  assert.ok(a1.neg_ids.includes('app/render.py:render_header'), 'a lexically similar function is a hard negative');
  assert.equal(a1.positive_rank, 1);
  assert.equal(a1.commit, commit);
  // The exact rank of A-3's positive depends on the default ranking; that it misses the top 1 does not.
  assert.deepEqual(dropped.map((d) => d.issue_id), ['A-3', 'A-4']);
  assert.match(dropped[0].reason, /^consistency filter: no positive in the retriever's top 1 \(best at [2-8]\)$/);
  assert.equal(dropped[1].reason, 'no positive function is in the index at the a-priori commit');
  // Listwise: the window, the target identifier of the positive, chat messages ending in it.
  const l = listwise[1];
  assert.equal(l.candidates.length, 4);
  assert.deepEqual(l.candidates.map((c) => c.identifier), ['A', 'B', 'C', 'D']);
  const at = l.candidates.findIndex((c) => c.id === 'app/net.py:close_socket');
  assert.equal(l.target, 'ABCD'[at]);
  assert.ok(l.permutation.startsWith(`[${l.target}] > `));
  assert.equal(l.messages.at(-1)?.role, 'assistant');
  assert.equal(l.messages.at(-1)?.content, l.target);
  assert.match(l.messages[1].content, /\[A\] app\//);
});

test('without the filter a positive ranked below the window takes its last place', async () => {
  const { listwise, dropped } = await exportTraining([RECORDS[2]], repo, { cacheDir: join(root, 'cache'), filterTop: 0, listwiseSize: 2 });
  assert.deepEqual(dropped, []);
  assert.deepEqual(listwise[0].candidates.map((c) => c.id).at(-1), 'app/render.py:render_header');
  assert.equal(listwise[0].target, 'B');
});

test('issueloc export-training writes contrastive, listwise and dropped JSONL', async () => {
  const dataset = join(root, 'set.jsonl');
  writeFileSync(dataset, RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const out = join(root, 'train.jsonl');
  const { stderr } = await promisify(execFile)(process.execPath, [...BASELINE_WASM_ARGS, bin, 'export-training', '--dataset', dataset, '--repo', work, '-o', out,
    '--negatives', '2', '--filter-top', '1', '--cache-dir', join(root, 'cache-cli'), '--no-progress']);
  assert.match(stderr, /2 of 4 issues exported \(2 dropped/);
  const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(Object.keys(lines[0]).slice(0, 3), ['query', 'pos', 'neg']);
  assert.equal(lines[0].neg.length, 2);
  assert.equal(readFileSync(join(root, 'train.listwise.jsonl'), 'utf8').trim().split('\n').length, 2);
  assert.equal(readFileSync(join(root, 'train.dropped.jsonl'), 'utf8').trim().split('\n').length, 2);
  await assert.rejects(promisify(execFile)(process.execPath, [...BASELINE_WASM_ARGS, bin, 'export-training', '--dataset', join(root, 'none.jsonl'), '--repo', work, '-o', out]),
    (e: { code: number; stderr: string }) => e.code === 2 && /cannot read .*none\.jsonl/.test(e.stderr));
});
