import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeTrecId, encodeTrecId, formatRun, parseQrels, parseRun, writeQrels, writeRun,
} from '../../src/eval/trec.js';
import { IssuelocError } from '../../src/errors.js';

test('ids with spaces, tabs and % are percent-encoded and decode back exactly', () => {
  assert.equal(encodeTrecId('src/My File.java'), 'src/My%20File.java');
  assert.equal(encodeTrecId('100%\tdone'), '100%25%09done');
  assert.equal(encodeTrecId('a/b.py:Cls.method'), 'a/b.py:Cls.method');
  for (const id of ['src/My File.java', '100% sure', 'x\u00a0y', 'ünï côde.py', '%20 literal']) {
    const enc = encodeTrecId(id);
    assert.ok(!/\s/u.test(enc), enc);
    assert.equal(decodeTrecId(enc), id);
  }
  assert.throws(() => encodeTrecId(''), IssuelocError);
  assert.throws(() => decodeTrecId('bad%zz'), /malformed percent escape/);
});

test('run lines are "qid Q0 docid rank score tag"; ties are reported; rank scores avoid them', () => {
  const queries = [
    { qid: 'MNG-1', ranking: [{ id: 'a.java', score: 2.5 }, { id: 'b c.java', score: 1 }, { id: 'd.java', score: 1 }] },
    { qid: 'MNG-2', ranking: [{ id: 'a.java', score: 0.5 }] },
  ];
  const { text, summary } = formatRun(queries, 'bm25f');
  assert.equal(text.split('\n')[0], 'MNG-1 Q0 a.java 1 2.5 bm25f');
  assert.equal(text.split('\n')[1], 'MNG-1 Q0 b%20c.java 2 1 bm25f');
  assert.deepEqual(summary, { lines: 4, queries: 2, queriesWithTies: 1 });
  const ranked = formatRun(queries, 'bm25f', { scores: 'rank', depth: 2 });
  assert.equal(ranked.text, 'MNG-1 Q0 a.java 1 2 bm25f\nMNG-1 Q0 b%20c.java 2 1 bm25f\nMNG-2 Q0 a.java 1 1 bm25f\n');
  assert.equal(ranked.summary.queriesWithTies, 0);
});

test('bad run input throws IssuelocError', () => {
  assert.throws(() => formatRun([], 'two words'), /one word/);
  assert.throws(() => formatRun([{ qid: 'q', ranking: [{ id: 'a', score: Number.NaN }] }], 't'), /score of 'a' is NaN/);
  assert.throws(() => formatRun([{ qid: 'q', ranking: [{ id: 'a', score: 2 }, { id: 'a', score: 1 }] }], 't'), /ranked twice/);
  assert.throws(() => formatRun([], 't', { depth: 0 }), /depth/);
});

test('writeRun / writeQrels write atomically and round-trip through the parsers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'issueloc-trec-'));
  try {
    const runPath = join(dir, 'out', 'run.txt');
    const queries = [{ qid: 'issue 7', ranking: [{ id: 'x y.py', score: 3 }, { id: 'z.py', score: 1.25 }] }];
    writeRun(runPath, queries, 'tfidf');
    const back = parseRun(readFileSync(runPath, 'utf8'));
    assert.equal(back.tag, 'tfidf');
    assert.deepEqual(back.queries, queries);

    const qrelsPath = join(dir, 'out', 'qrels.txt');
    const res = writeQrels(qrelsPath, [
      { qid: 'issue 7', positives: ['x y.py', 'x y.py', 'w.py'] },
      { qid: 'issue 8', positives: [] },
    ]);
    assert.equal(res.queriesWithoutPositives, 1);
    const text = readFileSync(qrelsPath, 'utf8');
    assert.equal(text, 'issue%207 0 x%20y.py 1\nissue%207 0 w.py 1\n');
    assert.deepEqual(parseQrels(text), new Map([['issue 7', new Set(['x y.py', 'w.py'])]]));
    assert.deepEqual(readdirSync(join(dir, 'out')).sort(), ['qrels.txt', 'run.txt']); // no temp files left
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('parsers name the bad line', () => {
  assert.throws(() => parseRun('q Q0 d 1 1 t\nq Q0 d 2\n'), /run line 2: expected 6 fields/);
  assert.throws(() => parseRun('q Q0 d 1 high t\n'), /score 'high'/);
  assert.throws(() => parseQrels('q 0 d\n'), /qrels line 1/);
  assert.deepEqual(parseQrels('q 0 d 0\n'), new Map());
});
