/**
 * `--watch`: polls each repository's default revision (`git rev-parse`) every interval; when it
 * moved, the new commit is indexed and then made the default. One poll at a time, so a slow
 * build delays the next poll instead of stacking them.
 */
import type { ServiceBackend } from './backend.js';

/** Shortest and longest poll interval in seconds. */
export const WATCH_INTERVAL_BOUNDS = { min: 1, max: 3600 } as const;

/** A running watch; {@link stop} ends it (the poll under way finishes first). */
export interface Watch {
  stop(): Promise<void>;
}

/**
 * Starts polling `names` every `intervalMs` milliseconds.
 * @param onMove told of each move (repository, new commit).
 * @param onError told of a failed poll (one line; the next poll tries again).
 */
export function watchDefaultBranches(
  backend: Pick<ServiceBackend, 'refreshDefault'>, names: readonly string[], intervalMs: number,
  onMove: (name: string, commit: string) => void, onError: (message: string) => void,
): Watch {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const poll = async () => {
    for (const name of names) {
      if (stopped) return;
      try {
        const moved = await backend.refreshDefault(name);
        if (moved) onMove(name, moved);
      } catch (e) {
        onError(`watch ${name}: ${(e as Error).message.split('\n')[0]}`);
      }
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = poll().finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
