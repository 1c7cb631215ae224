/**
 * The warm localizer of a batch pool thread: the localizer a localize job opened stays open for
 * the thread's next localize job with the same repository, cache folder and model, so a run of
 * one-issue jobs pays the index load once per thread and base commit (as the service's warm pool
 * does), not once per job. One entry per thread: a job with another key closes it first.
 *
 * A ranking stays a function of (repository, base commit, issue, settings): every job names its
 * base commit, and the localizer resolves and indexes it per call as a fresh one would; a model
 * file is part of the key with its size and modification time, so a rewritten file is reloaded.
 *
 * Off unless {@link keepLocalizersWarm} was called (pool threads do; a job run on the main thread
 * opens and closes its own, so no git process outlives it).
 */
import { realpathSync, statSync } from 'node:fs';
import { IssuelocError } from '../errors.js';
import { openLocalizer, type IssueLocalizer } from '../pipeline/localizer.js';
import type { LocalizeJob } from './job-spec.js';

let enabled = false;
let warm: { key: string; localizer: IssueLocalizer } | undefined;

/** Lets this thread keep the last localize job's localizer open for the next one. */
export function keepLocalizersWarm(): void {
  enabled = true;
}

/** The key of a job's localizer: what the opened localizer depends on. */
function keyOf(spec: LocalizeJob): string {
  const file = (p: string) => { try { const s = statSync(p); return `${s.size}:${s.mtimeMs}`; } catch { return 'absent'; } };
  const repo = (() => { try { return realpathSync(spec.repo); } catch { return spec.repo; } })();
  const model = spec.model ?? 'default';
  return JSON.stringify([repo, spec.cacheDir ?? null, model, model.startsWith('/') ? file(model) : null]);
}

/**
 * Runs `work` with a localizer for `spec`: this thread's warm one when its key matches, else one
 * opened now (kept warm afterwards when enabled; closed after `work` otherwise).
 * @returns what `work` returned, and whether the localizer was warm.
 * @throws what opening or `work` threw; a localizer whose work failed with anything but bad input
 *   is closed, not kept.
 */
export async function withLocalizer<T>(spec: LocalizeJob, work: (l: IssueLocalizer) => Promise<T>): Promise<{ value: T; warm: boolean }> {
  const key = keyOf(spec);
  let reused = false;
  let localizer: IssueLocalizer;
  if (enabled && warm?.key === key) {
    localizer = warm.localizer;
    reused = true;
  } else {
    await closeWarmLocalizer();
    localizer = await openLocalizer({ repo: spec.repo, rev: spec.commit, cacheDir: spec.cacheDir, ...(spec.model !== undefined ? { model: spec.model } : {}) });
    if (enabled) warm = { key, localizer };
  }
  try {
    return { value: await work(localizer), warm: reused };
  } catch (e) {
    if (enabled && !(e instanceof IssuelocError)) await closeWarmLocalizer();
    throw e;
  } finally {
    if (!enabled) await localizer.close();
  }
}

/** Closes this thread's warm localizer, if any. */
export async function closeWarmLocalizer(): Promise<void> {
  const w = warm;
  warm = undefined;
  if (w) await w.localizer.close().catch(() => undefined);
}
