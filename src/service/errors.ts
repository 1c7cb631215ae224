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
