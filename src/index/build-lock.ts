/**
 * The lock that keeps two processes from building into one cache folder at once (the second
 * waits, then loads what the first wrote). Every cache write is atomic and equal builds write
 * equal bytes, so the lock only saves duplicate work: when in doubt it is broken, never waited
 * on without bound.
 *
 * On disk: proper-lockfile's lock folder `<dir>.lock` (its mtime refreshed every 5 s by the
 * holder) and beside it `<dir>.owner`, JSON {pid, host, what, token} of the holder.
 * - a folder that cannot take the lock (EACCES, EPERM, EROFS; full: ENOSPC, EDQUOT, EFBIG) fails at
 *   once with one line naming the folder ({@link CacheFolderNotWritable});
 * - a waiter says once on stderr whom it waits for
 *   (`issueloc: waiting for another issueloc process building <what> (pid N)…`, or `another
 *   thread of this process` when the holder's pid is ours);
 * - a holder on this host whose pid is gone (kill -9) is taken over at once; a holder of another
 *   host, or one that left no owner file, counts as dead after 30 s without a refresh (5 min for a
 *   live pid of this host, whose event loop may be busy parsing);
 * - the wait is bounded: `waitMs` (default {@link DEFAULT_LOCK_WAIT_MS}, env ISSUELOC_LOCK_WAIT in
 *   seconds), then an error naming the holder.
 */
