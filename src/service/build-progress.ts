/**
 * How far an index build of the service is, and its one-line description for a caller that has
 * to wait: `4210 of 9870 files (43 %) after 40 s, about 52 s left`. The pool (localizer-pool.ts)
 * keeps one per build; a request that stops waiting is told it with a retry time, and the MCP
 * tools send it as progress notifications while a call waits.
 */

/** A long step of opening a localizer (src/pipeline/localizer.ts `onProgress`). */
export type BuildStep = 'index' | 'history' | 'embed' | 'adapt';

/** How far one build is. */
export interface BuildProgress {
  repository: string;
  commit: string;
  model: string;
  /** Waiting for the builds before it (one build runs at a time). */
  queued: boolean;
  /** Milliseconds since it was asked for. */
  elapsedMs: number;
  /** The step under way and its count (files for `index`), once the build has reported one. */
  step?: BuildStep;
  done?: number;
  total?: number;
  /** Estimated milliseconds left, from the pace of the step so far (once known). */
  remainingMs?: number;
}

/** What a build reports of a step: the first report (its pace starts there) and the last. */
export interface StepReports {
  step: BuildStep;
  first: { done: number; at: number };
  last: { done: number; total: number; at: number };
}

/** The reports of a build updated with one more (`at`: ms, e.g. Date.now()). */
export function nextReports(reports: StepReports | undefined, step: BuildStep, done: number, total: number, at: number): StepReports {
  if (!reports || reports.step !== step) return { step, first: { done, at }, last: { done, total, at } };
  return { ...reports, last: { done, total, at } };
}

/** Time left at the pace since the step's first report; undefined until a second of work and a unit done. */
export function remainingMs(reports: StepReports, now: number): number | undefined {
  const doneSince = reports.last.done - reports.first.done;
  const spent = now - reports.first.at;
  if (doneSince <= 0 || spent < 1000) return undefined;
  const left = Math.max(0, reports.last.total - reports.last.done);
  return Math.round((left * spent) / doneSince);
}

const STEP_UNITS: Record<BuildStep, string> = { index: 'files', history: 'commits', embed: 'functions', adapt: 'issues' };

/** `4210 of 9870 files (43 %) after 40 s, about 52 s left`; `queued behind another build for 3 s`. */
export function describeBuild(p: BuildProgress): string {
  const after = `${Math.round(p.elapsedMs / 1000)} s`;
  if (p.queued) return `queued behind another build for ${after}`;
  if (p.step === undefined || p.done === undefined || !p.total) return `started ${after} ago`;
  const what = `${p.step === 'index' ? '' : `${p.step}: `}${p.done} of ${p.total} ${STEP_UNITS[p.step]} (${Math.floor((100 * p.done) / p.total)} %) after ${after}`;
  if (p.done >= p.total) return `${what}, ${p.step === 'index' ? 'writing the index' : 'finishing'}`;
  return p.remainingMs === undefined ? what : `${what}, about ${Math.max(1, Math.round(p.remainingMs / 1000))} s left`;
}

/** Seconds to wait before asking again: the time left (1 s to 10 min) while counting, else `fallbackSeconds`. */
export function retrySeconds(p: BuildProgress | undefined, fallbackSeconds: number): number {
  if (p?.remainingMs === undefined || (p.total !== undefined && p.done !== undefined && p.done >= p.total)) return fallbackSeconds;
  return Math.min(600, Math.max(1, Math.ceil(p.remainingMs / 1000)));
}
