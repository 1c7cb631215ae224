import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkResult, resultSums } from '../../src/batch/result-check.js';
import { resultDir } from '../../src/batch/results-folder.js';

/** A results folder with job `id`'s result written as a finished job writes it. */
function finished(id: string, files: Record<string, string>): { results: string; dir: string } {
  const results = mkdtempSync(join(tmpdir(), 'issueloc-check-'));
  const dir = resultDir(results, id);
  mkdirSync(join(dir, 'sub'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ id, files: resultSums(id, dir) }));
  return { results, dir };
}

test('a result as its job wrote it passes; its bytes are returned', (t) => {
  const { results } = finished('a1', { 'result.jsonl': '{"x":1}\n', 'sub/run.txt': 'r\n' });
  t.after(() => rmSync(results, { recursive: true, force: true }));
  const c = checkResult(results, 'a1');
  assert.ok(c.ok);
  assert.equal(c.files.get('result.jsonl')?.toString(), '{"x":1}\n');
  assert.equal(c.files.get('sub/run.txt')?.toString(), 'r\n');
});

test('truncated, changed (same size), removed files and a missing job.json are reported, each with its reason', (t) => {
  const cases: [string, (dir: string) => void, RegExp][] = [
    ['truncated', (d) => writeFileSync(join(d, 'result.jsonl'), '{"x":'), /result\.jsonl has 5 bytes, the job wrote 8/],
    ['changed', (d) => writeFileSync(join(d, 'result.jsonl'), '{"x":2}\n'), /result\.jsonl is not what the job wrote/],
    ['gone', (d) => rmSync(join(d, 'sub/run.txt')), /sub\/run\.txt is gone/],
    ['no job.json', (d) => rmSync(join(d, 'job.json')), /^no result$/],
  ];
  for (const [what, damage, reason] of cases) {
    const { results, dir } = finished('a1', { 'result.jsonl': '{"x":1}\n', 'sub/run.txt': 'r\n' });
    t.after(() => rmSync(results, { recursive: true, force: true }));
    damage(dir);
    const c = checkResult(results, 'a1');
    assert.equal(c.ok, false, what);
    assert.match((c as { reason: string }).reason, reason, what);
  }
});

test("another job's folder copied in (its own valid checksums) is refused", (t) => {
  const { results, dir } = finished('b2', { 'result.jsonl': '{"x":1}\n' });
  t.after(() => rmSync(results, { recursive: true, force: true }));
  const copy = resultDir(results, 'a1');
  mkdirSync(copy, { recursive: true });
  writeFileSync(join(copy, 'result.jsonl'), '{"x":1}\n');
  // job.json edited to name a1 but keeping b2's checksums: the id is inside each checksum
  writeFileSync(join(copy, 'job.json'), JSON.stringify({ id: 'a1', files: resultSums('b2', dir) }));
  const c = checkResult(results, 'a1');
  assert.equal(c.ok, false);
  assert.match((c as { reason: string }).reason, /not what the job wrote/);
});

test('a job.json without checksums (an older issueloc) is not trusted', (t) => {
  const { results, dir } = finished('a1', { 'result.jsonl': '{"x":1}\n' });
  t.after(() => rmSync(results, { recursive: true, force: true }));
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ id: 'a1' }));
  const c = checkResult(results, 'a1');
  assert.equal(c.ok, false);
  assert.match((c as { reason: string }).reason, /records no checksums/);
});
