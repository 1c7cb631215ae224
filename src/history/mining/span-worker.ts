/**
 * Worker thread of {@link SpanPool} (./span-pool.ts): extracts the function spans of blobs it is
 * sent, `{ id, path, data }` → `{ id, spans }` (or `{ id, error }`).
 */
import { parentPort } from 'node:worker_threads';
import { functionSpans } from './span-pool.js';

parentPort!.on('message', (m: { id: number; path: string; data: Uint8Array }) => {
  functionSpans(m.path, Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength)).then(
    (spans) => parentPort!.postMessage({ id: m.id, spans }),
    (e: unknown) => parentPort!.postMessage({ id: m.id, error: (e as Error).message }),
  );
});
