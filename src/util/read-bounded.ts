/**
 * Reading an input of unknown size with a bound: at most `maxBytes + 1` bytes are read, so
 * `/dev/zero`, an endless pipe or a huge file costs a fixed amount of time and memory and is
 * reported as too big instead of filling the memory.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** What a bounded read gives: the bytes, or `over` when the input holds more than the bound. */
export type BoundedRead = { over: false; bytes: Buffer } | { over: true };

const CHUNK = 1 << 16;

/**
 * Reads the file at `path` (a regular file, a device, a FIFO such as `/dev/stdin` or
 * `<(command)`), sequentially, stopping after `maxBytes + 1` bytes.
 *
 * @throws the fs error of opening or reading it (ENOENT, EISDIR, EACCES …).
 */
export function readFileAtMost(path: string, maxBytes: number): BoundedRead {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return { over: false, bytes: Buffer.concat(chunks, total) };
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
      total += n;
      if (total > maxBytes) return { over: true };
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a stream (stdin) to its end, or until it gave more than `maxBytes`: then the stream is
 * destroyed (an endless writer gets EPIPE) and `over` is returned.
 *
 * @throws the stream's error.
 */
export async function readStreamAtMost(stream: Readable, maxBytes: number): Promise<BoundedRead> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buf);
    total += buf.length;
    // leaving the loop destroys the stream
    if (total > maxBytes) return { over: true };
  }
  return { over: false, bytes: Buffer.concat(chunks, total) };
}

/** A byte count for messages: `1 MiB`, `64 KiB`, `1000 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`;
  if (n >= 1 << 10 && n % (1 << 10) === 0) return `${n / (1 << 10)} KiB`;
  return `${n} bytes`;
}
