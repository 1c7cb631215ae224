// Outcomes of worker threads arrive interleaved; they are emitted in work order, rankings intact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IssueOutcome } from '../../src/eval/issue-evaluator.js';
import { inWorkOrder } from '../../src/eval/outcome-order.js';

const outcome = (i: number): IssueOutcome => ({
  id: `ISSUE-${i}`, corpusSize: 3, skippedFiles: { binary: 0, missing: 0, tooLarge: 0 }, positivesNotIndexed: [], positives: ['a.java'],
  results: ['bm25f', 'lsi3'].map((retriever) => ({
    retriever, retrieved: 2, positiveRanks: [1], values: { MRR: 1 },
    ranking: [{ id: 'a.java', score: 0.1 + i / 3 }, { id: `b${i}.java`, score: -0 }],
  })),
});

test('outcomes added in any order are emitted in work order, equal to what was added', () => {
  const got: IssueOutcome[] = [];
  const add = inWorkOrder((o) => got.push(o));
  // two slices (0–3, 4–7) finishing interleaved, the second faster
  for (const i of [4, 0, 5, 6, 1, 7, 2]) add(i, outcome(i));
  assert.deepEqual(got.map((o) => o.id), ['ISSUE-0', 'ISSUE-1', 'ISSUE-2']);
  add(3, outcome(3));
  assert.deepEqual(got.map((o) => o.id), [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `ISSUE-${i}`));
  for (let i = 0; i < 8; i++) assert.deepEqual(got[i], outcome(i), `outcome ${i} unchanged by waiting`);
  assert.ok(Object.is(got[5].results[0].ranking[1].score, -0));
  assert.throws(() => add(2, outcome(2)), /added twice/);
});
