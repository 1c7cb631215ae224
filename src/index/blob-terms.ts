import { join } from 'node:path';
import { readCheckedFile, writeCheckedFile } from '../util/checked-file.js';
import { BlobEntryReader, BlobEntryWriter, type TermDictionary, type UnitTerms } from './blob-entry.js';

export type { UnitTerms } from './blob-entry.js';

/** Tag of blob entries (src/util/checked-file.ts); v2: the payload holds its key; v3: binary (src/index/blob-entry.ts); v4: with the units' name terms. */
const BLOB_ENTRY_TAG = 'blob.v4';

/**
 * Content-addressed cache of parsed and tokenized blobs: one small checked file per blob at
 * `<dir>/<first two hex digits>/<rest>.bin` (its bytes: src/index/blob-entry.ts). Since a blob's
 * units and term counts depend only on its bytes (and the path's language, which `key` must
 * include when it matters) and on the extraction/tokenizer settings (folded into `dir` by the
 * caller), indexing a nearby commit parses only the blobs that changed.
 *
 * An entry's checked payload holds its key (blob id, language, grammar) inside the checksum, so
 * an entry copied under another blob's name (another repository's cache, a misplaced file) is
 * refused, not read as that blob's units.
 *
 * Each file is written atomically; concurrent writers of the same blob write equal content, so
 * the last rename wins harmlessly. An entry failing its checksum, holding another key or not in
 * the entry layout is corrupt: a miss, with one warning line (src/util/checked-file.ts), and
 * rewritten by the build.
 */
export class BlobTermsCache {
  hits = 0;
  misses = 0;
  /** Bytes of the entries written by {@link set} (payloads and trailers). */
  bytesWritten = 0;
  private readonly writer = new BlobEntryWriter();
  private reader: BlobEntryReader | undefined;
  private pairReader: BlobEntryReader | undefined;

  /** Keys: a blob hash, optionally with a language suffix. */
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key.slice(2)}.bin`);
  }

  /** The cached units of `key` with their bodies as [term, count] pairs, or undefined. */
  get(key: string): UnitTerms[] | undefined {
    const reader = this.pairReader ??= new BlobEntryReader();
    return this.read(key, (payload) => reader.readPairs(payload, key));
  }

  /**
   * The cached units of `key` with their bodies by the ids of `dictionary` (one buffer for all
   * of them), or undefined: {@link get} without a [term, count] pair array. Use one dictionary
   * per cache.
   */
  getByIds(key: string, dictionary: TermDictionary): UnitTerms[] | undefined {
    const reader = this.reader ??= new BlobEntryReader(dictionary);
    return this.read(key, (payload) => reader.read(payload, key));
  }

  private read(key: string, decode: (payload: Buffer) => UnitTerms[] | undefined): UnitTerms[] | undefined {
    const got = readCheckedFile(this.file(key), BLOB_ENTRY_TAG, decode);
    if (got !== undefined) this.hits++;
    else this.misses++;
    return got;
  }

  /**
   * Stores the units of `key`; a write error is returned, not thrown (the cache is an
   * optimisation), as is a unit holding a number out of the entry's range (not written).
   */
  set(key: string, units: UnitTerms[]): Error | undefined {
    const bytes = this.writer.encode(key, units);
    if (!bytes) return new Error(`blob entry ${key}: a number out of range`);
    try {
      this.bytesWritten += writeCheckedFile(this.file(key), BLOB_ENTRY_TAG, [bytes], { fsync: false });
      return undefined;
    } catch (e) {
      return e as Error;
    }
  }
}
