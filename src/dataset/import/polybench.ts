/**
 * SWE-PolyBench (Amazon, arXiv 2504.08703) tasks as github ictu-se/swe-polybench-traceability-artifact
 * keeps them (`data/tasks.jsonl`: the benchmark's own rows, Java, JavaScript, TypeScript and
 * Python) → dataset records. Any JSONL of SWE-PolyBench rows (e.g. the benchmark's
 * SWE-PolyBench_500) reads the same way.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IssuelocError } from '../../errors.js';
import { readPatch } from '../patch.js';
import type { DatasetRecord } from '../record.js';
import { benchmarkIssue, type ImportOptions, type ImportResult } from './common.js';
import { excludedRepository } from './excluded.js';
import { dropOf, goldOfPatch, posixPath, RowDrop } from './fix-commit.js';
import { readRows, splitProblemStatement, type Row } from './rows.js';
import type { PatchTaskRow } from './swebench.js';

/** One SWE-PolyBench task, as this importer reads it. */
interface PolybenchRow extends PatchTaskRow {
  language: string;
  taskCategory: string;
  /** The benchmark's changed nodes (`path->module->class_definition:A->function_definition:f`). */
  nodes: string[];
}

/** Node types of the benchmark's node ids that are functions (its tree-sitter types, Java/JS/TS/Python). */
const FUNCTION_NODES = new Set([
  'function_definition', 'function_declaration', 'method_declaration', 'method_definition', 'constructor_declaration', 'function', 'pair',
]);

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The benchmark's `modified_nodes`: a JSON list, or (as the dataset stores it) a string holding
 * one; [] for anything else.
 */
