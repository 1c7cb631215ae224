/**
 * What the training-set importers (Denchmark, SWE-bench dev, …) share: records made from a fixing
 * commit or a patch at a base commit, under the one gold rule (docs/benchmark-gold.md): base =
 * the fix's first parent, gold files = the changed non-test source files that exist at the base,
 * gold functions = the existing functions of those files the change edits (`src/dataset/gold.ts`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../errors.js';
import type { GitRepo } from '../../repo/git.js';
import { goldForCommit, goldForPatch } from '../gold.js';
import { candidateFileFilter } from '../source-files.js';
import type { DatasetRecord } from '../record.js';
import type { UnitExtractor } from '../function-positives.js';
import { countCandidatePaths, type DroppedSample } from './common.js';

/** The code-unit extractor option (default: the corpus extractor). */
export interface UnitExtractorOption {
  extract?: UnitExtractor;
}

/** A row that gave no record: its drop code and words (thrown inside an importer, caught per row). */
export class RowDrop extends Error {
  constructor(readonly code: string, reason: string) {
    super(reason);
  }
}

/** `a\b\c.py` → `a/b/c.py` (Denchmark writes Windows separators). */
export function posixPath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\/+/, '');
}

/**
 * Gold of a fixing commit: the first parent is the base; positives = `changed` (base-side paths;
 * null = every path the commit modifies or removes) that are non-test source files and exist
 * at the base; functions = those files' edited functions by our span rules.
 * @throws RowDrop `fix-commit-missing`, `root-commit`, `no-positive`.
 */
export async function goldOfFix(
  repo: GitRepo,
  commit: string,
  changed: string[] | null,
  options: UnitExtractorOption,
): Promise<Pick<DatasetRecord, 'commits' | 'aprioriCommit' | 'positives' | 'positiveFunctions' | 'positiveModules' | 'candidates' | 'changesTests'> & { unreadable: string[]; notAtBase: string[] }> {
  let sha: string;
  try {
    sha = await repo.resolveCommit(commit);
  } catch {
    throw new RowDrop('fix-commit-missing', `fix commit ${commit} is not in ${repo.path}`);
  }
  const parents = await repo.exec(['rev-parse', '--verify', '--quiet', `${sha}^1`]);
  if (parents.code !== 0) throw new RowDrop('root-commit', `fix commit ${sha} has no parent`);
  const base = parents.stdout.toString('utf8').trim();
  const tree = new Set(await repo.listPaths(base));
  const gold = await goldForCommit(repo, sha, { extract: options.extract });
  const named = changed ?? gold.files;
  const isSource = candidateFileFilter(false);
  const positives = [...new Set(named.filter((p) => isSource(p) && tree.has(p)))];
  const notAtBase = named.filter((p) => isSource(p) && !tree.has(p));
  if (positives.length === 0) throw new RowDrop('no-positive', 'no changed non-test source file exists at the base');
  const keep = new Set(positives);
  const inKept = (id: string): boolean => keep.has(id.slice(0, id.lastIndexOf(':')));
  return {
    commits: [sha],
    aprioriCommit: base,
    positives,
    positiveFunctions: gold.functions.filter(inKept),
    positiveModules: gold.modules.filter(inKept),
    candidates: countCandidatePaths(tree),
    changesTests: gold.changesTests,
    unreadable: gold.unreadable,
    notAtBase,
  };
}

/**
 * Gold of a patch at a known base: positives = the patch's non-test source files that exist at
 * the base; functions by {@link goldForPatch}.
 * @throws RowDrop `no-positive`.
 */
export async function goldOfPatch(
  repo: GitRepo,
  base: string,
  patch: string,
  options: UnitExtractorOption,
): Promise<Pick<DatasetRecord, 'positives' | 'positiveFunctions' | 'positiveModules' | 'candidates'>> {
  const tree = new Set(await repo.listPaths(base));
  const gold = await goldForPatch(repo, base, patch, { extract: options.extract });
  const isSource = candidateFileFilter(false);
  const positives = [...new Set(gold.files.filter((p) => isSource(p) && tree.has(p)))];
  if (positives.length === 0) throw new RowDrop('no-positive', 'no changed non-test source file exists at the base');
  const keep = new Set(positives);
  const inKept = (id: string): boolean => keep.has(id.slice(0, id.lastIndexOf(':')));
  return {
    positives,
    positiveFunctions: gold.functions.filter(inKept),
    positiveModules: gold.modules.filter(inKept),
    candidates: countCandidatePaths(tree),
  };
}

/**
 * The sub-folders of `dir` (sorted), for sets stored one folder per repository.
 * @throws IssuelocError `cannot read <dir>: …` when it is missing or not a folder.
 */
export function subfolders(dir: string): string[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
    names = readdirSync(dir);
  } catch (e) {
    throw new IssuelocError(`cannot read ${dir}: ${(e as Error).message}`);
  }
  return names.filter((n) => statSync(join(dir, n)).isDirectory()).sort();
}

/** The plain files of `dir` (sorted); [] when it cannot be read. */
export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name).sort();
  } catch {
    return [];
  }
}

/** A text file, or null when it is missing. */
export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A dropped row as the importers record it. */
export function dropOf(id: string, origin: string, e: RowDrop): DroppedSample {
  return { id, origin, reason: e.message, code: e.code };
}
