import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogParser, type LogCommit } from '../../src/repo/log-parse.js';

const SHA1 = 'a'.repeat(40);
const SHA2 = 'b'.repeat(40);
const SHA3 = 'c'.repeat(40);

/** Output as `git log -z --name-status --format=LOG_FORMAT` prints it. */
const OUTPUT =
  `\x01${SHA3} ${SHA2} ${SHA1}\x021700000200\x02Merge branch 'x' into MNG-7\n\x03\0` +
  `\x01${SHA2} ${SHA1}\x021700000100\x02MNG-1 héllo wörld\n\nbody line\n\x03\0\nM\0src/a.py\0D\0docs/ü.md\0A\0new file.java\0` +
  `\x01${SHA1} \x021700000000\x02init\n\x03\0\nA\0src/a.py\0`;

function parseAll(buf: Buffer, cuts: number[]): LogCommit[] {
  const out: LogCommit[] = [];
  const p = new LogParser((c) => out.push(c));
  let prev = 0;
  for (const cut of [...cuts, buf.length]) {
    p.push(buf.subarray(prev, cut));
    prev = cut;
  }
  p.end();
  return out;
}

test('LogParser reads headers, messages, merges without diff, and name-status pairs', () => {
  const commits = parseAll(Buffer.from(OUTPUT, 'utf8'), []);
  assert.equal(commits.length, 3);
  assert.deepEqual(commits[0].parents, [SHA2, SHA1]);
  assert.deepEqual(commits[0].changes, []);
  assert.equal(commits[1].message, 'MNG-1 héllo wörld\n\nbody line\n');
  assert.deepEqual(commits[1].changes, [
    { status: 'M', path: 'src/a.py' },
    { status: 'D', path: 'docs/ü.md' },
    { status: 'A', path: 'new file.java' },
  ]);
  assert.deepEqual(commits[2].parents, []);
  assert.equal(commits[2].time, 1700000000);
  assert.deepEqual(commits[2].changes, [{ status: 'A', path: 'src/a.py' }]);
});

test('LogParser gives the same result for every split of the stream (also inside UTF-8 characters)', () => {
  const buf = Buffer.from(OUTPUT, 'utf8');
  const whole = parseAll(buf, []);
  for (let cut = 1; cut < buf.length; cut++) assert.deepEqual(parseAll(buf, [cut]), whole, `split at byte ${cut}`);
});

test('LogParser rejects output that is not in its format', () => {
  assert.throws(() => parseAll(Buffer.from('M\0src/a.py\0'), []), /not a commit header/);
  assert.throws(() => parseAll(Buffer.from(`\x01${SHA1} \x02x\x03\0`), []), /malformed git log header/);
  assert.throws(() => parseAll(Buffer.from(`\x01${SHA1} \x021\x02m\x03\0\nM\0`), []), /status without path/);
});
