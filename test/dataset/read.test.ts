// loadDataset: the one way to load a dataset file, by kind (records, SWE-bench, Loc-Bench, Tomcat).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDataset } from '../../src/dataset/read.js';
import { datasetKind, loadDataset } from '../../src/dataset/import/load.js';
import { fixtureData } from '../fixtures/data.js';

const scratch = mkdtempSync(join(tmpdir(), 'issueloc-load-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;

function jsonl(rows: object[]): string {
  const file = join(scratch, `rows-${files++}.jsonl`);
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

const RECORD = {
  issue: { id: 'X-1', title: 't', body: '', bodyRaw: '', type: 'Bug', category: 'Bug', created: null, resolved: null, labels: [] },
  commits: [], aprioriCommit: 'a'.repeat(40), positives: ['src/a.py'], positiveFunctions: [], candidates: 3, variant: 'first-commit', provenance: {},
};

test('loadDataset: records as readDataset reads them, validated; nothing dropped', async () => {
  const file = jsonl([RECORD, { ...RECORD, issue: { ...RECORD.issue, id: 'X-2' } }]);
  const loaded = await loadDataset(file);
  assert.equal(loaded.kind, 'records');
  assert.deepEqual(loaded.records, readDataset(file));
  assert.deepEqual(loaded.dropped, []);
  const bad = jsonl([RECORD, { issue: { id: 'X-3' }, aprioriCommit: 'b' }]);
  await assert.rejects(loadDataset(bad), new RegExp(`${bad}:2: not a dataset record`));
});

test('loadDataset: Loc-Bench gold as given, no repository needed; SWE-bench and Tomcat need the mirrors', async () => {
  const lb = await loadDataset(fixtureData('locbench.jsonl'));
  assert.equal(lb.kind, 'locbench');
  assert.ok(lb.records.length > 0 && lb.records.every((r) => r.positiveFunctions.length > 0 && r.provenance.repoPath === undefined));
  const swe = fixtureData('swebench-lite.jsonl');
  await assert.rejects(loadDataset(swe), new RegExp(`${swe}: reading the gold of a SWE-bench file needs its repositories`));
  const empty = mkdtempSync(join(scratch, 'no-mirrors-'));
  const none = await loadDataset(swe, { mirrors: empty });
  assert.equal(none.records.length, 0);
  assert.ok(none.dropped.length > 0 && none.dropped.every((d) => /^repository .+ not found$/.test(d.reason)), JSON.stringify(none.dropped[0]));
  const tomcat = fixtureData('tomcat.jsonl');
  await assert.rejects(loadDataset(tomcat, { mirrors: empty }), new RegExp(`${tomcat}: the Tomcat set needs apache/tomcat: no apache\\+tomcat/repo under ${empty}$`));
});

test('datasetKind: recognised from the first row; an unknown kind or an empty file is named', () => {
  assert.equal(datasetKind(jsonl([RECORD])), 'records');
  assert.equal(datasetKind(fixtureData('swebench-lite.jsonl')), 'swebench');
  assert.equal(datasetKind(fixtureData('tomcat.jsonl')), 'tomcat');
  const unknown = jsonl([{ foo: 1 }]);
  assert.throws(() => datasetKind(unknown), new RegExp(`${unknown}: unknown dataset kind`));
  const empty = join(scratch, 'empty.jsonl');
  writeFileSync(empty, '\n');
  assert.throws(() => datasetKind(empty), new RegExp(`${empty}: no rows`));
});

test('the learned ranker and the evaluation load datasets through loadDataset only, never an importer', () => {
  const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');
  for (const dir of ['ltr', 'eval']) {
    for (const f of readdirSync(join(src, dir)).filter((n) => n.endsWith('.ts'))) {
      assert.doesNotMatch(readFileSync(join(src, dir, f), 'utf8'), /from '\.\.\/dataset\/import\/(?!load\.js')/, `src/${dir}/${f} imports an importer`);
    }
  }
});
