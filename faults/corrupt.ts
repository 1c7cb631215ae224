/** Finding the files of a cache folder by kind, and corrupting one the ways a disk or a user does. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CACHE_FILE_KINDS, CHECKED_BLOCKS, NOT_CACHE_ENTRIES, type CacheFileKind } from './interface.js';
import type { Rng } from './rng.js';

export const CORRUPTIONS = ['bit-flips', 'truncated', 'empty', 'json-list', 'json-object', 'garbage'] as const;
/** One bit flipped in every block of a file of checked blocks: a query reads one of them. */
export const BLOCK_CORRUPTION = 'every-block';
export type Corruption = (typeof CORRUPTIONS)[number] | typeof BLOCK_CORRUPTION;

/**
 * Where the blocks of the file of checked blocks `bytes` lie ({@link CHECKED_BLOCKS}): the byte
 * offset of each block's start and of the body's end; undefined when it is not such a file.
 */
export function blockOffsets(bytes: Buffer): number[] | undefined {
  const { magic, footer, trailer } = CHECKED_BLOCKS;
  if (bytes.length < footer + trailer || bytes.toString('latin1', bytes.length - 8) !== magic) return undefined;
  const tail = bytes.length - trailer - footer;
  const H = bytes.readUInt32LE(tail), N = bytes.readUInt32LE(tail + 4);
  const tableAt = H + ((4 - (H % 4)) % 4);
  const bodyAt = tableAt + 4 * (2 * N + 1);
  if (bodyAt > tail) return undefined;
  const at = Array.from({ length: N + 1 }, (_, b) => bodyAt + bytes.readUInt32LE(tableAt + 4 * b));
  return at.every((o, b) => o <= tail && (b === 0 || o >= at[b - 1])) ? at : undefined;
}

/**
 * Whether `after` differs from `before` only inside the blocks of a file of checked blocks (same
 * length): bytes a run reads only if its query needs those blocks.
 */
export function changedInBlocksOnly(before: Buffer, after: Buffer): boolean {
  const at = blockOffsets(before);
  if (!at || before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i] && (i < at[0] || i >= at[at.length - 1])) return false;
  return true;
}

/** Every file under `dir` (relative paths with `/`), sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries;
    try { entries = readdirSync(d, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** The cache files of `kind` under `cacheDir` (relative paths). */
export function cacheFiles(cacheDir: string, kind: CacheFileKind): string[] {
  return filesUnder(cacheDir).filter((f) => !NOT_CACHE_ENTRIES.test(f) && CACHE_FILE_KINDS[kind].test(f));
}

/**
 * Corrupts `file` in place; the bytes always change.
 * bit-flips: 1–8 random bits; truncated: cut at a random length; empty: 0 bytes; json-list / json-object:
 * replaced by `[]` / `{}`; garbage: as many random bytes; every-block: one random bit in each
 * non-empty block of a file of checked blocks (an error for another file).
 * @returns what was done, for failure details.
 */
export function corruptFile(file: string, how: Corruption, rng: Rng): string {
  const before = readFileSync(file);
  let after: Buffer;
  let what: string = how;
  switch (how) {
    case 'bit-flips': {
      after = Buffer.from(before);
      const n = rng.int(1, 9);
      const at: number[] = [];
      for (let i = 0; i < n && after.length > 0; i++) {
        const bit = rng.int(0, after.length * 8);
        after[bit >> 3] ^= 1 << (bit & 7);
        at.push(bit >> 3);
      }
      what = `${n} bit flips at bytes ${at.join(',')} of ${before.length}`;
      break;
    }
    case 'truncated': {
      const len = before.length > 1 ? rng.int(1, before.length) : 0;
      after = before.subarray(0, len);
      what = `truncated to ${len} of ${before.length} bytes`;
      break;
    }
    case 'empty': after = Buffer.alloc(0); break;
    case 'json-list': after = Buffer.from('[]'); break;
    case 'json-object': after = Buffer.from('{}'); break;
    case 'garbage': after = rng.bytes(Math.max(16, before.length)); break;
    case BLOCK_CORRUPTION: {
      const at = blockOffsets(before);
      if (!at) throw new Error(`${file} is not a file of checked blocks`);
      after = Buffer.from(before);
      let n = 0;
      for (let b = 0; b + 1 < at.length; b++) {
        if (at[b + 1] === at[b]) continue;
        const bit = rng.int(8 * at[b], 8 * at[b + 1]);
        after[bit >> 3] ^= 1 << (bit & 7);
        n++;
      }
      what = `one bit flipped in each of ${n} blocks`;
      break;
    }
  }
  if (after.equals(before)) after = Buffer.concat([after, Buffer.from('\u0000garbage')]);
  writeFileSync(file, after);
  return what;
}
