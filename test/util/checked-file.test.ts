import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCheckedJson, setCacheWarningSink, writeCheckedJson } from '../../src/util/checked-file.js';

const isPoint = (x: unknown): x is { x: number } => typeof x === 'object' && x !== null && typeof (x as { x: unknown }).x === 'number';

test('checked file: a good file reads back; a flipped byte is one warning and the file is removed, so the next read is a plain miss', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-checked-'));
  const warnings: string[] = [];
  const prev = setCacheWarningSink((l) => warnings.push(l));
  try {
    const f = join(dir, 'p.json');
    writeCheckedJson(f, 'test.v1', { x: 7 });
    assert.deepEqual(readCheckedJson(f, 'test.v1', isPoint), { x: 7 });
    assert.equal(readCheckedJson(f, 'test.v2', isPoint), undefined, 'another tag is not read');
    assert.equal(warnings.length, 1);
    assert.equal(existsSync(f), false, 'the corrupt (other-format) file is removed');
    writeCheckedJson(f, 'test.v1', { x: 7 });
    const bytes = readFileSync(f);
    bytes[3] ^= 0x10;
    writeFileSync(f, bytes);
    assert.equal(readCheckedJson(f, 'test.v1', isPoint), undefined);
    assert.equal(warnings.length, 2);
    assert.match(warnings[1], /^issueloc: warning: corrupt cache file .*p\.json: rebuilt\n$/);
    assert.equal(existsSync(f), false);
    assert.equal(readCheckedJson(f, 'test.v1', isPoint), undefined);
    assert.equal(warnings.length, 2, 'a missing file is no warning');
  } finally {
    setCacheWarningSink(prev);
    rmSync(dir, { recursive: true, force: true });
  }
});
