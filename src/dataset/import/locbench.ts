/**
 * Loc-Bench V1 JSONL (LocAgent, Chen et al. 2025) → dataset records. Loc-Bench gives its gold
 * directly: `edit_functions` (`path.py:Class.func`) and `edit_files` (their files); we keep them
 * as they are, so results compare with the published ones.
 */
import type { IssueCategory } from '../../issues/category.js';
import { modulesOf } from '../function-positives.js';
import type { DatasetRecord } from '../record.js';
import { countCandidates, benchmarkIssue, type ImportOptions, type ImportResult } from './common.js';
import { readRows, rowError, splitProblemStatement, stringField, stringListField } from './rows.js';

/**
 * Loc-Bench's `category` → issue category. Security vulnerabilities are reported and fixed as
 * defects (Bug); performance issues ask to improve existing behaviour (Improvement).
 */
export const LOCBENCH_CATEGORIES: ReadonlyMap<string, IssueCategory> = new Map<string, IssueCategory>([
  ['bug report', 'Bug'],
  ['feature request', 'New Feature'],
  ['performance issue', 'Improvement'],
  ['security vulnerability', 'Bug'],
]);

/**
 * Import Loc-Bench V1 JSONL (`instance_id`, `repo`, `base_commit`, `problem_statement`, `patch`,
 * `category`, `edit_functions`, `edit_files`, `patch_files`).
 *
 * Each record: issue title/body from the problem statement (Markdown), `type` = Loc-Bench's
 * `category`, category by {@link LOCBENCH_CATEGORIES} (overridable with `typeTable`);
 * `aprioriCommit` = `base_commit`; positives = `edit_files`; positive functions =
 * `edit_functions`; modules = their `path:TopLevelName`; `patch_files` go to provenance.
 * `changesTests` is left unset: Loc-Bench patches hold no test file (tests were split off). With a repository (`openRepo`) `candidates` counts the non-test
 * source files at the base commit; a base commit missing there drops the row with that reason.
 *
 * @throws IssuelocError for an unreadable file, a corrupt line or a row missing a field (named
 *   `file:line`; with `skipInvalid` listed in `invalid` instead).
 */
export async function importLocbench(path: string, options: ImportOptions = {}): Promise<ImportResult> {
  const { rows, invalid } = readRows(path, options.skipInvalid);
  const result: ImportResult = { records: [], dropped: [], invalid };
  const typeTable = options.typeTable ?? LOCBENCH_CATEGORIES;
  for (const [k, row] of rows.entries()) {
    options.progress?.(k, rows.length);
    let record: DatasetRecord;
    try {
      const id = stringField(row, 'instance_id');
      const { title, body } = splitProblemStatement(stringField(row, 'problem_statement'));
      const category = typeof row.value.category === 'string' ? row.value.category : '';
      const functions = stringListField(row, 'edit_functions');
      record = {
        issue: benchmarkIssue({ id, title, body, bodyFormat: 'markdown', type: category }, row.origin, { ...options, typeTable }),
        repo: stringField(row, 'repo'),
        commits: [],
        aprioriCommit: stringField(row, 'base_commit'),
        positives: stringListField(row, 'edit_files'),
        positiveFunctions: functions,
        positiveModules: modulesOf(functions),
        candidates: 0,
        variant: options.variant ?? 'locbench',
        provenance: {
          source: 'locbench',
          origin: row.origin,
          instanceId: id,
          patchFiles: stringListField(row, 'patch_files'),
        },
      };
    } catch (e) {
      const err = rowError(row, e);
      if (!options.skipInvalid) throw err;
      result.invalid.push(err.message);
      continue;
    }
    const repo = options.openRepo && record.repo ? await options.openRepo(record.repo) : null;
    if (repo) {
      try {
        await repo.resolveCommit(record.aprioriCommit);
      } catch {
        result.dropped.push({ id: record.issue.id, origin: row.origin, reason: 'base commit missing in repository', code: 'base-commit-missing' });
        continue;
      }
      record.candidates = await countCandidates(repo, record.aprioriCommit);
      record.provenance.repoPath = repo.path;
    }
    result.records.push(record);
  }
  options.progress?.(rows.length, rows.length);
  return result;
}
