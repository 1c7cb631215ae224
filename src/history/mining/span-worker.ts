/**
 * Worker thread of {@link SpanPool} (./span-pool.ts): extracts the function spans of blobs it is
 * sent, `{ id, path, data }` → `{ id, spans }` (or `{ id, error }`), re-parsing each path from
 * its last parse kept here.
 */
import { parentPort } from 'node:worker_threads';
import { functionSpans, KeptParses } from './span-pool.js';

const kept = new KeptParses();

parentPort!.on('message', (m: { id: number; path: string; data: Uint8Array }) => {
  functionSpans(m.path, Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength), kept).then(
    (spans) => parentPort!.postMessage({ id: m.id, spans }),
    (e: unknown) => parentPort!.postMessage({ id: m.id, error: (e as Error).message }),
  );
});
