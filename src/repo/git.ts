import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { IssuelocError } from '../errors.js';
import { CatFileBatch, type GitObject } from './cat-file.js';
import { gitFailure, gitReason, runGit, type GitResult } from './git-process.js';
import { plainRepoLayout } from './git-dir.js';
import { commitOfHexRevision } from './commit-id.js';
import { headCommitOf } from './head-ref.js';
import { refIdOf } from './named-ref.js';
import { checkRevision, LOCAL_REVISIONS, type RevisionRules } from './revision.js';
import { TreeFileLister, type TreeEntry, type TreeFile, type TreeListing } from './tree-objects.js';

export type { TreeEntry, TreeFile, TreeListing } from './tree-objects.js';
export type { GitObject } from './cat-file.js';

const HEX_PREFIX = /^[0-9a-f]{4,64}$/i;

/** A full object id (SHA-1 or SHA-256), as `git rev-parse --verify` prints one commit. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Default time `git rev-parse` may take in {@link GitRepo.resolveCommit} (a message search walks the history). */
export const REV_PARSE_TIMEOUT_MS = 30_000;

/** Options of {@link GitRepo.resolveCommit}. */
export interface ResolveOptions {
  /** Which revisions are taken (default {@link LOCAL_REVISIONS}: message searches allowed). */
  rules?: RevisionRules;
  /** Time each git call may take (default {@link REV_PARSE_TIMEOUT_MS}); past it git is killed. */
  timeoutMs?: number;
}

/** Annotated tags peeled in a row at most by {@link GitRepo.resolveCommit} before git is asked. */
const MAX_TAG_DEPTH = 10;

/** Blob sizes {@link GitRepo.listTree} keeps (about 100 bytes each). */
const MAX_KEPT_SIZES = 1_000_000;

/**
 * Read access to a git repository without a checkout: commits, trees and blobs at any commit.
 * Works on a clone with a work tree and on a bare repository alike; every command runs with
 * `--git-dir` and `-c core.quotepath=off`, blobs and trees come through one long-lived
 * `git cat-file --batch` process; parsed trees are kept, so listing many commits of one
 * repository reads each tree once (`./tree-objects.ts`).
 *
 * @example
 * const repo = await GitRepo.open('/src/requests');
 * const commit = await repo.resolveCommit('HEAD');
 * const { entries } = await repo.listTree(commit);
 * const text = (await repo.readBlob(entries[0].blob))?.toString('utf8');
 * await repo.close();
 */
export class GitRepo {
  private readonly batch: CatFileBatch;
  private readonly trees: TreeFileLister;
  /** Sizes of blobs seen by {@link listTree} (a blob id fixes its size). */
  private readonly blobSizes = new Map<string, number>();

  private constructor(
    /** The path the user gave (errors name it). */
    readonly path: string,
    /** Absolute git directory (`.git` of a clone, or the bare repository itself). */
    readonly gitDir: string,
    /** Absolute top of the work tree; null for a bare repository. */
    readonly workTree: string | null,
    readonly isBare: boolean,
    /** true for a shallow clone (history cut at some commits). */
    readonly isShallow: boolean,
  ) {
    this.batch = new CatFileBatch(gitDir, path);
    this.trees = new TreeFileLister((names) => this.batch.readAll(names), path);
  }

  /**
   * Opens the repository at `path` (a work tree, any folder inside one, or a bare repository):
   * the top of a plain clone or a plain bare repository is read from its files (./git-dir.ts),
   * anything else is asked of git.
   * @throws IssuelocError `not a git repository: <path>` when git finds none there (`… (no such folder)` when the path
   *   does not exist); git's reason is appended when it is not the usual one (e.g. ownership).
   */
  static async open(path: string): Promise<GitRepo> {
    // a plain clone or bare repository read from its files (no git process); git for anything else
    const plain = plainRepoLayout(path);
    if (plain) return new GitRepo(path, plain.gitDir, plain.workTree, plain.isBare, plain.isShallow);
    const dir = resolvePath(path);
    const res = await runGit(['-C', dir, 'rev-parse', '--absolute-git-dir', '--is-bare-repository', '--is-shallow-repository']);
    const lines = res.stdout.toString('utf8').split('\n');
    if (res.code !== 0 || lines.length < 3) {
      const reason = gitReason(res.stderr);
      if (!existsSync(dir)) throw new IssuelocError(`not a git repository: ${path} (no such folder)`);
      const extra = /not a git repository|cannot change to/i.test(reason) || reason === '' ? '' : ` (${reason})`;
      throw new IssuelocError(`not a git repository: ${path}${extra}`);
    }
    const [gitDir, bare, shallow] = lines;
    let workTree: string | null = null;
    if (bare !== 'true') {
      const top = await runGit(['-C', dir, 'rev-parse', '--show-toplevel']);
      if (top.code === 0) workTree = top.stdout.toString('utf8').trim() || null;
    }
    return new GitRepo(path, gitDir, workTree, bare === 'true', shallow === 'true');
  }

