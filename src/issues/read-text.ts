/** Reading an issue file, with an error that names it. */
import { IssuelocError } from '../errors.js';
import { formatBytes, readFileAtMost } from '../util/read-bounded.js';
import { whyUnreadable } from '../util/file-errors.js';

/**
 * The most an issue file may hold: 512 MiB, about the longest string Node can make of it (a
 * bigger file, or `/dev/zero`, is refused after reading this much, not read for ever).
 */
export const MAX_ISSUE_FILE_BYTES = 512 << 20;

/**
 * The whole file as UTF-8 text (a leading byte-order mark removed). Devices and FIFOs
 * (`<(gh issue list …)`) are read too, once, up to {@link MAX_ISSUE_FILE_BYTES}.
 *
 * @throws IssuelocError `cannot read <path>: <reason>`, or `<path>: over 512 MiB, the most read as one text`.
 */
export function readIssueFile(path: string, maxBytes = MAX_ISSUE_FILE_BYTES): string {
  let read;
  try {
    read = readFileAtMost(path, maxBytes);
  } catch (e) {
    throw new IssuelocError(`cannot read ${path}: ${whyUnreadable(e)}`);
  }
  if (read.over) throw new IssuelocError(`${path}: over ${formatBytes(maxBytes)}, the most read as one text`);
  return read.bytes.toString('utf8').replace(/^\uFEFF/, '');
}

/**
 * The records of a JSONL file: one JSON object a line (`<path>:<line>` origins), or, when its
 * text is instead one JSON document (a pretty-printed object, a list of objects), that object
 * or the list's objects (`<path>#<index>` origins). A record that is not a JSON object goes to
 * `onInvalid` as `(origin, reason)`.
 */
export function* jsonRecords(
  path: string,
  text: string,
  onInvalid: (origin: string, reason: string) => void,
): Generator<{ origin: string; value: Record<string, unknown> }> {
  const doc = wholeJsonDocument(text);
  if (doc === undefined) {
    for (const { line, value } of jsonlObjects(text, (l, why) => onInvalid(`${path}:${l}`, why))) yield { origin: `${path}:${line}`, value };
    return;
  }
  const items = Array.isArray(doc) ? doc : [doc];
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) onInvalid(`${path}#${i}`, 'not a JSON object');
    else yield { origin: `${path}#${i}`, value: v as Record<string, unknown> };
  }
}

/**
 * The text as one JSON document when it is not JSONL: a list, or an object spread over lines;
 * undefined for JSONL (the first line is a JSON object on its own) and for text that is neither.
 */
export function wholeJsonDocument(text: string): unknown {
  const body = text.trim();
  if (!body.startsWith('{') && !body.startsWith('[')) return undefined;
  if (body.startsWith('{')) {
    const nl = body.indexOf('\n');
    try {
      JSON.parse(nl < 0 ? body : body.slice(0, nl));
      return undefined;
    } catch {
      // not one object a line: maybe one object over several lines
    }
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
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
