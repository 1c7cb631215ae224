/** One line of a `localize` job's JSONL: `{ "id"?, "text" | "title"+"body", "rev"? }`. */
import { IssuelocError } from '../errors.js';

/** The largest JSONL of issues a `localize` job reads (bytes): 256 MiB. */
export const MAX_ISSUE_FILE_BYTES = 256 << 20;

/** A parsed line of the JSONL; only `text` or `title` is known to be present. */
export interface IssueLine { id?: unknown; text?: unknown; title?: unknown; body?: unknown; rev?: unknown }

/**
 * The JSON object of one line.
 * @param where `file:line`, for the error.
 * @throws IssuelocError naming `where` for a line that is not a JSON object with a text or title,
 *   or whose `"rev"` is not a string.
 */
export function parseIssueLine(text: string, where: string): IssueLine {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new IssuelocError(`${where}: not valid JSON`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new IssuelocError(`${where}: not a JSON object`);
  const line = v as IssueLine;
  if (typeof line.text !== 'string' && typeof line.title !== 'string') throw new IssuelocError(`${where}: no "text" nor "title"`);
  if (line.rev !== undefined && typeof line.rev !== 'string') throw new IssuelocError(`${where}: "rev" must be a string (a git revision)`);
  return line;
}
