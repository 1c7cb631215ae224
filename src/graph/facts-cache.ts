/**
 * Per-blob cache of {@link BlobFacts}: one small checked JSON file per blob at
 * `<dir>/<first two hex digits>/<rest>.json` (the layout of the index's blob cache,
 * src/index/blob-terms.ts), so the graph of a nearby commit reads only the blobs that changed.
 * An entry holds its key inside the checksum; one holding another key, or not facts, is corrupt:
 * a miss with one warning line (src/util/checked-file.ts), rewritten by the next build.
 */
import { join } from 'node:path';
import { isInt, isRecord, isStringArray, readCheckedJson, writeCheckedJson } from '../util/checked-file.js';
import type { BlobFacts } from './blob-facts.js';

/** Tag of a facts entry (src/util/checked-file.ts). */
export const FACTS_ENTRY_TAG = 'gfact.v1';

/** The per-blob facts cache under `dir`. */
export class FactsCache {
  hits = 0;
  misses = 0;
  /** Bytes of the entries written by {@link set}. */
  bytesWritten = 0;
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key.slice(2)}.json`);
  }

  /** The cached facts of `key` (a blob id with its language), or undefined. */
  get(key: string): BlobFacts | undefined {
    const entry = readCheckedJson(this.file(key), FACTS_ENTRY_TAG, (x): x is { key: string; facts: BlobFacts } => isRecord(x) && x.key === key && isFacts(x.facts));
    if (entry) this.hits++; else this.misses++;
    return entry?.facts;
  }

  /** Stores the facts of `key`; a write error is returned, not thrown (the cache is an optimisation). */
  set(key: string, facts: BlobFacts): Error | undefined {
    try {
      this.bytesWritten += writeCheckedJson(this.file(key), FACTS_ENTRY_TAG, { key, facts }, { fsync: false });
      return undefined;
    } catch (e) {
      return e as Error;
    }
  }
}

function isFacts(x: unknown): x is BlobFacts {
  return isRecord(x) && isStringArray(x.imports) && Array.isArray(x.calls) &&
    x.calls.every((c: unknown) => Array.isArray(c) && c.length === 2 && typeof c[0] === 'string' && isInt(c[1], 1));
}
