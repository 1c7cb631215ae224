/**
 * Function-level positives of mined dataset records (issue section 7, SweLoc style: SweRank's
 * training set takes the functions a fixing PR modifies, from PRs that also change tests).
 */
import type { GitRepo } from '../repo/git.js';
import { decodeSource } from '../corpus/decode.js';
import { extractUnits } from '../corpus/extract.js';
import { splitItemId } from '../corpus/names.js';
import type { UnitExtractor } from './function-positives.js';
import { goldForCommit } from './gold.js';
import type { DatasetRecord } from './record.js';

/** Options of {@link addFunctionPositives}. */
export interface RecordFunctionOptions {
  /** Code-unit extractor (default: the corpus extractor). */
  extract?: UnitExtractor;
  /** Keep only records whose commits also change a test file (`changesTests`), as SweLoc does. */
  onlyChangingTests?: boolean;
  /** Called after each record with (done, total). */
  progress?: (done: number, total: number) => void;
}

/** Records with function positives, and counts for the build report. */
export interface RecordFunctionResult {
  records: DatasetRecord[];
  /** Records left out by `onlyChangingTests`. */
  droppedNoTestChange: number;
  /** Records kept whose commits edit no existing function of their positive files. */
  withoutFunctions: number;
  /** Commits some of whose file diffs git could not produce (missing blobs). */
  unreadableCommits: string[];
}

/** Ids of the function units of `path` at `commit` (empty when the file or its blob is missing). */
async function functionIdsAt(repo: GitRepo, commit: string, path: string, extract: UnitExtractor): Promise<Set<string>> {
  const obj = await repo.readFileAt(commit, path);
  if (!obj || obj.type !== 'blob') return new Set();
  const units = await extract(path, decodeSource(obj.data));
  return new Set(units.filter((u) => u.kind === 'function').map((u) => `${path}:${u.qualifiedName}`));
}

/**
 * Fill `positiveFunctions` and `positiveModules` of mined records.
 *
 * For each of a record's commits, the functions it edits against its first parent
 * ({@link goldForCommit}: a removed line in the old span or an added line in the new span of an
 * existing function) are gathered, kept when their file is one of the record's positive files
 * and the function exists at the record's a-priori state (a later commit may edit a function an
 * earlier one added), in commit order, each once. Records are copied, not changed in place.
 *
 * @param repo the repository the records were mined from.
 * @param records mined records (`commits` and `aprioriCommit` full SHAs of `repo`).
 * @throws IssuelocError when a record's commit is not in `repo`.
 */
export async function addFunctionPositives(
  repo: GitRepo,
  records: readonly DatasetRecord[],
  options: RecordFunctionOptions = {},
): Promise<RecordFunctionResult> {
  const extract = options.extract ?? extractUnits;
  const out: RecordFunctionResult = { records: [], droppedNoTestChange: 0, withoutFunctions: 0, unreadableCommits: [] };
  let done = 0;
  for (const record of records) {
    if (options.onlyChangingTests && !record.changesTests) {
      out.droppedNoTestChange++;
    } else {
      const positives = new Set(record.positives);
      const functions: string[] = [];
      const modules: string[] = [];
      const seen = new Set<string>();
      const existing = new Map<string, Set<string>>(); // path -> function ids at the a-priori state
      for (const commit of record.commits) {
        const gold = await goldForCommit(repo, commit, { extract });
        if (gold.unreadable.length > 0) out.unreadableCommits.push(commit);
        for (const [k, id] of gold.functions.entries()) {
          const { path } = splitItemId(id);
          if (!positives.has(path) || seen.has(id)) continue;
          if (gold.parent !== record.aprioriCommit) {
            let ids = existing.get(path);
            if (!ids) {
              ids = await functionIdsAt(repo, record.aprioriCommit, path, extract);
              existing.set(path, ids);
            }
            if (!ids.has(id)) continue;
          }
          seen.add(id);
          functions.push(id);
          modules.push(gold.functionModules[k]);
        }
      }
      if (functions.length === 0) out.withoutFunctions++;
      out.records.push({ ...record, positiveFunctions: functions, positiveModules: [...new Set(modules)] });
    }
    options.progress?.(++done, records.length);
  }
  return out;
}
