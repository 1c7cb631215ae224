/**
 * Reading benchmark JSONL rows (SWE-bench, Loc-Bench, Ye et al. 2014) with errors that name the
 * file and line, and the small field helpers the importers share.
 */
import { IssuelocError } from '../../errors.js';
import { jsonlObjects, readIssueFile } from '../../issues/read-text.js';

/** One JSONL row and where it came from. */
export interface Row {
  /** `file:line`, for error messages and provenance. */
  origin: string;
  line: number;
  value: Record<string, unknown>;
}

/** The rows of a benchmark file and the corrupt lines skipped. */
export interface Rows {
  rows: Row[];
  /** `file:line: reason` of each skipped line (only with `skipInvalid`). */
  invalid: string[];
}

/**
 * The JSON objects of a JSONL file, blank lines skipped.
 *
 * @param skipInvalid list corrupt lines in `invalid` instead of failing.
 * @throws IssuelocError `cannot read <path>: …`, or `<path>:<line>: not valid JSON (…)` /
 *   `not a JSON object` without `skipInvalid`.
 */
export function readRows(path: string, skipInvalid = false): Rows {
  const invalid: string[] = [];
  const onInvalid = (line: number, reason: string): void => {
    const msg = `${path}:${line}: ${reason}`;
    if (!skipInvalid) throw new IssuelocError(msg);
    invalid.push(msg);
  };
  const rows: Row[] = [];
  for (const { line, value } of jsonlObjects(readIssueFile(path), onInvalid)) {
    rows.push({ origin: `${path}:${line}`, line, value });
  }
  return { rows, invalid };
}

/**
 * A required string field.
 * @throws IssuelocError `<file>:<line>: field 'patch' missing or not a string`.
 */
export function stringField(row: Row, field: string): string {
  const v = row.value[field];
  if (typeof v !== 'string') throw new IssuelocError(`${row.origin}: field '${field}' missing or not a string`);
  return v;
}

/**
 * A required list-of-strings field.
 * @throws IssuelocError `<file>:<line>: field 'edit_functions' missing or not a list of strings`.
 */
export function stringListField(row: Row, field: string): string[] {
  const v = row.value[field];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    throw new IssuelocError(`${row.origin}: field '${field}' missing or not a list of strings`);
  }
  return v as string[];
}

/**
 * Title (first line) and body (the rest) of a benchmark problem statement; SWE-bench builds the
 * statement as `title + "\n" + body`.
 */
export function splitProblemStatement(text: string): { title: string; body: string } {
  const nl = text.indexOf('\n');
  if (nl < 0) return { title: text.trim(), body: '' };
  return { title: text.slice(0, nl).trim(), body: text.slice(nl + 1) };
}

/** An error about a row as an IssuelocError whose message starts with the row's `file:line`. */
export function rowError(row: Row, e: unknown): IssuelocError {
  const msg = e instanceof Error ? e.message : String(e);
  return new IssuelocError(msg.startsWith(row.origin) ? msg : `${row.origin}: ${msg}`);
}
