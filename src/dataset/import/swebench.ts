/**
 * SWE-bench (Lite) JSONL → dataset records, by the SweRank / LocAgent protocol written down in
 * the reference evaluator ref_eval.py (docs/benchmark-gold.md): positives = the files of the gold patch, positive functions = the
 * existing functions the gold patch edits, and instances whose patch edits no existing function
 * are dropped (274 of SWE-bench Lite's 300 remain).
 */
import { goldForPatch } from '../gold.js';
import { readPatch } from '../patch.js';
import type { DatasetRecord } from '../record.js';
import { countCandidates, benchmarkIssue, type ImportOptions, type ImportResult } from './common.js';
import { readRows, rowError, splitProblemStatement, stringField, type Row } from './rows.js';

/** Options of {@link importSwebench}. */
export interface SwebenchImportOptions extends ImportOptions {
  /** Keep instances whose patch edits no existing function (default false: dropped, as ref_eval). */
  keepWithoutFunctions?: boolean;
}

/** The fields every SWE-bench-style task row has (SWE-bench, SWE-PolyBench). */
export interface PatchTaskRow {
  instanceId: string;
  repo: string;
  baseCommit: string;
  problemStatement: string;
  patch: string;
  testPatch: string;
  createdAt: string;
}

/** The fields of one SWE-bench row this importer reads. */
interface SwebenchRow extends PatchTaskRow {
  version: string;
}

function readRow(row: Row): SwebenchRow {
  const opt = (f: string): string => (typeof row.value[f] === 'string' ? (row.value[f] as string) : '');
  return {
    instanceId: stringField(row, 'instance_id'),
    repo: stringField(row, 'repo'),
    baseCommit: stringField(row, 'base_commit'),
    problemStatement: stringField(row, 'problem_statement'),
    patch: stringField(row, 'patch'),
    testPatch: opt('test_patch'),
    createdAt: opt('created_at'),
    version: opt('version'),
  };
}

/**
 * Import a SWE-bench-style JSONL file (`instance_id`, `repo`, `base_commit`,
 * `problem_statement`, `patch`; optional `test_patch`, `created_at`, `version`).
 *
 * Each record: issue = the problem statement split into title (first line) and body (Markdown);
 * type `''` (SWE-bench gives none), `created` = `created_at`; `commits` = [] (the fix is a patch,
 * not a commit); `aprioriCommit` = `base_commit`; `changesTests` = whether `test_patch` is
 * non-empty. With a repository (`openRepo`), positives/functions/modules come from
 * {@link goldForPatch} at the base commit and `candidates` counts the non-test source files there;
 * instances whose base commit is missing, or (unless `keepWithoutFunctions`) whose patch edits no
 * existing function, are dropped with that reason. Without a repository only the patch's files
 * are known (`positiveFunctions` = [], `candidates` = 0). A file the patch renames without a text
 * diff is no positive (the protocol's gold files are those with a text diff, as ref_eval's
 * `parse_patch`); it is listed in `provenance.pureRenames` (`{from, to}`) and counted by the run.
 *
 * @param path the JSONL file.
 * @throws IssuelocError for an unreadable file, or a corrupt line, a row missing a field or a
 *   malformed patch (named `file:line`; with `skipInvalid` listed in `invalid` instead).
 */
export async function importSwebench(path: string, options: SwebenchImportOptions = {}): Promise<ImportResult> {
  const { rows, invalid } = readRows(path, options.skipInvalid);
  const result: ImportResult = { records: [], dropped: [], invalid };
  const variant = options.variant ?? 'swebench';
  for (const [k, row] of rows.entries()) {
    options.progress?.(k, rows.length);
    let r: SwebenchRow;
    let record: DatasetRecord;
    try {
      r = readRow(row);
      const patch = readPatch(r.patch);
      const { title, body } = splitProblemStatement(r.problemStatement);
      const issue = benchmarkIssue(
        { id: r.instanceId, title, body, bodyFormat: 'markdown', type: '', created: r.createdAt || null },
        row.origin,
        options,
      );
      record = {
        issue,
        repo: r.repo,
        commits: [],
        aprioriCommit: r.baseCommit,
        positives: patch.files.map((f) => f.path),
        positiveFunctions: [],
        candidates: 0,
        variant,
        provenance: { source: 'swebench', origin: row.origin, instanceId: r.instanceId, version: r.version },
        changesTests: r.testPatch.trim() !== '',
      };
      if (patch.pureRenames.length > 0) record.provenance.pureRenames = patch.pureRenames;
    } catch (e) {
      const err = rowError(row, e);
      if (!options.skipInvalid) throw err;
      result.invalid.push(err.message);
      continue;
    }
    const repo = options.openRepo ? await options.openRepo(r.repo) : null;
    if (repo) {
      try {
        await repo.resolveCommit(r.baseCommit);
      } catch {
        result.dropped.push({ id: r.instanceId, origin: row.origin, reason: 'base commit missing in repository', code: 'base-commit-missing' });
        continue;
      }
      const gold = await goldForPatch(repo, r.baseCommit, r.patch, { extract: options.extract });
      if (gold.functions.length === 0 && !options.keepWithoutFunctions) {
        result.dropped.push({ id: r.instanceId, origin: row.origin, reason: 'gold patch edits no existing function', code: 'no-function-edited' });
        continue;
      }
      record.positives = gold.files;
      record.positiveFunctions = gold.functions;
      record.positiveModules = gold.modules;
      record.candidates = await countCandidates(repo, r.baseCommit);
      record.provenance.repoPath = repo.path;
    } else {
      record.provenance.functions = 'not computed: repository not available';
    }
    result.records.push(record);
  }
  options.progress?.(rows.length, rows.length);
  return result;
}
