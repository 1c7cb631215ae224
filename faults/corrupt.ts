/** Finding the files of a cache folder by kind, and corrupting one the ways a disk or a user does. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CACHE_FILE_KINDS, NOT_CACHE_ENTRIES, type CacheFileKind } from './interface.js';
import type { Rng } from './rng.js';

export const CORRUPTIONS = ['bit-flips', 'truncated', 'empty', 'json-list', 'json-object', 'garbage'] as const;
export type Corruption = (typeof CORRUPTIONS)[number];

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
 * replaced by `[]` / `{}`; garbage: as many random bytes.
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
  }
  if (after.equals(before)) after = Buffer.concat([after, Buffer.from('\u0000garbage')]);
  writeFileSync(file, after);
  return what;
}
