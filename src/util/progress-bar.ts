import cliProgress from 'cli-progress';

/** A progress callback `(done, total)` that draws a bar on stderr, and `stop()` to end it. */
export interface ProgressBar {
  update: (done: number, total: number) => void;
  stop: () => void;
}

/**
 * A progress bar on stderr (cli-progress), drawn only when stderr is a terminal and `enabled`;
 * otherwise a no-op, so piped output and CI logs stay clean.
 */
export function progressBar(label: string, enabled = true): ProgressBar {
  if (!enabled || !process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
