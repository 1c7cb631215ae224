// The young generation held at its first size for a short `localize` (bin/issueloc.js) grows again
// once restoreHeapGrowth gives V8 its growth back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { restoreHeapGrowth } from '../../src/cli/heap-growth.js';

const newSpaceBytes = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

/** Allocates objects that live a while (some survive a scavenge), as an index build does. */
function churn(n: number): number {
  let keep: { a: number; b: number[] }[] = [];
  let kept = 0;
  for (let i = 0; i < n; i++) {
    keep.push({ a: i, b: [i] });
    if (keep.length > 50_000) {
      kept += keep.length;
      keep = [];
    }
  }
  return kept + keep.length;
}

test('restoreHeapGrowth: the young generation, held at its size, grows again', () => {
  setFlagsFromString('--semi-space-growth-factor=1');
  churn(1_000_000);
  const held = newSpaceBytes();
  restoreHeapGrowth();
  churn(1_000_000);
  assert.ok(newSpaceBytes() > held, `new space ${newSpaceBytes()} B after the restore, ${held} B held`);
});
