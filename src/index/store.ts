import type { InvertedIndex } from './inverted-index.js';
import { isInt, isRecord, isStringArray, readCheckedFile, writeCheckedFile } from '../util/checked-file.js';

/**
 * Binary persistence of an {@link InvertedIndex} plus a JSON header of the caller's own, as a
 * checked file (src/util/checked-file.ts: CRC-32 trailer, tag {@link INDEX_FILE_TAG}).
 *
 * Payload layout (little-endian):
 *   header length H (uint32) · header JSON (H bytes, UTF-8) · padding to a multiple of 4
 *   · postingStart · postingDoc · fieldLength (uint32 arrays) · postingTf (uint16 array).
 * The header holds the caller's `meta`, the field names, the vocabulary and the array lengths.
 *
 * Writes go to a temporary file in the same folder, are flushed, then renamed over the target,
 * so a reader never sees a half-written index.
 */
export const INDEX_FILE_TAG = 'index.v2';

interface Header<M> {
  meta: M;
  fieldNames: string[];
  vocabulary: string[];
  docCount: number;
  lengths: { postingStart: number; postingDoc: number; fieldLength: number; postingTf: number };
}

/** Writes `index` and `meta` to `path` atomically (temp file + rename). */
export function writeIndexFile<M>(path: string, index: InvertedIndex, meta: M): void {
  const header: Header<M> = {
    meta,
    fieldNames: [...index.fieldNames],
    vocabulary: [...index.vocabulary],
    docCount: index.docCount,
    lengths: {
      postingStart: index.postingStart.length,
      postingDoc: index.postingDoc.length,
      fieldLength: index.fieldLength.length,
      postingTf: index.postingTf.length,
    },
  };
  const headerBuf = Buffer.from(JSON.stringify(header), 'utf8');
  const pre = Buffer.alloc(4);
  pre.writeUInt32LE(headerBuf.length, 0);
  const pad = Buffer.alloc((4 - ((4 + headerBuf.length) % 4)) % 4);
  writeCheckedFile(path, INDEX_FILE_TAG, [pre, headerBuf, pad, index.postingStart, index.postingDoc, index.fieldLength, index.postingTf]);
}

/**
 * Reads an index file written by {@link writeIndexFile}, verified: checksum, then structure
 * (array lengths agree with the vocabulary, field and document counts; postings ascend within
 * each term and name documents below the count; `validMeta` accepts the caller's header).
 * @returns undefined when the file is missing, or corrupt (then one warning line names it).
 */
export function readIndexFile<M>(path: string, validMeta: (m: unknown) => m is M): { index: InvertedIndex; meta: M } | undefined {
  return readCheckedFile(path, INDEX_FILE_TAG, (buf) => decodeIndex(buf, validMeta));
}

function decodeIndex<M>(buf: Buffer, validMeta: (m: unknown) => m is M): { index: InvertedIndex; meta: M } {
  const h = buf.readUInt32LE(0);
  const header = JSON.parse(buf.toString('utf8', 4, 4 + h)) as unknown;
  if (!isHeader(header) || !validMeta(header.meta)) throw new Error('bad header');
  let offset = 4 + h;
  offset += (4 - (offset % 4)) % 4;
  const L = header.lengths;
  const F = header.fieldNames.length;
  const T = header.vocabulary.length;
  const D = header.docCount;
  const P = L.postingDoc;
  if (L.postingStart !== T + 1 || L.postingTf !== P * F || L.fieldLength !== D * F) throw new Error('bad lengths');
  if (buf.length - offset !== 4 * (L.postingStart + L.postingDoc + L.fieldLength) + 2 * L.postingTf) throw new Error('bad size');
  // Copy into a fresh aligned ArrayBuffer once, then take views.
  const body = new Uint8Array(buf.length - offset);
  body.set(buf.subarray(offset));
  let o = 0;
  const u32 = (n: number) => { const a = new Uint32Array(body.buffer, o, n); o += 4 * n; return a; };
  const postingStart = u32(L.postingStart);
  const postingDoc = u32(L.postingDoc);
  const fieldLength = u32(L.fieldLength);
  const postingTf = new Uint16Array(body.buffer, o, L.postingTf);
  if (postingStart[0] !== 0 || postingStart[T] !== P) throw new Error('bad posting starts');
  for (let t = 0; t < T; t++) {
    const end = postingStart[t + 1];
    let p = postingStart[t];
    if (end < p || end > P) throw new Error('bad posting starts');
    let last = -1;
    for (; p < end; p++) {
      const d = postingDoc[p];
      if (d <= last || d >= D) throw new Error('bad posting');
      last = d;
    }
  }
  const termIds = new Map<string, number>();
  header.vocabulary.forEach((t, i) => termIds.set(t, i));
  return {
    index: { fieldNames: header.fieldNames, vocabulary: header.vocabulary, termIds, docCount: D, postingStart, postingDoc, postingTf, fieldLength },
    meta: header.meta as M,
  };
}

function isHeader(x: unknown): x is Header<unknown> {
  if (!isRecord(x) || !isStringArray(x.fieldNames) || x.fieldNames.length === 0 || !isStringArray(x.vocabulary) || !isInt(x.docCount)) return false;
  const L = x.lengths;
  return isRecord(L) && isInt(L.postingStart) && isInt(L.postingDoc) && isInt(L.fieldLength) && isInt(L.postingTf);
}
