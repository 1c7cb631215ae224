/**
 * The commit a hexadecimal revision names (a full SHA-1 or a prefix of 4 or more digits), read from
 * the git directory's files as `git rev-parse --verify REV^{commit}` would find it, without a git
 * process: the loose objects of `objects/XX/` and the pack indexes of `objects/pack/*.idx`
 * (version 2: a fan-out table, then the sorted object ids, their CRCs and pack offsets), and the
 * object's type from its packed entry's first byte or its loose header.
 *
 * Only an answer git would give too is returned: exactly one object holds the prefix, it is a
 * commit (not a tag to peel, not a deltified entry whose type its base holds), and for a prefix
 * no ref of that name exists (git takes a ref named `abc1234` before an object id:
 * `refs/`, `refs/tags/`, `refs/heads/`, `refs/remotes/`, `refs/remotes/…/HEAD`, or a file of
 * the git directory). Replacement objects (`refs/replace/`) change no answer: every git
 * issueloc runs reads the original objects (`GIT_NO_REPLACE_OBJECTS`, ./git-process.ts). Anything less plain gives undefined and
 * the caller asks git: a linked work tree (`commondir`), other object stores
 * (`objects/info/alternates`), the reftable format, a config with extensions (SHA-256), a version-1 index, an
 * ambiguous prefix, an object in no file (a commit gone after a history rewrite is then refused by
 * git), a file that cannot be read. Read afresh on every call: the answer is the object store's
 * state now. Only what a file says is remembered between calls (a warm service asks for the same
 * SHA at every request): the ids found in a pack index, the type of a packed entry, whether the
 * config has extensions, each kept while its file is the same file (`rememberedOfFile`: git writes
 * a pack and its index once, under names of their content, and a config anew), so a repeated
 * look-up costs one `stat` per file instead of a binary search in reads.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { rememberedOfFile } from './file-identity.js';
import { packedRefIds } from './packed-refs.js';

/** A revision this module may answer: a SHA-1 or a prefix of one (git's shortest is 4 digits), lower case. */
const HEX_REVISION = /^[0-9a-f]{4,40}$/;
/** Config sections that change how objects or refs are stored (`extensions.objectFormat`, `refStorage`). */
const STORE_CONFIG = /\[\s*extensions\b/i;
/** The magic and version of a pack index of version 2. */
const IDX_V2 = Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]);
/** A pack entry's type bits (byte 0, bits 4-6) for a commit. */
const PACKED_COMMIT = 1;
/** Bytes of a SHA-1 object id. */
const ID_BYTES = 20;

/**
 * The full id of the commit that the hexadecimal `rev` names in the git directory `gitDir`, or
 * undefined when git must answer (see the file comment).
 */
