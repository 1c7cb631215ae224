// `issueloc dataset mine-commits` writes the dataset format: `train`, `eval` and
// `export-training` take its output as it is.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDataset } from '../../src/dataset/read.js';
import { fixtureRepo } from '../repo/fixture-repo.js';
import { runInProcess } from '../cli/in-process.js';
import { BASELINE_WASM_ARGS } from '../util/baseline-wasm.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(root, 'dist/src/cli/bin.js');
/** `issueloc ARGS…` by the executable (the first run); the others through the CLI's main in-process (runInProcess): their process is not under test. */
const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [...BASELINE_WASM_ARGS, bin, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

const PARSER = 'def parse_header(line):\n    return line.split(":")\n\n\ndef parse_body(text):\n    return text.strip()\n';
const RENDER = 'def render_page(page):\n    return "<html>" + page\n\n\ndef render_header(header):\n    return header.upper()\n';
const fx = fixtureRepo([
  { id: 'A', message: 'initial import', files: { 'app/parser.py': PARSER, 'app/render.py': RENDER } },
  { id: 'B', parents: ['A'], message: 'Fix header parsing when the line has no colon', files: { 'app/parser.py': PARSER.replace('split(":")', 'partition(":")') } },
  { id: 'C', parents: ['B'], message: 'Render the page header in upper case only once', files: { 'app/render.py': RENDER.replace('header.upper()', 'header.upper().strip()') } },
  { id: 'D', parents: ['C'], message: 'Strip whitespace around the parsed body text', files: { 'app/parser.py': PARSER.replace('partition(":")', 'split(":")').replace('text.strip()', 'text.strip(" ")') } },
]);
const dir = mkdtempSync(join(tmpdir(), 'issueloc-mine-cli-'));
after(() => {
  fx.remove();
  rmSync(dir, { recursive: true, force: true });
});

test('mine-commits output is a dataset that train, export-training and eval take as it is', async () => {
  const out = join(dir, 'mined.jsonl');
  const cache = join(dir, 'cache');
  const mined = run(['dataset', 'mine-commits', '--repo', fx.dir, '-o', out, '--cache-dir', cache, '--json', '--no-progress']);
  assert.equal(mined.code, 0, mined.err);
  const summary = JSON.parse(mined.out);
  assert.equal(summary.kept, 3);
  assert.equal(summary.dropped.root, 1);
  const records = readDataset(out);
  assert.deepEqual(records.map((r) => [r.issue.title, r.aprioriCommit, r.positiveFunctions]), [
    ['Strip whitespace around the parsed body text', fx.sha('C'), ['app/parser.py:parse_header', 'app/parser.py:parse_body']],
    ['Render the page header in upper case only once', fx.sha('B'), ['app/render.py:render_header']],
    ['Fix header parsing when the line has no colon', fx.sha('A'), ['app/parser.py:parse_header']],
  ]);
  assert.ok(existsSync(join(dir, 'mined.meta.json')));

  const model = join(dir, 'm.json');
  const trained = await runInProcess(['train', '--dataset', out, '-o', model, '--cache-dir', cache, '--restarts', '0', '--no-progress']);
  assert.equal(trained.code, 0, trained.err);
  assert.match(trained.err, /on 3 issues/);

  const exported = await runInProcess(['export-training', '--dataset', out, '--repo', fx.dir, '-o', join(dir, 'train.jsonl'), '--cache-dir', cache, '--filter-top', '0', '--no-progress']);
  assert.equal(exported.code, 0, exported.err);
  assert.equal(readFileSync(join(dir, 'train.jsonl'), 'utf8').trim().split('\n').length, 3);

  const evaluated = await runInProcess(['eval', '--dataset', out, '--repo', fx.dir, '-o', join(dir, 'eval'), '--retrievers', 'bm25f', '--workers', '1']);
  assert.equal(evaluated.code, 0, evaluated.err);
});

test('eval of a mined file needs no --repo: it opens the repository the records were mined from, else says to give --repo (exit 2)', async () => {
  const out = join(dir, 'mined-norepo.jsonl');
  const cache = join(dir, 'cache-norepo');
  assert.equal((await runInProcess(['dataset', 'mine-commits', '--repo', fx.dir, '-o', out, '--cache-dir', cache, '--no-progress'])).code, 0);
  const evaluated = await runInProcess(['eval', '--dataset', out, '-o', join(dir, 'eval-norepo'), '--retrievers', 'bm25f', '--workers', '1', '--split', 'all', '--json', '--no-progress']);
  assert.equal(evaluated.code, 0, evaluated.err);
  const summary = JSON.parse(evaluated.out.trim().split('\n').at(-1) as string);
  assert.equal(summary.counts.evaluated, 3);

  const moved = join(dir, 'moved.jsonl');
  const gone = join(dir, 'gone.git');
  const recorded = readDataset(out)[0].provenance.repoPath as string;
  writeFileSync(moved, readFileSync(out, 'utf8').split(JSON.stringify(recorded)).join(JSON.stringify(gone)));
  const refused = await runInProcess(['eval', '--dataset', moved, '-o', join(dir, 'eval-moved'), '--retrievers', 'bm25f', '--workers', '1', '--no-progress']);
  assert.equal(refused.code, 2, refused.err);
  assert.equal(refused.err.trim().split('\n').length, 1, refused.err);
  assert.match(refused.err, new RegExp(`repository local/\\S+ is not at ${gone.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} any more: give --repo`));
});
