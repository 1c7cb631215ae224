import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchParser, type GitObject } from '../../src/repo/cat-file.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);

/** git cat-file --batch output for: a blob with newlines, a missing name, an empty blob, a tree. */
const STREAM = Buffer.concat([
  Buffer.from(`${SHA_A} blob 11\nline1\nline2\n`),
  Buffer.from('HEAD:nope missing\n'),
  Buffer.from(`${SHA_B} blob 0\n\n`),
  Buffer.from(`${SHA_A} tree 3\n\x00\n\xff\n`, 'latin1'),
]);

function parseIn(chunks: Buffer[]): (GitObject | null)[] {
  const out: (GitObject | null)[] = [];
  const parser = new BatchParser((o) => out.push(o), (r) => assert.fail(r));
  for (const c of chunks) parser.push(c);
  return out;
}

function check(out: (GitObject | null)[]): void {
  assert.equal(out.length, 4);
  assert.equal(out[0]!.type, 'blob');
  assert.equal(out[0]!.data.toString(), 'line1\nline2');
  assert.equal(out[1], null);
  assert.equal(out[2]!.data.length, 0);
  assert.equal(out[3]!.type, 'tree');
  assert.deepEqual([...out[3]!.data], [0, 10, 255]);
}

test('parses the batch stream whole, byte by byte, and at every split point', () => {
  check(parseIn([STREAM]));
  check(parseIn([...STREAM].map((b) => Buffer.from([b]))));
  for (let cut = 1; cut < STREAM.length; cut++) check(parseIn([STREAM.subarray(0, cut), STREAM.subarray(cut)]));
});

test('reports malformed output once and stops answering', () => {
  const errors: string[] = [];
  const answers: unknown[] = [];
  const parser = new BatchParser((o) => answers.push(o), (r) => errors.push(r));
  parser.push(Buffer.from('fatal: something odd\nmore\n'));
  assert.equal(errors.length, 1);
  assert.match(errors[0], /unexpected output "fatal: something odd"/);
  assert.equal(answers.length, 0);
});
