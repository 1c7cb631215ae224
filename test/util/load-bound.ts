/**
 * Time bounds of the tests, made to hold on a machine at load 10+ (never a speed target): a bound
 * is the waits the code under test is configured with, plus the work around them as measured on
 * this machine in the same test (e.g. the start-up of the same command), times a re-run factor,
 * plus a slack for timers that fire late. Where a bound must tell a bounded wait from a longer
 * one, the test makes the longer one far longer than the bound (minutes, not seconds).
 */

/** Added to every bound: timers and child processes start late on a loaded machine. */
export const LOADED_SLACK_MS = 10_000;

/** How much slower than a run measured in the same test a later run may be. */
export const RERUN_FACTOR = 3;

/**
 * Upper bound for a run that waits `configuredMs` (its timeouts, back-offs, deadline) besides
 * work that took `measuredMs` when measured in the same test.
 */
export function loadBound(configuredMs: number, measuredMs = 0): number {
  return configuredMs + RERUN_FACTOR * measuredMs + LOADED_SLACK_MS;
}

/**
 * Runs `f` and returns its value and the CPU time (user + system) the process spent meanwhile:
 * for bounds on in-process work that guard against blow-ups (quadratic scans, backtracking), which
 * wall-clock time on a loaded machine cannot tell from waiting for a core.
 */
export function withCpuTime<T>(f: () => T): { value: T; cpuMs: number } {
  const start = process.cpuUsage();
  const value = f();
  const used = process.cpuUsage(start);
  return { value, cpuMs: (used.user + used.system) / 1000 };
}