function nodeList(v: unknown): string[] {
  let list = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

/** The task of one row, or null when the row is no SWE-PolyBench task (another format). */
function readTask(row: Row): PolybenchRow | null {
  const v = row.value;
  const required = ['instance_id', 'repo', 'base_commit', 'patch', 'problem_statement'];
  if (required.some((f) => typeof v[f] !== 'string') || !('language' in v || 'modified_nodes' in v)) return null;
  return {
    instanceId: str(v.instance_id),
    repo: str(v.repo).trim(),
    baseCommit: str(v.base_commit).trim(),
    problemStatement: str(v.problem_statement),
    patch: str(v.patch),
    testPatch: str(v.test_patch),
    createdAt: str(v.created_at),
    language: str(v.language),
    taskCategory: str(v.task_category),
    nodes: nodeList(v.modified_nodes),
  };
}

/**
 * A node id as a function id of ours: `a/b.py->module->class_definition:A->function_definition:f`
 * → `a/b.py:A.f`; null for a node that is no function (a class, the module). Windows separators
 * in the path turn to `/`.
 */
export function polybenchFunction(node: string): string | null {
  const [path, ...rest] = node.split('->');
  const segments = rest.filter((s) => s.includes(':')).map((s) => ({ type: s.slice(0, s.indexOf(':')), name: s.slice(s.indexOf(':') + 1) }));
  const last = segments[segments.length - 1];
  if (!path || !last || !FUNCTION_NODES.has(last.type) || !last.name) return null;
  return `${posixPath(path.trim())}:${segments.map((s) => s.name).join('.')}`;
}

/** The JSONL file of `input`: the file itself, or an artifact folder's `data/tasks.jsonl`. */
function tasksFile(input: string): string {
  if (!existsSync(input) || !statSync(input).isDirectory()) return input;
  const inner = join(input, 'data', 'tasks.jsonl');
  if (!existsSync(inner)) throw new IssuelocError(`${input}: a folder without data/tasks.jsonl (give the SWE-PolyBench JSONL file)`);
  return inner;
}

/**
 * Import SWE-PolyBench tasks (a JSONL file, or the artifact's folder with `data/tasks.jsonl`).
 *
 * Each record: issue id = `instance_id`, title/body = the problem statement (first line, rest;
 * hints are never read), type = `task_category`, created = `created_at`; `commits` = [],
 * `aprioriCommit` = `base_commit`; positives = the patch's non-test source files that exist at
 * the base, functions by our span rules (`goldOfPatch`); the benchmark's changed nodes that are
 * functions kept as `provenance.givenFunctions` (`path:A.f`, in the positive files) for the
 * agreement check, its language and category as `provenance.language`/`taskCategory`;
 * `changesTests` = `test_patch` is not empty. Dropped with a code: `other-format` (a row without
 * the task fields), `excluded-repository` (leakage check, `excluded.ts`), `empty-issue`,
 * `bad-patch`, `bad-issue`, `repo-not-available`, `base-commit-missing`, `no-positive`.
 *
 * @throws IssuelocError for an unreadable file, a file none of whose rows is a task, or a line
 *   that is not a JSON object (without `skipInvalid`; named `file:line`).
 */
export async function importPolybench(input: string, options: ImportOptions = {}): Promise<ImportResult> {
  const path = tasksFile(input);
  const { rows, invalid } = readRows(path, options.skipInvalid);
  const result: ImportResult = { records: [], dropped: [], invalid };
  let tasks = 0;
  for (const [k, row] of rows.entries()) {
    options.progress?.(k, rows.length);
    const t = readTask(row);
    if (!t) {
      const id = str(row.value.instance_id) || str(row.value.id) || `line-${row.line}`;
      result.dropped.push({ id, origin: row.origin, reason: 'not a SWE-PolyBench task (instance_id, repo, base_commit, patch, problem_statement, language)', code: 'other-format' });
      continue;
    }
    tasks++;
    try {
      const excluded = excludedRepository(t.repo);
      if (excluded) throw new RowDrop('excluded-repository', excluded);
      if (!t.problemStatement.trim()) throw new RowDrop('empty-issue', 'the problem statement is empty');
      try {
        readPatch(t.patch);
      } catch (e) {
        throw new RowDrop('bad-patch', (e as Error).message);
      }
      const { title, body } = splitProblemStatement(t.problemStatement.trim());
      let issue: DatasetRecord['issue'];
      try {
        issue = benchmarkIssue({ id: t.instanceId, title, body, bodyFormat: 'markdown', type: t.taskCategory, created: t.createdAt || null }, row.origin, options);
      } catch (e) {
        throw new RowDrop('bad-issue', (e as Error).message);
      }
      const repo = options.openRepo ? await options.openRepo(t.repo) : null;
      if (!repo) throw new RowDrop('repo-not-available', `repository ${t.repo} not available`);
      let base: string;
      try {
        if (!t.baseCommit) throw new Error('no base commit');
        base = await repo.resolveCommit(t.baseCommit);
      } catch {
        throw new RowDrop('base-commit-missing', `base commit ${t.baseCommit || '(none)'} is not in ${repo.path}`);
      }
      const gold = await goldOfPatch(repo, base, t.patch, options);
      const inPositives = (id: string): boolean => gold.positives.includes(id.slice(0, id.lastIndexOf(':')));
      const given = [...new Set(t.nodes.map(polybenchFunction).filter((f): f is string => f !== null))];
      result.records.push({
        issue,
        repo: t.repo,
        commits: [],
        aprioriCommit: base,
        ...gold,
        variant: options.variant ?? 'polybench',
        changesTests: t.testPatch.trim() !== '',
        provenance: {
          source: 'polybench', origin: row.origin, sourceId: t.instanceId, repoPath: repo.path,
          language: t.language, taskCategory: t.taskCategory, givenFunctions: given.filter(inPositives),
        },
      });
    } catch (e) {
      if (!(e instanceof RowDrop)) throw e;
      result.dropped.push({ ...dropOf(t.instanceId, row.origin, e), language: t.language });
    }
  }
  if (rows.length > 0 && tasks === 0) throw new IssuelocError(`${path}: none of its ${rows.length} rows is a SWE-PolyBench task (another format?)`);
  options.progress?.(rows.length, rows.length);
  return result;
}
