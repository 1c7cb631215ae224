/**
 * The thread one `POST /web/preview` runs on (preview-thread.ts starts it): reads and parses the
 * files of the items off the HTTP thread, posts the previews (or the error) once, and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { GitRepo } from '../../repo/git.js';
import { toWire } from '../backend.js';
import { statusOf } from '../errors.js';
import { previewItems } from './preview.js';
import type { PreviewJob } from './preview-thread.js';

const job = workerData as PreviewJob;
let git: GitRepo | undefined;
try {
  git = await GitRepo.open(job.repositoryPath);
  parentPort!.postMessage({ ok: true, previews: await previewItems(git, job.commit, job.items) });
} catch (e) {
  parentPort!.postMessage({ ok: false, error: toWire(e, statusOf(e)) });
} finally {
  await git?.close();
}
