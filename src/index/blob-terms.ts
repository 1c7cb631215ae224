import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UnitKind } from '../corpus/types.js';
import { writeFileAtomic } from '../util/atomic-write.js';

/** What indexing keeps of one code unit of a blob: its place and its body's term counts. */
export interface UnitTerms {
  kind: UnitKind;
  qualifiedName: string;
  startLine: number;
  endLine: number;
  /** [term, count] pairs of the unit's body (source text, cut to the configured word budget). */
  body: [string, number][];
  /** Tokens in the body (the BM25F body-field length). */
  bodyLength: number;
}

/**
 * Content-addressed cache of parsed and tokenized blobs: one small JSON file per blob at
 * `<dir>/<first two hex digits>/<rest>.json`. Since a blob's units and term counts depend only
 * on its bytes (and the path's language, which `key` must include when it matters) and on the
 * extraction/tokenizer settings (folded into `dir` by the caller), indexing a nearby commit
 * parses only the blobs that changed.
 *
 * Each file is written atomically; concurrent writers of the same blob write equal content, so
 * the last rename wins harmlessly. An unreadable or corrupt entry counts as a miss.
 */
export class BlobTermsCache {
  hits = 0;
  misses = 0;
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key.slice(2)}.json`);
  }

  /** The cached units of `key` (a blob hash, optionally with a language suffix), or undefined. */
  get(key: string): UnitTerms[] | undefined {
    const f = this.file(key);
    if (!existsSync(f)) {
      this.misses++;
      return undefined;
    }
    try {
      const units = JSON.parse(readFileSync(f, 'utf8')) as UnitTerms[];
      this.hits++;
      return units;
    } catch {
      this.misses++;
      return undefined;
    }
  }

  /** Stores the units of `key`. Errors writing the cache are not fatal: they are returned. */
  set(key: string, units: UnitTerms[]): Error | undefined {
    try {
      writeFileAtomic(this.file(key), [JSON.stringify(units)], { fsync: false });
      return undefined;
    } catch (e) {
      return e as Error;
    }
  }
}
