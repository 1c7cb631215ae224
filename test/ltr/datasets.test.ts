// Dataset files as labelled issues (loaded by loadDataset, test/dataset/read.test.ts); the index
// settings follow each benchmark's protocol.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { protocolIndexSettings, readLabelledIssues } from '../../src/ltr/datasets.js';
import { cleanup, tempDir } from '../repo/git-fixture.js';

/** Every temporary folder of this file lives here, removed at the end. */
const scratch = tempDir('issueloc-ltr-datasets-');
after(() => cleanup(scratch));

function jsonl(rows: object[]): string {
  const file = join(mkdtempSync(join(scratch, 'ds-')), 'rows.jsonl');
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

test('Loc-Bench rows: gold functions, modules and files; Python-only index settings', async () => {
  const file = jsonl([{
    instance_id: 'o__r-1', repo: 'o/r', base_commit: 'a'.repeat(40), problem_statement: 'Slow centroids\nbody',
    patch: '', category: 'Performance Issue',
    edit_functions: ['pkg/grid.py:Grid.face_centroids', 'pkg/util.py:helper'], edit_files: ['pkg/grid.py', 'pkg/util.py'], patch_files: ['pkg/grid.py', 'pkg/util.py'],
  }]);
  const data = await readLabelledIssues(file, mkdtempSync(join(scratch, 'mirrors-')));
  assert.equal(data.kind, 'locbench');
  assert.deepEqual(data.indexSettings, { languages: ['python'] });
  assert.equal(data.issues.length, 1);
  const [issue] = data.issues;
  assert.equal(issue.repo, 'o/r');
  assert.deepEqual([...issue.gold.file].sort(), ['pkg/grid.py', 'pkg/util.py']);
  assert.deepEqual([...issue.gold.function].sort(), ['pkg/grid.py:Grid.face_centroids', 'pkg/util.py:helper']);
  assert.deepEqual([...issue.gold.module].sort(), ['pkg/grid.py:Grid', 'pkg/util.py:helper']);
  assert.match(issue.text, /^Slow centroids/);
});

test('protocol index settings per dataset kind', () => {
  assert.deepEqual(protocolIndexSettings('swebench'), { languages: ['python'] });
  assert.deepEqual(protocolIndexSettings('tomcat'), { includeTests: true });
  assert.deepEqual(protocolIndexSettings('records'), {});
});
