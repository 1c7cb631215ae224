/**
 * The object id a ref name such as `main`, `v1.2`, `origin/main` or `refs/heads/main` names, read
 * from the git directory's files as `git rev-parse` would find it, without a git process. git
 * tries, in this order, `NAME`, `refs/NAME`, `refs/tags/NAME`, `refs/heads/NAME`,
 * `refs/remotes/NAME`, `refs/remotes/NAME/HEAD` (gitrevisions(7)) and takes the first that
 * exists; each is a loose ref file (an object id, or `ref: OTHER`, a symbolic ref followed to its
 * end) or else a line of `packed-refs` (read by `packedRefIdsKept`: parsed once while the file stays the
 * same).
 *
 * Only an answer git would give too is returned; anything less plain gives undefined and the
 * caller asks git: a name with revision syntax (`~`, `^`, `@{`, `:`) or that git would not take as
 * a ref name, a file of that name in the git directory itself (`FETCH_HEAD`, `ORIG_HEAD`), a linked
 * work tree (`commondir`), the reftable format, a config with extensions, a loose ref that is a
 * symbolic link or holds anything but an id or a symbolic ref, a malformed packed line, a symbolic ref
 * chain longer than {@link MAX_SYMREF_DEPTH} or ending nowhere, a file that cannot be read. Loose
 * refs are read afresh on every call and `packed-refs` is checked (stat) on every call, so the
 * answer is the repository's refs now, never a remembered one.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedRefIdsKept } from './packed-refs.js';

/** A full object id (SHA-1 or SHA-256). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/**
 * A ref name git takes as one (git-check-ref-format(1)), in plain characters only: no `..`, no
 * component starting with `.` or ending with `.lock`, no `//`, no trailing `/` or `.`, no `@{`.
 */
const REF_NAME = /^(?!.*\.\.)(?!.*\/\/)(?!.*@\{)(?!.*\/\.)(?!\.)(?!.*\.lock(?:\/|$))(?!.*[/.]$)[A-Za-z0-9._/@+-]+$/;
/** Config sections that change how refs or objects are stored (`extensions.refStorage`, `objectFormat`). */
const STORE_CONFIG = /\[\s*extensions\b/i;
/** Symbolic refs followed at most (git's own bound is 5). */
export const MAX_SYMREF_DEPTH = 5;

/**
 * The object id (not peeled: an annotated tag's own id) the ref name `name` names in the git
 * directory `gitDir`; null when no ref of that name exists (git then reads `name` as an object
 * id prefix, or refuses it); undefined when git must answer (see the file comment).
 */
export function refIdOf(gitDir: string, name: string): string | null | undefined {
  // a full object id is an object id to git, whatever refs exist
  if (!REF_NAME.test(name) || OBJECT_ID.test(name) || name === '@' || name === 'HEAD') return undefined;
  try {
    if (!plainRefStore(gitDir)) return undefined;
    // `NAME` itself outside refs/ is a file of the git directory (HEAD, FETCH_HEAD): left to git
    if (!name.startsWith('refs/') && existsSync(join(gitDir, name))) return undefined;
    const candidates = [...(name.startsWith('refs/') ? [name] : []), `refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`, `refs/remotes/${name}/HEAD`];
    let packed: Map<string, string | undefined> | undefined;
    for (const ref of candidates) {
      const loose = looseRef(gitDir, ref);
      if (loose === undefined) return undefined;
      if (loose !== null) return followed(gitDir, loose, 0);
      packed ??= packedOrUndefined(gitDir, candidates);
      if (packed === undefined) return undefined;
      if (packed.has(ref)) return packed.get(ref) ?? undefined;
    }
    return null;
  } catch {
    return undefined;
  }
}

/** What a loose ref file holds: `{ id }`, `{ target }` (symbolic), null when there is no file; undefined when git must answer. */
function looseRef(gitDir: string, ref: string): { id: string } | { target: string } | null | undefined {
  const file = join(gitDir, ref);
  let text: string;
  try {
    const stat = lstatSync(file);
    // a folder where the ref would be: git looks in packed-refs, as for no file
    if (stat.isDirectory()) return null;
    // a symbolic link (git's old symbolic refs), a FIFO, a device: left to git
    if (!stat.isFile()) return undefined;
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : undefined;
  }
  const line = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (OBJECT_ID.test(line)) return { id: line };
  const target = /^ref: (refs\/\S+)$/.exec(line)?.[1];
  return target !== undefined && REF_NAME.test(target) ? { target } : undefined;
}

/** The id a loose ref's content names, following a symbolic ref (a full name, no rules) to its end. */
function followed(gitDir: string, ref: { id: string } | { target: string }, depth: number): string | undefined {
  if ('id' in ref) return ref.id;
  if (depth >= MAX_SYMREF_DEPTH) return undefined;
  const loose = looseRef(gitDir, ref.target);
  if (loose === undefined) return undefined;
  if (loose !== null) return followed(gitDir, loose, depth + 1);
  const packed = packedOrUndefined(gitDir, [ref.target]);
  // a symbolic ref to no ref (dangling): git warns and goes on to the next rule; left to git
  return packed?.get(ref.target) ?? undefined;
}

const packedOrUndefined = (gitDir: string, refs: string[]) => {
  const packed = packedRefIdsKept(gitDir, refs);
  return packed === 'unknown' ? undefined : packed;
};

/** Whether `gitDir` keeps its refs in loose files and `packed-refs` (not a linked work tree, not reftable, no extensions). */
function plainRefStore(gitDir: string): boolean {
  if (existsSync(join(gitDir, 'commondir')) || existsSync(join(gitDir, 'reftable'))) return false;
  const config = join(gitDir, 'config');
  return !(existsSync(config) && STORE_CONFIG.test(readFileSync(config, 'utf8')));
}
