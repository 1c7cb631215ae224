import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitQuotePath, nonUtf8Argument } from '../../src/util/raw-path.js';

test("gitQuotePath quotes as git's own `ls-files` does (core.quotePath on)", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-quote-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const names = [Buffer.from('plain.txt'), Buffer.from([0x72, 0xe9, 0x70, 0x6f]), Buffer.from('caf\u00e9'), Buffer.from('tab\there'), Buffer.from('q"b\\s'), Buffer.from([0xff, 0x01, 0x7f])];
  execFileSync('git', ['init', '-q', dir]);
  for (const n of names) writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), n]), 'x');
  execFileSync('git', ['-C', dir, 'add', '-A']);
  const listed = execFileSync('git', ['-C', dir, '-c', 'core.quotePath=true', 'ls-files'], { encoding: 'latin1' }).trim().split('\n').sort();
  assert.deepEqual(names.map(gitQuotePath).sort(), listed);
});

test('nonUtf8Argument: undefined for UTF-8 values (even a real U+FFFD)', () => {
  assert.equal(nonUtf8Argument('plain'), undefined);
  assert.equal(nonUtf8Argument('a\uFFFDb'), undefined); // not on this command line as bytes
});
