/**
 * Errors of the service that carry their HTTP status: an unknown repository (404), an index
 * still being built past the wait (503), overload (429). Any other {@link IssuelocError} is bad
 * input (400); anything else is a bug (500).
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
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

/** Replaces server folders in a message for a client (see {@link serverPathRedactor}). */
export type Redact = (message: string) => string;

/**
 * The one place server paths are taken out of what HTTP clients are told: each repository's path
 * becomes `<repository NAME>`, the cache folder `<cache>`, the working folder `.`, the home
 * folder `~` (longest first, each also as its real path).
 */
export function serverPathRedactor(repositories: Iterable<{ name: string; path: string }>, cacheDir: string | undefined, cwd = process.cwd(), home = homedir()): Redact {
  const pairs: [string, string][] = [];
  const add = (path: string | undefined, shown: string) => {
    if (!path || path === '/') return;
    for (const p of new Set([path, real(path)])) pairs.push([p.replace(/\/+$/, ''), shown]);
  };
  for (const r of repositories) add(r.path, `<repository ${r.name}>`);
  add(cacheDir, '<cache>');
  add(cwd, '.');
  add(home, '~');
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (message) => pairs.reduce((m, [path, shown]) => m.split(path).join(shown), message);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
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
