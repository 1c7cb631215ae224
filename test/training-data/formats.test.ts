// The layouts of the contrastive training file (sentence-transformers, FlagEmbedding, issueloc's
// own) and the listwise file, each row checked by its format's validator, on a tiny repository
// built here; the validators reject what the libraries' loaders reject.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commitFiles, tempDir, cleanup } from '../repo/git-fixture.js';
import { GitRepo } from '../../src/repo/git.js';
import { exportTraining, issueQuery } from '../../src/training-data/export.js';
import type { ContrastiveExample } from '../../src/training-data/examples.js';
import {
  contrastiveJsonl, contrastiveRows, listwiseJsonl, negativeColumns, TrainingFormatError, validateContrastiveRow, validateListwiseRow,
} from '../../src/training-data/formats.js';
import type { DatasetRecord } from '../../src/dataset/record.js';
import { pyFunction, trainingRecord } from './records.js';
import { execInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const run = promisify(execFile);
const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'dist/src/cli/bin.js');
let root: string, work: string, commit: string, repo: GitRepo;

const fn = pyFunction;
const EMOJI_FN = 'def parse_header(x):\n    # header \u{1F600} token colon split\n    return x\n\n\n';
before(async () => {
  root = tempDir('issueloc-formats-');
  work = join(root, 'repo');
  commit = commitFiles(work, {
    'app/parser.py': EMOJI_FN + fn('parse_body', 'body chunk length'),
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
  // Two positives: two sentence-transformers rows, one FlagEmbedding row.
  record('A-2', 'Socket open and close', 'open_socket and close_socket forget the host port on shutdown; the cache page is fine', ['app/net.py:open_socket', 'app/net.py:close_socket']),
  record('A-3', '', '', ['app/cache.py:evict']),
];

const example = (over: Partial<ContrastiveExample> = {}): ContrastiveExample => ({
  query: 'q', pos: ['a.py\ndef a(): pass'], neg: ['b.py\ndef b(): pass', 'c.py\ndef c(): pass'], pos_ids: ['a.py:a'], neg_ids: ['b.py:b', 'c.py:c'],
  issue_id: 'X-1', commit: 'c0ffee', positive_rank: 1, ...over,
});

test('each format: rows of the exact layout, every row passing its validator', async () => {
  const { contrastive, listwise, dropped } = await exportTraining(RECORDS, repo, { cacheDir: join(root, 'cache'), negatives: 3, filterTop: 0, listwiseSize: 4 });
  assert.deepEqual(contrastive.map((c) => c.issue_id), ['A-1', 'A-2']);
  assert.deepEqual(dropped, [{ issue_id: 'A-3', reason: 'empty issue text (no title and no body)' }]);
  const limits = { negatives: 3 };

  const st = contrastiveRows(contrastive, 'sentence-transformers', limits);
  assert.deepEqual(st.dropped, []);
  assert.equal(st.rows.length, 3, 'one row per positive');
  for (const row of st.rows) {
    assert.deepEqual(Object.keys(row), ['anchor', 'positive', 'negative_1', 'negative_2', 'negative_3']);
    assert.ok(Object.values(row).every((v) => typeof v === 'string' && v !== ''));
    validateContrastiveRow(row, 'sentence-transformers', limits);
  }
  const [r1, r2a, r2b] = st.rows as Record<string, string>[];
  assert.equal(r1.anchor, issueQuery(RECORDS[0]), 'the issue text, no prefix');
  assert.match(r1.positive, /^app\/parser\.py\ndef parse_header\(x\):/);
  assert.equal(r1.negative_1, contrastive[0].neg[0], 'negatives in the retriever order');
  assert.deepEqual([r2a.positive, r2b.positive], contrastive[1].pos);
  assert.equal(r2a.negative_2, r2b.negative_2);

  const fe = contrastiveRows(contrastive, 'flagembedding', limits);
  assert.equal(fe.rows.length, 2, 'one row per issue');
  for (const row of fe.rows) {
    assert.deepEqual(Object.keys(row), ['query', 'pos', 'neg']);
    validateContrastiveRow(row, 'flagembedding', limits);
  }
  assert.deepEqual(fe.rows[1], { query: contrastive[1].query, pos: contrastive[1].pos, neg: contrastive[1].neg });

  const own = contrastiveRows(contrastive, 'issueloc', limits);
  assert.deepEqual(own.rows, contrastive);
  own.rows.forEach((row) => validateContrastiveRow(row, 'issueloc', limits));
  listwise.forEach((row) => validateListwiseRow(row));
  assert.equal(listwiseJsonl(listwise).split('\n').length, listwise.length + 1);
});

test('sentence-transformers needs the same n negatives in every row: an issue with fewer is dropped', () => {
  const { rows, dropped } = contrastiveRows([example(), example({ issue_id: 'X-2', neg: [], neg_ids: [] })], 'sentence-transformers', { negatives: 3 });
  assert.deepEqual(rows, []);
  assert.deepEqual(dropped.map((d) => d.reason), [
    'sentence-transformers: 2 hard negatives, every row needs 3 (--negatives)',
    'sentence-transformers: no hard negative (the retriever ranked no other function)',
  ]);
  const fe = contrastiveRows([example(), example({ issue_id: 'X-2', neg: [], neg_ids: [] })], 'flagembedding', { negatives: 3 });
  assert.equal(fe.rows.length, 1, 'FlagEmbedding repeats the negatives it has');
  assert.deepEqual(fe.dropped.map((d) => d.issue_id), ['X-2']);
  assert.deepEqual(negativeColumns(1), ['negative']);
  assert.deepEqual(Object.keys(contrastiveRows([example()], 'sentence-transformers', { negatives: 1 }).rows[0]), ['anchor', 'positive', 'negative']);
});

test('the validators reject what the loaders reject: extra keys, list columns, order, empty strings, no negative', () => {
  const limits = { negatives: 2 };
  const st = { anchor: 'q', positive: 'p', negative_1: 'n1', negative_2: 'n2' };
  validateContrastiveRow(st, 'sentence-transformers', limits);
  const bad: [unknown, RegExp][] = [
    [{ ...st, issue_id: 'X-1' }, /keys .*issue_id/],
    [{ anchor: 'q', positive: 'p', negative: ['n1', 'n2'] }, /keys/],
    [{ ...st, negative_2: ['n2'] }, /negative_2: not a string/],
    [{ positive: 'p', anchor: 'q', negative_1: 'n1', negative_2: 'n2' }, /out of order/],
    [{ ...st, positive: '' }, /positive: empty string/],
    [{ ...st, negative_1: 'broken \uD83D' }, /negative_1: lone surrogate/],
    [{ anchor: 'q', positive: 'p', negative_1: 'n1' }, /keys/],
  ];
  for (const [row, message] of bad) assert.throws(() => validateContrastiveRow(row, 'sentence-transformers', limits), (e: Error) => e instanceof TrainingFormatError && message.test(e.message), JSON.stringify(row));
  const fe = { query: 'q', pos: ['p'], neg: ['n'] };
  validateContrastiveRow(fe, 'flagembedding', limits);
  assert.throws(() => validateContrastiveRow({ ...fe, neg: [] }, 'flagembedding', limits), /neg: 0 entries/);
  assert.throws(() => validateContrastiveRow({ ...fe, pos: 'p' }, 'flagembedding', limits), /pos: not a list/);
  assert.throws(() => validateContrastiveRow({ ...fe, pos_ids: ['a'] }, 'flagembedding', limits), /keys/);
  assert.throws(() => validateContrastiveRow({ ...fe, query: ' ' }, 'flagembedding', limits), /query: empty string/);
  assert.throws(() => validateContrastiveRow(example({ neg_ids: ['b.py:b'] }), 'issueloc', limits), /neg_ids: 1 entries, expected 2/);
  assert.throws(() => contrastiveJsonl([st, { ...st, anchor: '' }], 'sentence-transformers', limits), /sentence-transformers line 2: anchor: empty string/);
});

test('a function text cut inside a surrogate pair is written well-formed (U+FFFD)', async () => {
  const full = `app/parser.py\n${EMOJI_FN.trimEnd()}`;
  const cut = full.indexOf('\u{1F600}') + 1;
  const { contrastive } = await exportTraining([RECORDS[0]], repo, { cacheDir: join(root, 'cache'), negatives: 2, filterTop: 0, listwiseSize: 3, maxDocumentChars: cut });
  const pos = contrastive[0].pos[0];
  assert.equal(pos.length, cut);
  assert.ok(pos.endsWith('\uFFFD'), JSON.stringify(pos));
  const rows = contrastiveRows(contrastive, 'sentence-transformers', { negatives: 2 }).rows;
  assert.doesNotMatch(contrastiveJsonl(rows, 'sentence-transformers', { negatives: 2 }), /\\ud83d/i);
});

test('issueloc export-training --format: each file whole and valid; an unknown format is a one-line usage error', async () => {
  const dataset = join(root, 'set.jsonl');
  writeFileSync(dataset, RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const outDir = join(root, 'out');
  const limits = { negatives: 2 };
  for (const [format, rows] of [['sentence-transformers', 3], ['flagembedding', 2], ['issueloc', 2]] as const) {
    const out = join(outDir, `${format}.jsonl`);
    // the first format by the executable, the others through the CLI's main in-process (execInProcess)
    const args = ['export-training', '--dataset', dataset, '--repo', work, '-o', out, '--format', format, '--negatives', '2', '--filter-top', '0', '--cache-dir', join(root, 'cache-cli'), '--no-progress'];
    const { stderr } = await (format === 'sentence-transformers' ? run(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args]) : execInProcess(args));
    assert.match(stderr, /2 of 3 issues exported \(1 dropped/);
    const text = readFileSync(out, 'utf8');
    assert.ok(text.endsWith('\n'));
    const lines = text.slice(0, -1).split('\n').map((l) => JSON.parse(l) as unknown);
    assert.equal(lines.length, rows, format);
    lines.forEach((row, i) => validateContrastiveRow(row, format, limits, `line ${i + 1}`));
    readFileSync(join(outDir, `${format}.listwise.jsonl`), 'utf8').trim().split('\n').forEach((l) => validateListwiseRow(JSON.parse(l)));
  }
  assert.deepEqual(readdirSync(outDir).filter((f) => f.includes('.tmp-')), [], 'no temporary file is left');
  const st = JSON.parse(readFileSync(join(outDir, 'sentence-transformers.jsonl'), 'utf8').split('\n')[0]) as Record<string, unknown>;
  assert.deepEqual(Object.keys(st), ['anchor', 'positive', 'negative_1', 'negative_2']);

  const usage = async (args: string[], message: RegExp) => {
    await assert.rejects(execInProcess(['export-training', '--dataset', dataset, '--repo', work, ...args, '--cache-dir', join(root, 'cache-cli'), '--no-progress']),
      (e: { code: number; stderr: string }) => e.code === 2 && e.stderr.trim().split('\n').length === 1 && message.test(e.stderr));
  };
  await usage(['-o', join(outDir, 'x.jsonl'), '--format', 'jsonl-st'], /--format.*'jsonl-st' is invalid.*sentence-transformers/);
  const old = join(outDir, 'kept.txt');
  writeFileSync(old, 'old\n');
  await usage(['-o', old, '--format', 'flagembedding'], /must end in \.jsonl or \.json/);
  assert.equal(readFileSync(old, 'utf8'), 'old\n');
});
