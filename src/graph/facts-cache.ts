/**
 * Per-blob cache of {@link BlobFacts}: one small checked JSON file per blob at
 * `<dir>/<first two hex digits>/<rest>.json` (the layout of the index's blob cache,
 * src/index/blob-terms.ts), so the graph of a nearby commit reads only the blobs that changed.
 * An entry holds its key inside the checksum; one holding another key, or not facts, is corrupt:
 * a miss with one warning line (src/util/checked-file.ts), rewritten by the next build.
 */
import { isInt, isRecord, isStringArray, KeyedJsonCache } from '../util/checked-file.js';
import type { BlobFacts } from './blob-facts.js';

/** Tag of a facts entry (src/util/checked-file.ts). */
export const FACTS_ENTRY_TAG = 'gfact.v1';

/** The per-blob facts cache under `dir`: keys are blob ids with their language. */
export class FactsCache extends KeyedJsonCache<BlobFacts> {
  constructor(dir: string) {
    super(dir, FACTS_ENTRY_TAG, 'facts', isFacts);
  }
}

function isFacts(x: unknown): x is BlobFacts {
  return isRecord(x) && isStringArray(x.imports) && Array.isArray(x.calls) &&
    x.calls.every((c: unknown) => Array.isArray(c) && c.length === 2 && typeof c[0] === 'string' && isInt(c[1], 1));
}
