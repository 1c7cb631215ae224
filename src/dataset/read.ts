/**
 * Reading dataset records: the JSONL written by `issueloc dataset build` or `dataset import`.
 * A file of any kind (records or a benchmark's rows) is loaded by `loadDataset`
 * (src/dataset/import/load.ts), which reads records with this.
 */
import { readIssueFile } from '../issues/read-text.js';
import { IssuelocError } from '../errors.js';
import type { DatasetRecord } from './record.js';

/**
 * Reads dataset records (JSONL).
 *
 * @throws IssuelocError `<file>:<line>: <reason>` for a line that is not JSON or lacks
 *   `issue.id`, `positives` (list) or `candidates` (number); `cannot read <file>` otherwise.
 */
export function readDataset(file: string): DatasetRecord[] {
  // read with a bound (the longest text Node holds), so /dev/zero is refused, not read for ever
  const text = readIssueFile(file);
  const out: DatasetRecord[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let r: DatasetRecord;
    try {
      r = JSON.parse(raw) as DatasetRecord;
    } catch (e) {
      throw new IssuelocError(`${file}:${i + 1}: not valid JSON (${(e as Error).message})`);
    }
    if (typeof r?.issue?.id !== 'string' || !Array.isArray(r.positives) || typeof r.candidates !== 'number') {
      throw new IssuelocError(`${file}:${i + 1}: not a dataset record (needs issue.id, positives, candidates)`);
    }
    out.push(r);
  });
  return out;
}
