/**
 * Errors of the service that carry their HTTP status: an unknown repository (404), an index
 * still being built past the wait (503), overload (429). Any other {@link IssuelocError} is bad
 * input (400); anything else is a bug (500).
 */
import { IssuelocError } from '../errors.js';

/** An error the service answers with `status` (and `Retry-After: retryAfterSeconds` when set). */
export class ServiceError extends IssuelocError {
  constructor(message: string, readonly status: number, readonly retryAfterSeconds?: number) {
    super(message, 2);
    this.name = 'ServiceError';
  }
}

/** The HTTP status of an error thrown while answering: ServiceError's own, 400 for bad input, else 500. */
export function statusOf(e: unknown): number {
  if (e instanceof ServiceError) return e.status;
  if (e instanceof IssuelocError) return e.exitCode === 2 ? 400 : 500;
  return 500;
}

/**
 * What a 500 tells the server's operator and its client: `log`, the one stderr line's text (the
 * message, with the path of a failed file-system call: `EFBIG: file too large, write '/cache/…'`);
 * `client`, the answer's, without server paths (`server error: file too large (EFBIG)`, else
 * `internal error`).
 */
export function serverErrorText(e: Error): { log: string; client: string } {
  const err = e as NodeJS.ErrnoException;
  const first = e.message.split('\n')[0];
  const log = typeof err.path === 'string' && !first.includes(err.path) ? `${first} '${err.path}'` : first;
  const errno = /^(E[A-Z]+): ([^,']+)/.exec(first);
  return { log, client: errno ? `server error: ${errno[2].trim()} (${errno[1]})` : 'internal error' };
}
