/**
 * Running one batch job and keeping its result: the job writes into a temporary folder of the
 * results folder, which is renamed to `jobs/<id>/` only when the job succeeded, so a job that
 * fails or whose worker dies leaves no result (its temporary folder is removed by the next
 * {@link runJob} of that id). A job whose result is already there is not run again; of two
 * workers that finish the same job, the first rename wins and the other's copy is dropped, so
 * each job's result appears exactly once.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { BatchJob, JobSpec } from './job-spec.js';
import { runEvalJob } from './eval-shards.js';
import { runDatasetJob, runIndexJob, runLocalizeJob } from './job-kinds.js';
import { JOB_FILE, resultSums } from './result-check.js';
import { resultDir } from './results-folder.js';

/** What {@link runJob} did. */
export interface JobOutcome {
  /** `done`: run now; `existing`: the result was already there (not run). */
  status: 'done' | 'existing';
  millis: number;
}

/** Test hook: milliseconds a job waits after its work, before its result is renamed into place. */
const delayMs = (): number => Math.max(0, Number(process.env.ISSUELOC_BATCH_JOB_DELAY_MS ?? 0) || 0);

/** Runs the work of `spec`, writing its files into `dir`; for a localize job, whether its localizer was warm. */
async function work(spec: JobSpec, dir: string): Promise<{ warm?: boolean }> {
  switch (spec.kind) {
    case 'dataset': await runDatasetJob(spec, dir); return {};
    case 'index': await runIndexJob(spec, dir); return {};
    case 'localize': return runLocalizeJob(spec, dir);
    case 'eval': await runEvalJob(spec, dir); return {};
  }
}

/**
 * Runs `job` unless its result exists, and moves its files to {@link resultDir} atomically
 * (with `job.json`: id, spec, host, pid, start time (epoch ms), milliseconds, for a localize job
 * whether its localizer was already open (`warm`), and the size and checksum of every file:
 * result-check.ts).
 * @throws what the job threw (an IssuelocError for bad input: not worth retrying); nothing is
 *   left under `jobs/` then.
 */
export async function runJob(job: BatchJob): Promise<JobOutcome> {
  const t0 = performance.now();
  const startedAt = Date.now();
  const final = resultDir(job.results, job.id);
  if (existsSync(final)) return { status: 'existing', millis: performance.now() - t0 };
  const tmpRoot = join(job.results, 'tmp');
  mkdirSync(tmpRoot, { recursive: true });
  mkdirSync(join(job.results, 'jobs'), { recursive: true });
  // leftovers of a killed attempt of this job
  for (const name of readdirSync(tmpRoot)) if (name.startsWith(`${job.id}.`)) rmSync(join(tmpRoot, name), { recursive: true, force: true });
  const tmp = join(tmpRoot, `${job.id}.${process.pid}.${Math.random().toString(36).slice(2, 10)}`);
  mkdirSync(tmp);
  try {
    const { warm } = await work(job.spec, tmp);
    const wait = delayMs();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const millis = performance.now() - t0;
    const files = resultSums(job.id, tmp);
    writeFileAtomic(join(tmp, JOB_FILE), [`${JSON.stringify({ id: job.id, spec: job.spec, fingerprint: job.fingerprint, host: hostname(), pid: process.pid, startedAt, millis: Math.round(millis), ...(warm !== undefined ? { warm } : {}), files }, null, 2)}\n`]);
    try {
      renameSync(tmp, final);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
      rmSync(tmp, { recursive: true, force: true }); // another worker finished it first
      return { status: 'existing', millis };
    }
    return { status: 'done', millis };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
