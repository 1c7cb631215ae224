/**
 * Gold items (files, modules, functions) of a patch or a commit at the repository's a-priori
 * state, for benchmarks and for function-level positives of mined datasets (SweLoc style).
 * The rules are those of the reference evaluator ref_eval.py (SweRank / LocAgent protocol,
 * docs/benchmark-gold.md).
 */
import { IssuelocError } from '../errors.js';
import type { GitRepo } from '../repo/git.js';
import { decodeSource } from '../corpus/decode.js';
import { extractUnits } from '../corpus/extract.js';
import { editedFunctionsOfFile, type EditedFunction, type UnitExtractor } from './function-positives.js';
import { parsePatch } from './patch.js';
import { isTestPath } from '../corpus/languages.js';
import { touchesTests } from './source-files.js';

/** Gold items of one change. */
export interface Gold {
  /** Every file the patch has a text diff for: base-side path, new path for added files. */
  files: string[];
  /** `path:TopLevelName` of each gold function, first occurrence kept. */
  modules: string[];
  /** `path:Qualified.name` of each existing function the change edits, per file in base order. */
  functions: string[];
  /** The module of each of `functions` (same order). */
  functionModules: string[];
}

/** Options of {@link goldForPatch}. */
export interface GoldOptions {
  /** Code-unit extractor (default: the corpus extractor `extractUnits`). */
  extract?: UnitExtractor;
  /** Leave functions of test files out (default false, as ref_eval). */
  skipTestFunctions?: boolean;
  /** Blank removed/added lines edit no function (default false, as ref_eval; true matches Loc-Bench). */
  ignoreBlankLines?: boolean;
}

/**
 * Gold files, modules and functions of a unified diff applied to `baseCommit`.
 *
 * For each file of the patch that exists at the base commit, its blob is decoded like corpus
 * files (`decodeSource`), the hunks are applied as GNU `patch` would, and the functions whose
 * old-side lines are removed or whose patched span receives an added line are gold
 * (`editedFunctionsOfFile`). Files missing at the base (added by the patch) or whose blob is
 * absent from the object store give no functions but stay gold files.
 *
 * @param repo the repository.
 * @param baseCommit the a-priori state (a full SHA or any revision).
 * @param patch the unified diff (SWE-bench `patch`, `git diff` output).
 * @throws IssuelocError for an unknown base commit or a malformed patch.
 */
export async function goldForPatch(repo: GitRepo, baseCommit: string, patch: string, options: GoldOptions = {}): Promise<Gold> {
  const extract = options.extract ?? extractUnits;
  const files = parsePatch(patch);
  const edited: EditedFunction[] = [];
  for (const file of files) {
    if (file.oldPath === null) continue; // added: no existing function
    if (options.skipTestFunctions && isTestPath(file.path)) continue;
    const obj = await repo.readFileAt(baseCommit, file.path);
    if (!obj || obj.type !== 'blob') continue;
    edited.push(...(await editedFunctionsOfFile(file, decodeSource(obj.data), extract, options)));
  }
  const functionModules = edited.map((f) => f.module);
  return { files: files.map((f) => f.path), modules: [...new Set(functionModules)], functions: edited.map((f) => f.id), functionModules };
}

/** Gold items of a commit, plus whether it changes tests. */
export interface CommitGold extends Gold {
  /** The first parent the commit is compared with (the empty tree's SHA for a root commit). */
  parent: string;
  /** Whether the commit changes (modifies, adds or removes) a test file. */
  changesTests: boolean;
  /** Files whose diff git could not produce (blob missing from the object store). */
  unreadable: string[];
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * Gold items of one commit against its first parent (SweLoc-style function positives for mined
 * datasets): the commit's `git diff --no-renames` goes through {@link goldForPatch} at the parent.
 * A file whose diff git cannot produce because a blob is missing (partial clones, fetched
 * snapshots) is listed in `unreadable` and skipped, never a crash.
 *
 * @param commit a commit SHA or revision.
 * @throws IssuelocError for an unknown commit.
 */
export async function goldForCommit(repo: GitRepo, commit: string, options: GoldOptions = {}): Promise<CommitGold> {
  const sha = await repo.resolveCommit(commit);
  const parents = await repo.exec(['rev-parse', '--verify', '--quiet', `${sha}^1`]);
  const parent = parents.code === 0 ? parents.stdout.toString('utf8').trim() : EMPTY_TREE;
  const names = await repo.exec(['diff', '--no-renames', '--name-only', '-z', parent, sha]);
  if (names.code !== 0) throw new IssuelocError(`cannot list the files of commit ${sha} in ${repo.path}`);
  const paths = names.stdout.toString('utf8').split('\0').filter(Boolean);
  const diffArgs = ['diff', '--no-renames', '--no-ext-diff', '--no-textconv', '--no-color', '-U3', parent, sha];
  const unreadable: string[] = [];
  let patch: string;
  const whole = await repo.exec(diffArgs);
  if (whole.code === 0) patch = whole.stdout.toString('utf8');
  else {
    // a missing blob kills the whole diff: diff file by file and skip the unreadable ones
    const parts: string[] = [];
    for (const p of paths) {
      const one = await repo.exec([...diffArgs, '--', p]);
      if (one.code === 0) parts.push(one.stdout.toString('utf8'));
      else unreadable.push(p);
    }
    patch = parts.join('');
  }
  const gold = await goldForPatch(repo, parent, patch, options);
  return { ...gold, parent, changesTests: touchesTests(paths), unreadable };
}
