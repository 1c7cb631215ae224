import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DenseSlots } from '../../src/util/dense-slots.js';

test('DenseSlots: slots in order of first sight, none before add, all forgotten by clear', () => {
  const s = new DenseSlots(10);
  assert.equal(s.get(3), -1, 'a fresh table gives no slot');
  assert.equal(s.add(7), 0);
  assert.equal(s.add(3), 1);
  assert.equal(s.add(7), 0, 'a key keeps its slot');
  assert.deepEqual([s.get(7), s.get(3), s.get(0), s.size], [0, 1, -1, 2]);
  s.clear();
  assert.deepEqual([s.get(7), s.get(3), s.size], [-1, -1, 0]);
  assert.equal(s.add(3), 0, 'a new list numbers from 0 again');
});

test('DenseSlots.mark: the first place of each number, forgotten by clear, as a map would hold them', () => {
  const marks = new DenseSlots(50);
  for (let query = 0; query < 3; query++) {
    marks.clear();
    const want = new Map<number, number>();
    for (let at = 0; at < 200; at++) {
      const k = (at * (query + 3) * 17) % 50;
      assert.equal(marks.mark(k, at), !want.has(k));
      if (!want.has(k)) want.set(k, at);
    }
    for (let k = 0; k < 50; k++) assert.equal(marks.get(k), want.get(k) ?? -1);
  }
  marks.clear();
  for (let k = 0; k < 50; k++) assert.equal(marks.get(k), -1);
});
