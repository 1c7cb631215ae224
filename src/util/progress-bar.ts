import { createRequire } from 'node:module';
import type CliProgress from 'cli-progress';

/** cli-progress, loaded when a terminal bar is first drawn (a process with no bar never loads it). */
let cliProgress: typeof CliProgress | undefined;
const loadCliProgress = () => (cliProgress ??= createRequire(import.meta.url)('cli-progress') as typeof CliProgress);

/** A progress callback `(done, total)` that reports a phase on stderr, and `stop()` to end it. */
export interface ProgressBar {
  update: (done: number, total: number) => void;
  stop: () => void;
}

/** Seconds between two lines of a long phase when stderr is no terminal (a CI log). */
export const PROGRESS_LINE_SECONDS = 10;

/** The line prefix of progress on stderr when it is no terminal: `issueloc: progress: …`. */
export const PROGRESS_PREFIX = 'issueloc: progress: ';

/** The phase whose bar is drawn now: a new phase's first update finishes it (one bar at a time). */
let active: { finish: () => void } | undefined;

/**
 * The progress of one phase on stderr, or a no-op when not `enabled` (`--no-progress`).
 *
 * On a terminal: a bar (cli-progress), drawn from the phase's first update; one bar at a time:
 * the first update of another phase finishes this one, and a finished bar ignores later
 * updates, so two phases never redraw one line. When stderr is no terminal (a pipe, a CI log):
 * one line `issueloc: progress: LABEL done/total, S s` when the phase ends (stopped or followed by
 * another phase), and on a long one a line every {@link PROGRESS_LINE_SECONDS} seconds before it,
 * also while no update comes (a timer that does not keep the process alive);
 * a phase that never reported anything prints nothing.
 */
export function progressBar(label: string, enabled = true, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  if (!enabled) return { update: () => {}, stop: () => {} };
  return stream.isTTY ? terminalBar(label, stream) : logLines(label, stream);
}

function terminalBar(label: string, stream: NodeJS.WriteStream): ProgressBar {
  const { SingleBar, Presets } = loadCliProgress();
  const bar = new SingleBar(
    { stream, format: `${label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`, hideCursor: true, clearOnComplete: true },
    Presets.shades_classic,
  );
  let state: 'new' | 'drawn' | 'finished' = 'new';
  const phase = {
    finish() {
      if (state === 'drawn') bar.stop();
      state = 'finished';
      if (active === phase) active = undefined;
    },
  };
  return {
    update(done, total) {
      if (state === 'finished') return;
      if (state === 'new') {
        if (active && active !== phase) active.finish();
        active = phase;
        bar.start(total, done);
        state = 'drawn';
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop: () => phase.finish(),
  };
}

function logLines(label: string, stream: NodeJS.WriteStream): ProgressBar {
  let state: 'new' | 'running' | 'finished' = 'new';
  let t0 = 0;
  let lastLine = 0;
  let done = 0;
  let total = 0;
  const line = (now: number) => {
    const share = total > 0 ? ` (${Math.floor((100 * done) / total)} %)` : '';
    stream.write(`${PROGRESS_PREFIX}${label} ${done}/${total}${state === 'finished' ? '' : share}, ${((now - t0) / 1000).toFixed(1)} s\n`);
    lastLine = now;
  };
  const due = (now: number) => { if (now - lastLine >= PROGRESS_LINE_SECONDS * 1000) line(now); };
  // a phase whose updates stop (one long step) still prints its line when due: checked each second
  let clock: ReturnType<typeof setInterval> | undefined;
  const phase = {
    finish() {
      clearInterval(clock);
      if (state === 'running') { state = 'finished'; line(Date.now()); }
      state = 'finished';
      if (active === phase) active = undefined;
    },
  };
  return {
    update(d, t) {
      if (state === 'finished') return;
      const now = Date.now();
      if (state === 'new') {
        if (active && active !== phase) active.finish();
        active = phase;
        state = 'running';
        t0 = lastLine = now;
        clock = setInterval(() => due(Date.now()), 1000);
        clock.unref?.();
      }
      done = d;
      total = t;
      due(now);
    },
    stop: () => phase.finish(),
  };
}
