/**
 * A thread `POST /web/preview` runs on (preview-thread.ts starts it and keeps it): for each job
 * posted, reads and parses the files of the items off the HTTP thread and posts the previews (or
 * the error), one answer per job. The repositories it opened stay open for the next jobs, at most
 * {@link MAX_OPEN_REPOSITORIES} (the least recently used closed first).
 */
import { parentPort } from 'node:worker_threads';
import { GitRepo } from '../../repo/git.js';
import { toWire } from '../backend.js';
import { statusOf } from '../errors.js';
import { previewItems } from './preview.js';
import type { PreviewJob, PreviewReply } from './preview-thread.js';

/** Repositories a thread keeps open (each a `git cat-file --batch` process once read). */
const MAX_OPEN_REPOSITORIES = 4;

/** Open repositories by path, least recently used first. */
const open = new Map<string, Promise<GitRepo>>();

function repoAt(path: string): Promise<GitRepo> {
  let git = open.get(path);
  open.delete(path);
  if (!git) {
    git = GitRepo.open(path);
    git.catch(() => open.delete(path));
  }
  open.set(path, git);
  for (const [p, g] of open) {
    if (open.size <= MAX_OPEN_REPOSITORIES) break;
    open.delete(p);
    void g.then((r) => r.close(), () => undefined);
  }
  return git;
}

async function answer(job: PreviewJob): Promise<PreviewReply> {
  try {
    return { ok: true, previews: await previewItems(await repoAt(job.repositoryPath), job.commit, job.items) };
  } catch (e) {
    return { ok: false, error: toWire(e, statusOf(e)) };
  }
}

// one job at a time: the next waits for the answer before it (the pool posts one per thread anyway)
let turn: Promise<void> = Promise.resolve();
parentPort!.on('message', (job: PreviewJob) => {
  turn = turn.then(async () => parentPort!.postMessage(await answer(job))).catch(() => undefined);
});
