/**
 * A worker thread of `issueloc serve --workers N` (worker-backend.ts): one {@link LocalizerPool}
 * of its own, answering the calls the HTTP thread posts, one message each way per call.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { answerLocalize, listRepos, poolStats, toWire } from './backend.js';
import { statusOf } from './errors.js';
import { LocalizerPool } from './localizer-pool.js';
import type { WorkerCall, WorkerData, WorkerReply } from './worker-backend.js';

const port = parentPort!;
const { config } = workerData as WorkerData;
const post = (m: WorkerReply) => port.postMessage(m);
const pool = new LocalizerPool(config, { onWarning: (warning) => post({ id: 0, warning }) });

async function answer(call: WorkerCall): Promise<unknown> {
  switch (call.op) {
    case 'localize': return answerLocalize(pool, call.request, call.waitMs);
    case 'repos': return listRepos(pool);
    case 'stats': return poolStats(pool);
    case 'refresh': return pool.refreshDefault(call.name);
    case 'warm':
      for (const name of call.names) await pool.prepare(name);
      return undefined;
    case 'close':
      await pool.close();
      return undefined;
  }
}

port.on('message', (call: WorkerCall) => {
  answer(call).then(
    (value) => post({ id: call.id, ok: true, value }),
    (e: unknown) => post({ id: call.id, ok: false, error: toWire(e, statusOf(e)) }),
  );
});
