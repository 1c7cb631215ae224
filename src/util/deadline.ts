/**
 * A point in time past which work for one issue is abandoned (`--deadline SECONDS`): the stage in
 * flight (embedding, an endpoint request, a reranking window) stops and the best ranking so far
 * is returned with a warning.
 */
import { IssuelocError } from '../errors.js';

/** Thrown (and used as the abort reason) when a {@link Deadline} has passed. */
export class DeadlineExceeded extends IssuelocError {
  constructor(readonly seconds: number, label: string) {
    super(`the ${label} of ${seconds} s passed`);
    this.name = 'DeadlineExceeded';
  }
}

/** A deadline: an AbortSignal that fires at a fixed time, with {@link DeadlineExceeded} as its reason. */
export class Deadline {
  /** Aborts when the deadline passes; its `reason` is a {@link DeadlineExceeded}. */
  readonly signal: AbortSignal;
  /** `Date.now()` milliseconds at which it passes. */
  readonly at: number;

  private constructor(readonly seconds: number, label: string) {
    this.at = Date.now() + seconds * 1000;
    const controller = new AbortController();
    // unref: a pending deadline never keeps the process alive
    setTimeout(() => controller.abort(new DeadlineExceeded(seconds, label)), seconds * 1000).unref();
    this.signal = controller.signal;
  }

  /**
   * A deadline `seconds` from now.
   * @param label names the setting in messages (default `--deadline`).
   */
  static after(seconds: number, label = '--deadline'): Deadline {
    return new Deadline(seconds, label);
  }
}

/**
 * `promise`, or a rejection with the signal's reason as soon as `signal` aborts (the work behind
 * the promise is abandoned, not stopped: use it for work that takes no signal, like an ONNX pass).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e: unknown) => { signal.removeEventListener('abort', onAbort); reject(e as Error); },
    );
  });
}