import { accessSync, constants, readFileSync, renameSync, rmSync, rmdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IssuelocError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { cacheCannotTake } from '../util/file-errors.js';
import { processAlive } from '../util/process-alive.js';

/**
 * proper-lockfile, loaded on the first lock: it installs signal handlers (signal-exit) when
 * loaded, and a handled SIGINT/SIGTERM cannot end a process whose event loop is blocked (a
 * synchronous read of a FIFO with no writer yet), so a run that locks nothing keeps the default.
 */
async function properLockfile(): Promise<typeof import('proper-lockfile')> {
  return (await import('proper-lockfile')).default;
}

/** How long a process waits for another's build by default: 10 minutes. */
export const DEFAULT_LOCK_WAIT_MS = 600_000;
const STALE_UNKNOWN_MS = 30_000;
const STALE_LIVE_MS = 300_000;

/** The cache folder cannot take the lock (no permission, a read-only or full file system): `code` is the fs error's. */
export class CacheFolderNotWritable extends IssuelocError {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

interface Owner { pid: number; host: string; what: string; token: string }

/** Options of {@link withBuildLock}. */
export interface BuildLockOptions {
  /** What the holder builds, for the waiting message (e.g. `the index of 1a2b3c4d5e6f`). */
  what: string;
  /** Longest wait for another holder (ms); default ISSUELOC_LOCK_WAIT seconds, else 10 min. */
  waitMs?: number;
  /** Where the waiting line goes (default stderr). */
  onWait?: (line: string) => void;
}

/**
 * The wait bound from ISSUELOC_LOCK_WAIT (seconds), else {@link DEFAULT_LOCK_WAIT_MS}.
 * @throws IssuelocError when the variable is set but not a number ≥ 0.
 */
export function lockWaitFromEnv(): number {
  const v = process.env.ISSUELOC_LOCK_WAIT;
  if (v === undefined || v === '') return DEFAULT_LOCK_WAIT_MS;
  const s = Number(v);
  if (!Number.isFinite(s) || s < 0) throw new IssuelocError(`ISSUELOC_LOCK_WAIT takes seconds (a number ≥ 0), got '${v}'`);
  return s * 1000;
}

/**
 * Runs `build` holding the build lock of folder `dir` (which must exist).
 * @throws CacheFolderNotWritable (an IssuelocError, exit 2) naming the folder when it cannot take the lock; IssuelocError naming the
 *   holder when the wait passes `waitMs`; whatever `build` throws.
 */
export async function withBuildLock<T>(dir: string, opts: BuildLockOptions, build: () => Promise<T>): Promise<T> {
  const waitMs = opts.waitMs ?? lockWaitFromEnv();
  const ownerFile = `${dir}.owner`;
  const parent = dirname(dir);
  const notWritable = (code: string) =>
    new CacheFolderNotWritable(`cache folder ${parent} is not writable (${code}): cannot build ${opts.what} there; use --cache-dir or ISSUELOC_CACHE_DIR`, code);
  try {
    accessSync(dir, constants.W_OK);
    accessSync(parent, constants.W_OK);
  } catch (e) {
    throw notWritable((e as NodeJS.ErrnoException).code ?? 'EACCES');
  }
  const deadline = Date.now() + waitMs;
  // node:crypto loaded here, when a build needs the lock: a call that finds its index loads none
  const { randomBytes } = await import('node:crypto');
  const me: Owner = { pid: process.pid, host: hostname(), what: opts.what, token: randomBytes(8).toString('hex') };
  let announced = false;
  let release: (() => Promise<void>) | undefined;
  for (;;) {
    const owner = readOwner(ownerFile);
    const local = owner !== undefined && owner.host === me.host;
    if (local && !processAlive(owner.pid)) {
      takeOver(dir, ownerFile, owner, randomBytes(4).toString('hex'));
      continue;
    }
    try {
      release = await (await properLockfile()).lock(dir, {
        realpath: false, update: 5_000, retries: 0, stale: local ? STALE_LIVE_MS : STALE_UNKNOWN_MS,
        // a broken lock costs a duplicate build at most (writes are atomic): go on
        onCompromised: () => {},
      });
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (cacheCannotTake(code)) throw notWritable(code);
      if (code !== 'ELOCKED') throw new IssuelocError(`cannot lock cache folder ${dir} (${code || (e as Error).message})`);
    }
    // a worker thread of this very process (serve --workers) holds the same pid
    const ours = local && owner.pid === process.pid;
    const holder = !owner ? 'in this cache' : ours ? owner.what : `${owner.what} (pid ${owner.pid}${local ? '' : ` on ${owner.host}`})`;
    const who = ours ? 'another thread of this process' : 'another issueloc process';
    if (Date.now() >= deadline) {
      throw new IssuelocError(`gave up after ${Math.round(waitMs / 1000)} s waiting for ${who} building ${holder} in ${dir}; ` +
        'set ISSUELOC_LOCK_WAIT (seconds) to wait longer');
    }
    if (!announced) {
      announced = true;
      (opts.onWait ?? ((l) => process.stderr.write(l)))(`issueloc: waiting for ${who} building ${holder}…\n`);
    }
    await sleep(Math.min(500, Math.max(0, deadline - Date.now())));
  }
  try {
    try { writeFileAtomic(ownerFile, [JSON.stringify(me)], { fsync: false }); } catch { /* waiters fall back to the refresh time */ }
    return await build();
  } finally {
    if (readOwner(ownerFile)?.token === me.token) rmSync(ownerFile, { force: true });
    await release().catch(() => { /* compromised meanwhile: nothing left to release */ });
  }
}

function readOwner(file: string): Owner | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Owner;
    return Number.isInteger(o.pid) && typeof o.host === 'string' && typeof o.what === 'string' ? o : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Breaks the lock of a dead holder: moves its owner file aside (one waiter wins that rename),
 * checks it moved the dead holder's (not a new holder's), then removes the lock folder. `nonce`: random
 * hex digits of the name it moves the owner file to.
 */
function takeOver(dir: string, ownerFile: string, dead: Owner, nonce: string): void {
  const aside = `${ownerFile}.dead-${process.pid}-${nonce}`;
  try {
    renameSync(ownerFile, aside);
  } catch {
    return; // another waiter took it over first
  }
  const moved = readOwner(aside);
  if (moved?.token !== dead.token) {
    try { renameSync(aside, ownerFile); } catch { /* the new holder's lock stays; its owner line is lost */ }
    return;
  }
  rmSync(aside, { force: true });
  try { rmdirSync(`${dir}.lock`); } catch { /* gone already */ }
}
