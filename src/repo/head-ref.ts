/**
 * The commit `HEAD` names, read from the git directory's files as git itself would (no git
 * process): `HEAD` holds an object id (detached) or `ref: refs/heads/NAME`, whose id is in the
 * loose ref file `refs/heads/NAME` or else in `packed-refs`. Anything less plain (a linked work
 * tree's `commondir`, the reftable format, a symbolic ref to a symbolic ref, an unborn branch, a
 * file that cannot be read) gives undefined: the caller asks git. Read afresh on every call, so
 * the answer is the repository's state now, never a remembered one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
    return packedRef(join(gitDir, 'packed-refs'), ref);
  } catch {
    return undefined;
  }
}

/**
 * The id of `ref` in a packed-refs file (`<id> <ref>` lines; the first such line), or undefined.
 * The bytes are searched as they are (a mirror's packed-refs can hold megabytes of pull-request
 * refs), not decoded line by line.
 */
function packedRef(file: string, ref: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const buf = readFileSync(file);
  const needle = Buffer.from(` ${ref}`, 'utf8');
  for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + 1)) {
    // the ref ends the line (trailing blanks aside) and the line starts with the id alone
    let end = at + needle.length;
    while (end < buf.length && (buf[end] === 0x20 || buf[end] === 0x09 || buf[end] === 0x0d)) end++;
    if (end < buf.length && buf[end] !== 0x0a) continue;
    const id = buf.toString('latin1', buf.lastIndexOf(0x0a, at) + 1, at);
    if (id.includes(' ') || id.startsWith('#') || id.startsWith('^')) continue;
    return OBJECT_ID.test(id) ? id : undefined;
  }
  return undefined;
}
