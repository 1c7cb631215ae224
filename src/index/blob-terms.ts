import type { UnitKind } from '../corpus/types.js';
import { isInt, isRecord, KeyedJsonCache } from '../util/checked-file.js';
import { BlobEntryReader, BlobEntryWriter, type TermDictionary, type UnitTerms } from './blob-entry.js';

export type { UnitTerms } from './blob-entry.js';

/** Tag of blob entries (src/util/checked-file.ts); v2: the payload holds its key. */
const BLOB_ENTRY_TAG = 'blob.v2';
const UNIT_KINDS: ReadonlySet<unknown> = new Set<UnitKind>(['file', 'class', 'function']);

/**
 * Content-addressed cache of parsed and tokenized blobs: one small checked JSON file per blob at
 * `<dir>/<first two hex digits>/<rest>.json`. Since a blob's units and term counts depend only
 * on its bytes (and the path's language, which `key` must include when it matters) and on the
 * extraction/tokenizer settings (folded into `dir` by the caller), indexing a nearby commit
 * parses only the blobs that changed.
 *
 * An entry's checked payload is `{ key, units }`: its key (blob id, language, grammar) is inside
 * the checksum, so an entry copied under another blob's name (another repository's cache, a
 * misplaced file) is refused, not read as that blob's units.
 *
 * Each file is written atomically; concurrent writers of the same blob write equal content, so
 * the last rename wins harmlessly. An entry failing its checksum, holding another key or not an
 * array of units is corrupt: a miss, with one warning line (src/util/checked-file.ts), and
 * rewritten by the build.
 */
export class BlobTermsCache extends KeyedJsonCache<UnitTerms[]> {
  /** Keys: a blob hash, optionally with a language suffix. */
  constructor(dir: string) {
    super(dir, BLOB_ENTRY_TAG, 'units', isUnitTermsList);
  }

  private readonly writer = new BlobEntryWriter();
  private reader: BlobEntryReader | undefined;

  /** Stores the units of `key` (bodies by term ids are written as bytes, the same JSON). */
  override set(key: string, units: UnitTerms[]): Error | undefined {
    const bytes = this.writer.encode(key, units);
    return bytes ? this.setPayload(key, bytes) : super.set(key, units);
  }

  /**
   * The cached units of `key` with their bodies by the ids of `dictionary` (one buffer for all
   * of them), or undefined: {@link get} with `byIds` applied, read without a [term, count] pair
   * array (src/index/blob-entry.ts). Use one dictionary per cache.
   * @param byIds the same conversion of units read by JSON (`UnitBodyCounter.byIds`).
   */
  getByIds(key: string, dictionary: TermDictionary, byIds: (units: UnitTerms[]) => UnitTerms[]): UnitTerms[] | undefined {
    this.reader ??= new BlobEntryReader(dictionary);
    const reader = this.reader;
    return this.getDecoded(key, (payload) => reader.read(payload, key), byIds);
  }
}

function isUnitTermsList(x: unknown): x is UnitTerms[] {
  return Array.isArray(x) && x.every((u: unknown) => isRecord(u) && UNIT_KINDS.has(u.kind) && typeof u.qualifiedName === 'string' &&
    (u.namespaceParts === undefined || isInt(u.namespaceParts)) && isInt(u.startLine) && isInt(u.endLine) && isInt(u.bodyLength) &&
    Array.isArray(u.body) && u.body.every((p: unknown) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && isInt(p[1])));
}