export function commitOfHexRevision(gitDir: string, rev: string): string | undefined {
  if (!HEX_REVISION.test(rev)) return undefined;
  try {
    if (!plainObjectStore(gitDir, rev.length < 2 * ID_BYTES ? rev : undefined)) return undefined;
    const found = new Map<string, () => boolean>();
    for (const id of looseIds(gitDir, rev)) found.set(id, () => looseIsCommit(gitDir, id));
    const packDir = join(gitDir, 'objects', 'pack');
    const packs = existsSync(packDir) ? readdirSync(packDir).filter((f) => f.endsWith('.idx')) : [];
    for (const idx of packs) {
      for (const hit of rememberedOfFile(join(packDir, idx), rev, packedIds)) {
        if (!found.has(hit.id)) found.set(hit.id, () => rememberedOfFile(join(packDir, `${idx.slice(0, -4)}.pack`), hit.offset, packedIsCommit));
      }
      if (found.size > 1) return undefined;
    }
    if (found.size !== 1) return undefined;
    const [[id, isCommit]] = found;
    return isCommit() ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `gitDir` keeps its objects and refs where this module reads them and, when `name` is
 * given, holds no ref git would take for `name` before an object id (loose or packed).
 */
function plainObjectStore(gitDir: string, name: string | undefined): boolean {
  const refs = name === undefined ? [] : [`refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`, `refs/remotes/${name}/HEAD`];
  const paths = ['commondir', 'reftable', 'objects/info/alternates', ...(name === undefined ? [] : [name, ...refs])];
  if (paths.some((f) => existsSync(join(gitDir, f)))) return false;
  const config = join(gitDir, 'config');
  if (existsSync(config) && rememberedOfFile(config, 'extensions', (f) => STORE_CONFIG.test(readFileSync(f, 'utf8')))) return false;
  if (refs.length === 0) return true;
  const packed = packedRefIds(gitDir, refs);
  return packed !== 'unknown' && packed.size === 0;
}

/** The loose objects whose ids start with `prefix` (`objects/XX/` file names). */
function looseIds(gitDir: string, prefix: string): string[] {
  const dir = join(gitDir, 'objects', prefix.slice(0, 2));
  if (!existsSync(dir)) return [];
  const rest = prefix.slice(2);
  return readdirSync(dir).filter((f) => f.length === 2 * ID_BYTES - 2 && f.startsWith(rest) && /^[0-9a-f]+$/.test(f)).map((f) => prefix.slice(0, 2) + f);
}

/** Whether the loose object `id` is a commit: its inflated header starts `commit `. */
function looseIsCommit(gitDir: string, id: string): boolean {
  const bytes = readFileSync(join(gitDir, 'objects', id.slice(0, 2), id.slice(2)));
  const head = inflateSync(bytes.subarray(0, 64), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  return head.toString('latin1', 0, 7) === 'commit ';
}

/** Reads `length` bytes of the open file `fd` at `position`, all of them or throws. */
function readAt(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.alloc(length);
  if (readSync(fd, buf, 0, length, position) !== length) throw new Error('short read');
  return buf;
}

/**
 * The objects of the version-2 pack index `file` whose ids start with `prefix` (at most 2: more
 * is ambiguous as 2 is), with their pack offsets; a binary search within the fan-out's range of
 * the first byte, reading one id at a time.
 * @throws for another index version or a cut file.
 */
function packedIds(file: string, prefix: string): { id: string; offset: number }[] {
  const fd = openSync(file, 'r');
  try {
    if (!readAt(fd, 8, 0).equals(IDX_V2)) throw new Error('not a version-2 pack index');
    const first = parseInt(prefix.slice(0, 2), 16);
    const fan = readAt(fd, 8, 8 + 4 * (first - 1 < 0 ? 0 : first - 1));
    const lo0 = first === 0 ? 0 : fan.readUInt32BE(0);
    const hi0 = first === 0 ? fan.readUInt32BE(0) : fan.readUInt32BE(4);
    const count = readAt(fd, 4, 8 + 4 * 255).readUInt32BE(0);
    const ids = 8 + 4 * 256;
    const idAt = (i: number) => readAt(fd, ID_BYTES, ids + ID_BYTES * i).toString('hex');
    // the first id not below the prefix
    let lo = lo0, hi = hi0;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (idAt(mid) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: { id: string; offset: number }[] = [];
    for (let i = lo; i < hi0 && out.length < 2; i++) {
      const id = idAt(i);
      if (!id.startsWith(prefix)) break;
      const small = readAt(fd, 4, ids + (ID_BYTES + 4) * count + 4 * i).readUInt32BE(0);
      const offset = small < 0x80000000 ? small
        : Number(readAt(fd, 8, ids + (ID_BYTES + 8) * count + 8 * (small & 0x7fffffff)).readBigUInt64BE(0));
      out.push({ id, offset });
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** Whether the entry at `offset` of the pack `file` is a commit (a whole one: a delta's type is its base's, left to git). */
function packedIsCommit(file: string, offset: number): boolean {
  const fd = openSync(file, 'r');
  try {
    return ((readAt(fd, 1, offset)[0] >> 4) & 7) === PACKED_COMMIT;
  } finally {
    closeSync(fd);
  }
}
