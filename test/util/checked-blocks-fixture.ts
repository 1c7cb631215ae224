/**
 * Edits a file of checked blocks (src/util/checked-file.ts) under matching checksums: what only a
 * bug of a writer could make, for tests of the checks past the checksums.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/** Where the parts of a file of checked blocks lie. */
export interface BlocksLayout {
  /** Head length (the head starts the file). */
  head: number;
  /** Offset of each block (N + 1: the last is the body's end), in the file. */
  blockAt: number[];
}

const FOOTER = 8;
const TRAILER = 28;

/** The layout of the file of checked blocks `bytes`. */
export function blocksLayout(bytes: Buffer): BlocksLayout {
  const tail = bytes.length - TRAILER - FOOTER;
  const H = bytes.readUInt32LE(tail), N = bytes.readUInt32LE(tail + 4);
  const tableAt = H + ((4 - (H % 4)) % 4);
  const bodyAt = tableAt + 4 * (2 * N + 1);
  return { head: H, blockAt: Array.from({ length: N + 1 }, (_, b) => bodyAt + bytes.readUInt32LE(tableAt + 4 * b)) };
}

/**
 * Runs `edit` on the bytes of `file` (in place; the layout stays: sizes must not change), then
 * writes them back with every block's CRC-32 and the head's recomputed.
 */
export function editUnderChecksums(file: string, edit: (bytes: Buffer, layout: BlocksLayout) => void): void {
  const bytes = readFileSync(file);
  const layout = blocksLayout(bytes);
  edit(bytes, layout);
  const H = layout.head;
  const N = layout.blockAt.length - 1;
  const tableAt = H + ((4 - (H % 4)) % 4);
  for (let b = 0; b < N; b++) {
    const block = bytes.subarray(layout.blockAt[b], layout.blockAt[b + 1]);
    bytes.writeUInt32LE(block.length === 0 ? 0 : crc32(block), tableAt + 4 * (N + 1 + b));
  }
  const tail = bytes.length - TRAILER - FOOTER;
  let crc = crc32(bytes.subarray(0, layout.blockAt[0]));
  crc = crc32(bytes.subarray(tail, tail + FOOTER + 16), crc);
  bytes.writeUInt32LE(crc, tail + FOOTER + 16);
  writeFileSync(file, bytes);
}
