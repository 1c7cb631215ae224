/**
 * The commit `HEAD` names, read from the git directory's files as git itself would (no git
 * process): `HEAD` holds an object id (detached) or `ref: refs/heads/NAME`, whose id is in the
 * loose ref file `refs/heads/NAME` or else in `packed-refs` (read by `packedRefIds`). Anything less plain (a linked work
 * tree's `commondir`, the reftable format, a symbolic ref to a symbolic ref, an unborn branch, a
 * file that cannot be read) gives undefined: the caller asks git. Read afresh on every call, so
 * the answer is the repository's state now, never a remembered one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedRefIds } from './packed-refs.js';

/** A full object id (SHA-1 or SHA-256). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** A branch name as git stores it under refs/heads (no `..`, no control characters, no leading dot). */
const BRANCH_REF = /^refs\/heads\/(?!.*\.\.)(?!.*\/\.)(?!\.)[^\0-\x20~^:?*[\\]+$/;

/** The object id `HEAD` of the git directory `gitDir` names, or undefined when git must answer. */
export function headCommitOf(gitDir: string): string | undefined {
  try {
    // a linked work tree's refs live in the common directory; reftable stores no loose refs
    if (existsSync(join(gitDir, 'commondir')) || existsSync(join(gitDir, 'reftable'))) return undefined;
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (OBJECT_ID.test(head)) return head;
    const ref = /^ref: (\S+)$/.exec(head)?.[1];
    if (!ref || !BRANCH_REF.test(ref)) return undefined;
    const loose = join(gitDir, ref);
    if (existsSync(loose)) {
      const id = readFileSync(loose, 'utf8').trim();
      return OBJECT_ID.test(id) ? id : undefined;
    }
    const packed = packedRefIds(gitDir, [ref]);
    return packed === 'unknown' ? undefined : packed.get(ref);
  } catch {
    return undefined;
  }
}
