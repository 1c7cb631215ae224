/**
 * A {@link ThreadPool} thread: runs each job posted to it and posts back its {@link ThreadReply}.
 * It keeps the last localize job's localizer open for the next (src/batch/warm-localizer.ts).
 */
import { parentPort } from 'node:worker_threads';
import { IssuelocError } from '../errors.js';
import { runJob } from './run-job.js';
import { keepLocalizersWarm } from './warm-localizer.js';
import type { BatchJob } from './job-spec.js';
import type { ThreadReply } from './thread-pool.js';

keepLocalizersWarm();
parentPort?.on('message', (job: BatchJob) => {
  runJob(job).then(
    (outcome) => parentPort?.postMessage({ ok: true, outcome } satisfies ThreadReply),
    (e: unknown) => {
      const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
      parentPort?.postMessage({ ok: false, message, badInput: e instanceof IssuelocError, exitCode: e instanceof IssuelocError ? e.exitCode : 3 } satisfies ThreadReply);
    },
  );
});
