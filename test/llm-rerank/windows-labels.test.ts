import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slidingWindows } from '../../src/llm-rerank/windows.js';
import { identifierOf, orderByFirstToken, parsePermutation } from '../../src/llm-rerank/candidate-labels.js';
import { trimToTokens, windowPrompt } from '../../src/llm-rerank/prompt.js';

test('K=100, window 10, stride 5: 19 windows from the bottom of the list to the top', () => {
  const w = slidingWindows(100, 10, 5);
  assert.equal(w.length, 19);
  assert.deepEqual(w[0], { start: 90, end: 100 });
  assert.deepEqual(w[1], { start: 85, end: 95 });
  assert.deepEqual(w.at(-1), { start: 0, end: 10 });
  for (let i = 1; i < w.length; i++) assert.equal(w[i - 1].start - w[i].start, 5, 'each window 5 higher');
  assert.ok(w.every((x) => x.end - x.start === 10));
});

test('windows: fewer candidates than a window, uneven tails, bad settings', () => {
  assert.deepEqual(slidingWindows(7, 10, 5), [{ start: 0, end: 7 }]);
  assert.deepEqual(slidingWindows(12, 10, 5), [{ start: 2, end: 12 }, { start: 0, end: 7 }]);
  assert.deepEqual(slidingWindows(0, 10, 5), []);
  assert.throws(() => slidingWindows(100, 10, 11), RangeError);
  assert.throws(() => slidingWindows(100, 0, 1), RangeError);
  assert.throws(() => slidingWindows(NaN, 10, 5), RangeError, 'NaN planned windows without end');
});

test('permutation parsing: clean, unknown, repeated and missing identifiers keep the retriever order', () => {
  assert.deepEqual(parsePermutation('[3] > [1] > [2] > [4]', 4, 'numeric'), { order: [2, 0, 1, 3], named: 4 });
  // unknown [9], repeated [3], missing [2] and [4]: named first, the rest in given order
  assert.deepEqual(parsePermutation('[3] > [9] > [3] > [1]', 4, 'numeric'), { order: [2, 0, 1, 3], named: 2 });
  assert.deepEqual(parsePermutation('The ranking is 2 > 4', 4, 'numeric'), { order: [1, 3, 0, 2], named: 2 });
  assert.deepEqual(parsePermutation('', 3, 'numeric'), { order: [0, 1, 2], named: 0 });
  assert.deepEqual(parsePermutation('I cannot rank these.', 3, 'alpha'), { order: [0, 1, 2], named: 0 });
  assert.deepEqual(parsePermutation('[ b ] > [C] > [Z]', 3, 'alpha'), { order: [1, 2, 0], named: 2 });
  assert.deepEqual(parsePermutation('[0] > [-1] > [2.5]', 3, 'numeric').named, 0, 'no valid id');
});

test('first-token ordering: by log-probability, best spelling of an id counts, unnamed keep order', () => {
  const { order, named } = orderByFirstToken([
    { token: 'C', logprob: -0.2 }, { token: ' A', logprob: -1.5 }, { token: '[A', logprob: -0.9 },
    { token: 'the', logprob: -0.5 }, { token: 'Q', logprob: -0.1 },
  ], 5, 'alpha');
  assert.equal(named, 2);
  assert.deepEqual(order, [2, 0, 1, 3, 4]);
  assert.deepEqual(orderByFirstToken([], 3, 'alpha'), { order: [0, 1, 2], named: 0 });
  assert.deepEqual(orderByFirstToken([{ token: '2', logprob: -1 }, { token: '3', logprob: -1 }], 3, 'numeric').order, [1, 2, 0], 'ties keep order');
});

test('prompt: identifiers, issue, paths, names and code trimmed to the budget', () => {
  const long = Array.from({ length: 400 }, (_, i) => `    line_${i} = ${i}`).join('\n');
  const msgs = windowPrompt('Crash in parse()', [
    { id: 'a.py:f', path: 'a.py', qualifiedName: 'f', code: 'def f(): pass' },
    { id: 'b.py:C.g', path: 'b.py', qualifiedName: 'C.g', code: long },
  ], 'first-token', 'alpha', { maxPromptTokens: 600, maxIssueTokens: 100, maxCandidateTokens: 1024 });
  const user = msgs[1].content;
  assert.match(user, /^\[A\] a\.py — f$/m);
  assert.match(user, /^\[B\] b\.py — C\.g$/m);
  assert.match(user, /Crash in parse\(\)/);
  assert.match(user, /… \(cut\)/);
  assert.ok(user.length < 600 * 4 + 200, `prompt of ${user.length} chars fits the budget`);
  assert.match(user, /only its identifier/);
  assert.equal(identifierOf(9, 'numeric'), '10');
  assert.equal(trimToTokens('short', 10), 'short');
});

test('a thinking model\'s permutation is read after its think block; an answer cut inside the block names nothing', () => {
  assert.deepEqual(parsePermutation('<think>\nMaybe [1] > [3]?\n</think>\n\n[2] > [1]', 3, 'numeric'), { order: [1, 0, 2], named: 2 });
  assert.deepEqual(parsePermutation('<think>\n[3] looks', 3, 'numeric'), { order: [0, 1, 2], named: 0 });
  assert.deepEqual(parsePermutation('[3] > [1]', 3, 'numeric'), { order: [2, 0, 1], named: 2 });
});
