/** Reading an issue file, with an error that names it. */
import { readFileSync } from 'node:fs';
import { IssuelocError } from '../errors.js';

/**
 * The whole file as UTF-8 text (a leading byte-order mark removed).
 *
 * @throws IssuelocError `cannot read <path>: <reason>`.
 */
export function readIssueFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    throw new IssuelocError(`cannot read ${path}: ${(e as Error).message}`);
  }
}

/**
 * The JSON objects of a JSONL text with their 1-based line numbers; blank lines skipped. A line
 * that is not a JSON object goes to `onInvalid` as `(line, reason)`.
 */
export function* jsonlObjects(
  text: string,
  onInvalid: (line: number, reason: string) => void,
): Generator<{ line: number; value: Record<string, unknown> }> {
  let line = 0;
  let pos = 0;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    line++;
    const raw = text.slice(pos, end).trim();
    pos = end + 1;
    if (raw !== '') {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (e) {
        onInvalid(line, `not valid JSON (${(e as Error).message})`);
        if (nl < 0) break;
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) onInvalid(line, 'not a JSON object');
      else yield { line, value: value as Record<string, unknown> };
    }
    if (nl < 0) break;
  }
}

/**
 * Parses a whole-file JSON document.
 *
 * @throws IssuelocError `<path>: not valid JSON (<reason>)`.
 */
export function parseJsonFile(path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new IssuelocError(`${path}: not valid JSON (${(e as Error).message})`);
  }
}
