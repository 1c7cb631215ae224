/**
 * Worker-thread entry of `runEvaluation`: evaluates a contiguous slice of the issues (in
 * a-priori-time order, so its blob cache and LSI models stay warm) and posts each outcome back.
 *
 * Messages in: `{ settings: LoopSettings, tasks: IssueTask[] }` (workerData).
 * Messages out: `{ kind: 'outcome', outcome }` per issue, then `{ kind: 'done', timings, stats }`,
 * or `{ kind: 'error', message, exitCode }` (an IssuelocError's code, 3 for an unexpected error).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { IssuelocError } from '../errors.js';
import { IssueEvaluator, type IssueTask, type LoopSettings } from './issue-evaluator.js';

async function run(): Promise<void> {
  const { settings, tasks } = workerData as { settings: LoopSettings; tasks: IssueTask[] };
  const ev = new IssueEvaluator(settings);
  try {
    for (const task of tasks) parentPort?.postMessage({ kind: 'outcome', outcome: await ev.evaluate(task) });
    parentPort?.postMessage({ kind: 'done', timings: ev.timings, stats: await ev.stats() });
  } finally {
    await ev.close();
  }
}

run().catch((e: unknown) => {
  parentPort?.postMessage({ kind: 'error', message: (e as Error)?.message ?? String(e), exitCode: e instanceof IssuelocError ? e.exitCode : 3 });
});
