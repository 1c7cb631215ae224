/**
 * Issue type → category, by the table of "file localisation for issues at large" (method notes):
 * Bug = {Bug, Defect}; Task = {Task, Sub-task}; Improvement = {Improvement, Suggestion};
 * New Feature = {New Feature, Feature Request}; every other type (Documentation, Dependency
 * upgrade, Epic, Story, Question, Wish, Test, …) is `Other`. Matching ignores case and
 * surrounding blanks. The table is overridable (`--type-table FILE`, JSON `{ "type": "Category" }`).
 */
import { IssuelocError } from '../errors.js';
import { formatBytes, readFileAtMost } from '../util/read-bounded.js';
import { whyUnreadable } from '../util/file-errors.js';

/** Issue type categories (the paper's grouping). */
export type IssueCategory = 'Bug' | 'New Feature' | 'Improvement' | 'Task' | 'Other';

/** The category names, in the paper's order. */
export const ISSUE_CATEGORIES: readonly IssueCategory[] = ['Bug', 'New Feature', 'Improvement', 'Task', 'Other'];

/** The default table; keys are lower-case type names. */
export const DEFAULT_TYPE_CATEGORIES: ReadonlyMap<string, IssueCategory> = new Map<string, IssueCategory>([
  ['bug', 'Bug'],
  ['defect', 'Bug'],
  ['task', 'Task'],
  ['sub-task', 'Task'],
  ['improvement', 'Improvement'],
  ['suggestion', 'Improvement'],
  ['new feature', 'New Feature'],
  ['feature request', 'New Feature'],
]);

/** Category of an issue type by `table` (keys lower-case); `Other` when the type is not in it. */
export function categorize(type: string, table: ReadonlyMap<string, IssueCategory> = DEFAULT_TYPE_CATEGORIES): IssueCategory {
  return table.get(type.trim().toLowerCase()) ?? 'Other';
}

/** Most bytes of a type table file read (a table of issue types is a few hundred bytes). */
const MAX_TYPE_TABLE_BYTES = 1 << 20;

/**
 * Reads a type table override: a JSON object `{ "<type>": "<category>" }`, merged over the
 * default table (so `{ "Story": "New Feature" }` adds one mapping; map a type to `Other` to remove it).
 *
 * @throws IssuelocError when the file cannot be read, is not a JSON object, or names a category
 *   outside {@link ISSUE_CATEGORIES}.
 */
export function readTypeTable(path: string): Map<string, IssueCategory> {
  let value: unknown;
  try {
    const read = readFileAtMost(path, MAX_TYPE_TABLE_BYTES);
    if (read.over) throw new Error(`over ${formatBytes(MAX_TYPE_TABLE_BYTES)}`);
    value = JSON.parse(read.bytes.toString('utf8'));
  } catch (e) {
    throw new IssuelocError(`cannot read type table ${path}: ${whyUnreadable(e)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new IssuelocError(`type table ${path}: expected a JSON object { "type": "category" }`);
  }
  const table = new Map(DEFAULT_TYPE_CATEGORIES);
  for (const [type, cat] of Object.entries(value as Record<string, unknown>)) {
    if (typeof cat !== 'string' || !(ISSUE_CATEGORIES as readonly string[]).includes(cat)) {
      throw new IssuelocError(`type table ${path}: '${type}' maps to ${JSON.stringify(cat)}, not one of ${ISSUE_CATEGORIES.join(', ')}`);
    }
    table.set(type.trim().toLowerCase(), cat as IssueCategory);
  }
  return table;
}
