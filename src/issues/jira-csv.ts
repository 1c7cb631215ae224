/**
 * Jira CSV export ("Export → CSV (all fields)"): a header row with `Summary`, `Issue key`,
 * `Issue Type`, `Status`, `Resolution`, `Created`, `Resolved` (`13/Apr/11 2:34 AM`),
 * `Description` (wiki markup) and one `Labels` column per label (the name repeats). Parsed with
 * csv-parse; header names are matched ignoring case.
 */
import { parse } from 'csv-parse/sync';
import { IssuelocError } from '../errors.js';
import { IssueCollector } from './normalise.js';
import { readIssueFile } from './read-text.js';
import type { IssueSourceOptions, IssueSourceResult } from './types.js';

/** Column indices of a header, by lower-cased name (repeated names keep every index). */
function columnsOf(header: string[]): Map<string, number[]> {
  const cols = new Map<string, number[]>();
  header.forEach((h, i) => {
    const k = h.trim().toLowerCase();
    cols.set(k, [...(cols.get(k) ?? []), i]);
  });
  return cols;
}

/**
 * Reads a Jira CSV export (its text: `text`, else read from `path`).
 *
 * @throws IssuelocError `<path>:<line>: <reason>` for a malformed row or a record without key
 *   (unless `skipInvalid`, which skips and lists it), `<path>: no 'Issue key' column` for a file
 *   without the header Jira writes.
 */
export function readJiraCsv(path: string, options: IssueSourceOptions = {}, text = readIssueFile(path)): IssueSourceResult {
  const c = new IssueCollector(options);
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      skip_records_with_error: options.skipInvalid === true,
      on_skip: (err) => {
        if (err) c.fail(`${path}:${err.lines}`, err.message);
      },
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (e) {
    const err = e as Error & { lines?: number };
    throw new IssuelocError(`${path}${err.lines ? `:${err.lines}` : ''}: not valid CSV (${err.message})`);
  }
  if (rows.length === 0) throw new IssuelocError(`${path}: empty CSV file`);
  const cols = columnsOf(rows[0].record);
  const keyCol = cols.get('issue key');
  if (!keyCol) throw new IssuelocError(`${path}: no 'Issue key' column (not a Jira CSV export)`);
  const one = (r: string[], name: string): string | undefined => {
    const idx = cols.get(name);
    return idx ? r[idx[0]] : undefined;
  };
  for (const { record: r, info } of rows.slice(1)) {
    c.add({
      id: r[keyCol[0]],
      title: one(r, 'summary'),
      body: one(r, 'description'),
      bodyFormat: 'jira-wiki',
      type: one(r, 'issue type'),
      created: one(r, 'created'),
      resolved: one(r, 'resolved'),
      labels: (cols.get('labels') ?? []).map((i) => r[i]),
      status: one(r, 'status'),
      resolution: one(r, 'resolution'),
    }, `${path}:${info.lines}`);
  }
  return c.result();
}
