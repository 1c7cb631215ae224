/**
 * One entry point for every issue source: `readIssues(path, { format })`, with `auto` telling the
 * format from the file name and, for JSON/JSONL (and names without a known extension), from
 * the text.
 */
import { extname } from 'node:path';
import { IssuelocError } from '../errors.js';
import { isGithubIssue, readGithubJson } from './github-json.js';
import { readJiraCsv } from './jira-csv.js';
import { isJiraRestIssue, readJiraJson } from './jira-json.js';
import { readJiraJsonl } from './jira-jsonl.js';
import { readJiraXml } from './jira-xml.js';
import { readPlainJsonl } from './plain-jsonl.js';
import { jsonRecords, readIssueFile } from './read-text.js';
import type { IssueSourceOptions, IssueSourceResult } from './types.js';

/** Issue file formats. */
export const ISSUE_FORMATS = ['auto', 'jira-jsonl', 'jira-json', 'jira-xml', 'jira-csv', 'github-json', 'jsonl'] as const;
export type IssueFormat = (typeof ISSUE_FORMATS)[number];

/** Options of {@link readIssues}. */
export interface ReadIssuesOptions extends IssueSourceOptions {
  /** Default `auto`. */
  format?: IssueFormat;
}

/** Result of {@link readIssues}: the issues, skipped records, and the format read. */
export interface ReadIssuesResult extends IssueSourceResult {
  format: Exclude<IssueFormat, 'auto'>;
}

/** Whether a parsed JSON document is Jira REST: an issue, a search page, or a list of either. */
function isJiraDocument(doc: unknown): boolean {
  const one = Array.isArray(doc) ? doc[0] : doc;
  return isJiraRestIssue(one) || (one !== null && typeof one === 'object' && Array.isArray((one as { issues?: unknown }).issues));
}

/**
 * Tells the format of an issue file from its name and text (read from `path` unless given):
 * `.xml`/`.rss` → jira-xml, `.csv` → jira-csv; `.jsonl`/`.ndjson` → jira-jsonl when the first
 * record has `key`, `summary` and a description, jsonl otherwise; `.json` → jira-json when it
 * holds a Jira issue, search page or list of them, github-json otherwise (a list, a search
 * result or one issue). Any other name is told by the text: `<` → jira-xml; one JSON document:
 * jira-json as for `.json`, github-json when every issue has a `number`, else jsonl; JSON lines
 * as for `.jsonl`.
 *
 * @throws IssuelocError when the file cannot be read or its format cannot be told.
 */
export function detectIssueFormat(path: string, text?: string): Exclude<IssueFormat, 'auto'> {
  const ext = extname(path).toLowerCase();
  if (ext === '.xml' || ext === '.rss') return 'jira-xml';
  if (ext === '.csv') return 'jira-csv';
  const known = ext === '.json' || ext === '.jsonl' || ext === '.ndjson';
  const body = (text ?? readIssueFile(path)).trimStart();
  if (!known && body.startsWith('<')) return 'jira-xml';
  if (!known && !body.startsWith('{') && !body.startsWith('[')) {
    throw new IssuelocError(`cannot tell the format of ${path} from its name: pass --format (${ISSUE_FORMATS.join('|')})`);
  }
  if (ext === '.json' || !known) {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      // .json: not JSON, the reader says where; any other name: maybe JSON lines
      if (ext === '.json') return 'github-json';
    }
    if (doc !== undefined) {
      if (isJiraDocument(doc)) return 'jira-json';
      if (ext === '.json') return 'github-json';
      const items = Array.isArray(doc) ? doc : [doc];
      const numbered = (i: unknown) => isGithubIssue(i) && typeof i.number === 'number';
      return items.length > 0 && items.every(numbered) ? 'github-json' : 'jsonl';
    }
  }
  for (const { value: v } of jsonRecords(path, body, () => undefined)) {
    if (v.key !== undefined && v.summary !== undefined && (v.description_html !== undefined || v.description_text !== undefined)) return 'jira-jsonl';
    break;
  }
  return 'jsonl';
}

/**
 * Reads the issues of a file (read once, so a FIFO such as `<(gh issue list …)` works; at most
 * 512 MiB, see {@link readIssueFile}). A file may hold one issue object as well as a list.
 *
 * @throws IssuelocError for an unreadable file, an unknown format, or (unless `skipInvalid`)
 *   a corrupt record, naming `file:line` or `file#index`; also for duplicate ids.
 */
export function readIssues(path: string, options: ReadIssuesOptions = {}): ReadIssuesResult {
  const text = readIssueFile(path);
  const format = !options.format || options.format === 'auto' ? detectIssueFormat(path, text) : options.format;
  const readers: Record<Exclude<IssueFormat, 'auto'>, (p: string, o: IssueSourceOptions, text: string) => IssueSourceResult> = {
    'jira-jsonl': readJiraJsonl,
    'jira-json': readJiraJson,
    'jira-xml': readJiraXml,
    'jira-csv': readJiraCsv,
    'github-json': readGithubJson,
    jsonl: readPlainJsonl,
  };
  const reader = readers[format];
  if (!reader) throw new IssuelocError(`unknown issue format '${format}' (one of ${ISSUE_FORMATS.join('|')})`);
  return { ...reader(path, options, text), format };
}
