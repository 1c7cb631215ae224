/**
 * SIGTERM and SIGINT as a request to stop. The listeners stay registered (`process.on`, never
 * `process.once`) until removed: signal-exit, which proper-lockfile loads on the first build lock,
 * re-sends a signal to the process when it finds itself the only listener, and `once` removes
 * ours before calling it, so the process would die with 143 and drop the requests in flight.
 */

/**
 * Calls `onStop` on the first SIGTERM or SIGINT; later signals are ignored (the caller is
 * already stopping, within its own bound).
 * @returns a function removing the listeners.
 */
export function onStopSignal(onStop: (signal: NodeJS.Signals) => void): () => void {
  let stopping = false;
  const listener = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    onStop(signal);
  };
  process.on('SIGTERM', listener);
  process.on('SIGINT', listener);
  return () => {
    process.off('SIGTERM', listener);
    process.off('SIGINT', listener);
  };
}
