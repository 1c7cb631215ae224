import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { InvertedIndex } from './inverted-index.js';

/**
 * Binary persistence of an {@link InvertedIndex} plus a JSON header of the caller's own.
 *
 * File layout (little-endian):
 *   magic "ISSLOC1\n" (8 bytes) · header length H (uint32) · header JSON (H bytes, UTF-8)
 *   · padding to a multiple of 4 · postingStart · postingDoc · fieldLength (uint32 arrays)
 *   · postingTf (uint16 array).
 * The header holds the caller's `meta`, the field names, the vocabulary and the array lengths.
 *
 * Writes go to a temporary file in the same folder, are flushed, then renamed over the target,
 * so a reader never sees a half-written index.
 */
const MAGIC = 'ISSLOC1\n';

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
  const pre = Buffer.alloc(12);
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt32LE(headerBuf.length, 8);
  const pad = Buffer.alloc((4 - ((12 + headerBuf.length) % 4)) % 4);
  writeFileAtomic(path, [pre, headerBuf, pad, index.postingStart, index.postingDoc, index.fieldLength, index.postingTf]);
}

/**
 * Reads an index file written by {@link writeIndexFile}.
 * @throws Error naming the file when it is not an index file or is truncated.
 */
export function readIndexFile<M>(path: string): { index: InvertedIndex; meta: M } {
  const buf = readFileSync(path);
  if (buf.length < 12 || buf.toString('latin1', 0, 8) !== MAGIC) throw new Error(`not an issueloc index file: ${path}`);
  const h = buf.readUInt32LE(8);
  const header = JSON.parse(buf.toString('utf8', 12, 12 + h)) as Header<M>;
  let offset = 12 + h;
  offset += (4 - (offset % 4)) % 4;
  // Copy into a fresh aligned ArrayBuffer once, then take views.
  const body = new Uint8Array(buf.length - offset);
  body.set(buf.subarray(offset));
  const L = header.lengths;
  const need = 4 * (L.postingStart + L.postingDoc + L.fieldLength) + 2 * L.postingTf;
  if (body.length < need) throw new Error(`truncated issueloc index file: ${path}`);
  let o = 0;
  const u32 = (n: number) => { const a = new Uint32Array(body.buffer, o, n); o += 4 * n; return a; };
  const postingStart = u32(L.postingStart);
  const postingDoc = u32(L.postingDoc);
  const fieldLength = u32(L.fieldLength);
  const postingTf = new Uint16Array(body.buffer, o, L.postingTf);
  const termIds = new Map<string, number>();
  header.vocabulary.forEach((t, i) => termIds.set(t, i));
  return {
    index: {
      fieldNames: header.fieldNames,
      vocabulary: header.vocabulary,
      termIds,
      docCount: header.docCount,
      postingStart,
      postingDoc,
      postingTf,
      fieldLength,
    },
    meta: header.meta,
  };
}