  /**
   * Runs `git --git-dir=<gitDir> <args>` on this repository (plumbing for other stages).
   * Never throws for a non-zero exit: read `code` and `stderr`.
   */
  exec(args: string[], timeoutMs?: number): Promise<GitResult> {
    return runGit([`--git-dir=${this.gitDir}`, ...args], { repo: this.path, timeoutMs });
  }

  /**
   * The full SHA of the commit that `rev` names (a SHA or prefix, branch, tag, `HEAD~3`, …).
   * Ranges (`^X`, `A..B`, `X^@` …) are refused before git runs, and so are message searches
   * (`:/text`) under `REMOTE_REVISIONS` (./revision.ts); each git call is killed past `timeoutMs`.
   * @throws IssuelocError naming `rev` and the repository: `unknown revision 'X' in <path>`;
   *   `revision 'X' is ambiguous in <path>: N objects start with it (give more digits)` for a
   *   hex prefix of several objects none of which git takes;
   *   `'X' is a tree, not a commit, in <path>`; for a commit absent from a shallow clone
   *   `commit X is not in <path> (shallow clone: fetch more history with git fetch --unshallow)`;
   *   `repository <path> has no commits yet` when it holds no ref at all (after `git init`);
   *   `<path> is gone: …` when its git folder was removed since {@link open}.
   */
  async resolveCommit(rev: string, options: ResolveOptions = {}): Promise<string> {
    checkRevision(rev, options.rules ?? LOCAL_REVISIONS, this.path);
    // HEAD, the default revision, read from the git directory's files when they are plain (no git process)
    if (rev === 'HEAD') {
      const head = headCommitOf(this.gitDir);
      if (head !== undefined) return head;
    }
    // a commit's SHA or prefix, found in the object store's files when they are plain (no git process)
    const byId = commitOfHexRevision(this.gitDir, rev);
    if (byId !== undefined) return byId;
    // a branch or tag name read from the ref files (no git process), peeled to its commit
    const refId = refIdOf(this.gitDir, rev);
    if (refId) {
      const commit = await this.peeledCommit(refId);
      if (commit !== undefined) return commit;
    }
    const timeoutMs = options.timeoutMs ?? REV_PARSE_TIMEOUT_MS;
    // one git process for a revision that names a commit (a branch, tag, SHA, HEAD~2); a revision
    // with a `:` (`:/text`, a commit message search; `REV:path`) would change meaning with `^{commit}`
    if (!rev.includes(':')) {
      const peeled = await this.exec(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], timeoutMs);
      const commit = peeled.stdout.toString('utf8').trim();
      if (peeled.code === 0 && OBJECT_ID.test(commit)) return commit;
    }
    // resolved first, then peeled: `REV^{commit}` would break `:/text` revisions (a commit message search)
    const any = await this.exec(['rev-parse', '--verify', '--quiet', '--end-of-options', rev], timeoutMs);
    const sha = any.stdout.toString('utf8').trim();
    if (any.code === 0 && OBJECT_ID.test(sha)) {
      const ok = await this.exec(['rev-parse', '--verify', '--quiet', '--end-of-options', `${sha}^{commit}`], timeoutMs);
      if (ok.code === 0) return ok.stdout.toString('utf8').trim();
      const type = await this.exec(['cat-file', '-t', sha], timeoutMs);
      if (type.code === 0) {
        throw new IssuelocError(`'${rev}' is a ${type.stdout.toString('utf8').trim()}, not a commit, in ${this.path}`);
      }
      throw new IssuelocError(this.missingCommit(rev));
    }
    this.checkPresent();
    if (any.code === 0) throw new IssuelocError(`revision '${rev}' names no single commit in ${this.path}`);
    const refs = await this.exec(['for-each-ref', '--count=1', '--format=%(refname)'], timeoutMs);
    if (refs.code === 0 && refs.stdout.length === 0) throw new IssuelocError(`repository ${this.path} has no commits yet`);
    if (HEX_PREFIX.test(rev)) {
      // a prefix several commits share names none of them (git: ambiguous), which is no missing commit
      const all = await this.exec(['rev-parse', `--disambiguate=${rev.toLowerCase()}`], timeoutMs);
      const ids = all.code === 0 ? all.stdout.toString('utf8').split('\n').filter((l) => l !== '').length : 0;
      if (ids > 1) throw new IssuelocError(`revision '${rev}' is ambiguous in ${this.path}: ${ids} objects start with it (give more digits)`);
      throw new IssuelocError(this.missingCommit(rev));
    }
    throw new IssuelocError(`unknown revision '${rev}' in ${this.path}`);
  }

  /**
   * The commit the object `id` is or, an annotated tag, points to (through tags of tags): the
   * object store's files when they tell a commit (./commit-id.ts), else the objects read through
   * the running `git cat-file --batch`; undefined for anything else (a tree, a blob, a missing
   * object, a chain of more than {@link MAX_TAG_DEPTH} tags): the caller asks git.
   */
  private async peeledCommit(id: string): Promise<string | undefined> {
    let at = id;
    for (let depth = 0; depth <= MAX_TAG_DEPTH; depth++) {
      if (commitOfHexRevision(this.gitDir, at) === at) return at;
      const obj = await this.batch.read(at);
      if (obj === null || obj.sha !== at) return undefined;
      if (obj.type === 'commit') return at;
      if (obj.type !== 'tag') return undefined;
      const target = /^object ([0-9a-f]{40}|[0-9a-f]{64})\n/.exec(obj.data.toString('latin1', 0, 200))?.[1];
      if (target === undefined) return undefined;
      at = target;
    }
    return undefined;
  }

  /**
   * Whether the commit `sha` (a full id) is in the object store now (a commit removed by a
   * history rewrite and gc is gone): found in the object store's files read afresh
   * (./commit-id.ts, no git process), else one `git cat-file -e` (no revision syntax).
   * @throws IssuelocError `<path> is gone: …` when its git folder was removed.
   */
  async hasCommit(sha: string, timeoutMs = REV_PARSE_TIMEOUT_MS): Promise<boolean> {
    if (!OBJECT_ID.test(sha)) return false;
    if (commitOfHexRevision(this.gitDir, sha) === sha) return true;
    const res = await this.exec(['cat-file', '-e', `${sha}^{commit}`], timeoutMs);
    if (res.code !== 0) this.checkPresent();
    return res.code === 0;
  }

  /** @throws IssuelocError `<path> is gone: …` when the git folder no longer exists. */
  checkPresent(): void {
    if (!existsSync(this.gitDir)) throw new IssuelocError(`${this.path} is gone: the repository's folder was removed or moved`);
  }

  private missingCommit(rev: string): string {
    return this.isShallow
      ? `commit ${rev} is not in ${this.path} (shallow clone: fetch more history with git fetch --unshallow)`
      : `commit ${rev} is not in ${this.path}`;
  }

  /**
   * The regular files of `commit`'s tree as `git ls-tree -r --full-tree` lists them (same order),
   * with modes and blob ids; symlinks and submodules are left out and counted. Trees already
   * parsed by an earlier listing of this repository are not read again.
   * @param commit a commit SHA (see {@link resolveCommit}), any revision, a tag or a tree.
   * @throws IssuelocError `cannot list the files of <commit> in <path>: …` when it names no
   *   commit or tree, or a tree of it is missing from the object store.
   */
  listFiles(commit: string): Promise<TreeListing<TreeFile>> {
    return this.trees.list(commit);
  }

  /** The paths of {@link listFiles}, in its order. @throws IssuelocError as {@link listFiles}. */
  async listPaths(commit: string): Promise<string[]> {
    return (await this.trees.list(commit)).entries.map((e) => e.path);
  }

  /**
   * {@link listFiles} with each file's size, as `git ls-tree -l` gives them: -1 for a blob
   * missing from the object store. Sizes not known from an earlier listing are read with one
   * `git cat-file --batch-check`.
   * @throws IssuelocError as {@link listFiles}, or when git cannot read the sizes.
   */
  async listTree(commit: string): Promise<TreeListing> {
    const { entries, skipped } = await this.trees.list(commit);
    const sizes = new Map<string, number>();
    for (const { blob } of entries) sizes.set(blob, this.blobSizes.get(blob) ?? -1);
    const unknown = [...sizes.keys()].filter((b) => sizes.get(b) === -1);
    const read = await this.objectSizes(unknown);
    if (this.blobSizes.size + unknown.length > MAX_KEPT_SIZES) this.blobSizes.clear();
    unknown.forEach((b, k) => {
      sizes.set(b, read[k]);
      if (read[k] >= 0) this.blobSizes.set(b, read[k]); // a missing blob may be fetched later
    });
    return { entries: entries.map((e): TreeEntry => ({ path: e.path, mode: e.mode, blob: e.blob, size: sizes.get(e.blob) as number })), skipped };
  }

  /** Tree objects parsed by this repository's listings so far (for reports). */
  get parsedTrees(): number {
    return this.trees.parsedTrees;
  }

  /** Sizes in bytes of the objects `shas`, in order; -1 for one missing from the object store. */
  private async objectSizes(shas: readonly string[]): Promise<number[]> {
    if (shas.length === 0) return [];
    const args = [`--git-dir=${this.gitDir}`, 'cat-file', '--batch-check=%(objectsize)', '--buffer'];
    const res = await runGit(args, { repo: this.path, input: `${shas.join('\n')}\n` });
    if (res.code !== 0) throw gitFailure(args, res, { repo: this.path });
    const lines = res.stdout.toString('latin1').split('\n');
    // one line per name: the size, or `<name> missing`
    return shas.map((_, k) => (/^\d+$/.test(lines[k]) ? Number(lines[k]) : -1));
  }

  /**
   * The content of blob `sha`, or null when the object store lacks it (fetched snapshots lack
   * blobs of 4 MiB or more) or it is not a blob.
   * @throws IssuelocError when the `git cat-file --batch` process stops unexpectedly.
   */
  async readBlob(sha: string): Promise<Buffer | null> {
    const obj = await this.batch.read(sha);
    return obj && obj.type === 'blob' ? obj.data : null;
  }

  /**
   * Contents of many blobs, pipelined through the same `git cat-file --batch` process (many
   * requests written before the first answer is read). Yields `[sha, content | null]` in the
   * order of `shas`; null as in {@link readBlob}.
   */
  async *readBlobs(shas: readonly string[]): AsyncGenerator<[string, Buffer | null]> {
    for await (const [sha, obj] of this.batch.readMany(shas)) {
      yield [sha, obj && obj.type === 'blob' ? obj.data : null];
    }
  }

  /**
   * Any object by name (`<sha>`, `HEAD:path`, …) with its type, or null when missing. Names are
   * sent to `git cat-file --batch` one per line: for a path read {@link readFileAt}, which takes
   * any path.
   * @throws IssuelocError for a name holding a newline, or when the cat-file process stops.
   */
  async readObject(name: string): Promise<GitObject | null> {
    return this.batch.read(name);
  }

  /**
   * The object at `path` in the tree of `commit` (a blob for a file), or null when the tree has
   * no such path or the object is missing. Any path works, newlines included: such a path is
   * resolved to its object id by `git rev-parse` (an argument, not a line) and the id is read.
   * @param commit a commit SHA or revision.
   * @param path `/`-separated, from the repository root, as git stores it.
   * @throws IssuelocError when the cat-file process stops unexpectedly.
   */
  async readFileAt(commit: string, path: string): Promise<GitObject | null> {
    if (!path.includes('\n')) return this.batch.read(`${commit}:${path}`);
    const res = await this.exec(['rev-parse', '--verify', '--quiet', '--end-of-options', `${commit}:${path}`]);
    if (res.code !== 0) return null;
    return this.batch.read(res.stdout.toString('utf8').trim());
  }

  /**
   * Stops the `git cat-file` process. Reads already asked are still answered.
   * @returns a promise settled when git has exited (awaiting it is optional).
   */
  close(): Promise<void> {
    return this.batch.close();
  }
}
