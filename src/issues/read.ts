/**
 * One entry point for every issue source: `readIssues(path, { format })`, with `auto` telling the
 * format from the file name and, for JSON/JSONL, from the first record's fields.
 */
import { extname } from 'node:path';
import { IssuelocError } from '../errors.js';
import { readGithubJson } from './github-json.js';
import { readJiraCsv } from './jira-csv.js';
import { readJiraJson } from './jira-json.js';
import { readJiraJsonl } from './jira-jsonl.js';
import { readJiraXml } from './jira-xml.js';
import { readPlainJsonl } from './plain-jsonl.js';
import { readIssueFile } from './read-text.js';
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

/**
 * Tells the format of an issue file: `.xml` → jira-xml, `.csv` → jira-csv; `.jsonl`/`.ndjson`
 * → jira-jsonl when the first object has `key` and `summary`, GitHub-shaped objects (`number`,
 * `title`) and everything else → jsonl; `.json` → jira-json when it holds `issues` or objects
 * with `fields`, github-json otherwise.
 *
 * @throws IssuelocError when the file cannot be read or its extension is none of these.
 */
export function detectIssueFormat(path: string): Exclude<IssueFormat, 'auto'> {
  const ext = extname(path).toLowerCase();
  if (ext === '.xml' || ext === '.rss') return 'jira-xml';
  if (ext === '.csv') return 'jira-csv';
  if (ext === '.jsonl' || ext === '.ndjson') {
    const text = readIssueFile(path);
    const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
    try {
      const v = JSON.parse(first) as Record<string, unknown>;
      if (v.key !== undefined && v.summary !== undefined && (v.description_html !== undefined || v.description_text !== undefined)) return 'jira-jsonl';
    } catch {
      // a corrupt first line is reported by the reader with its line number
    }
    return 'jsonl';
  }
  if (ext === '.json') {
    const head = readIssueFile(path).slice(0, 65536);
    if (/"issues"\s*:/.test(head) || /"fields"\s*:\s*\{/.test(head)) return 'jira-json';
    return 'github-json';
  }
  throw new IssuelocError(`cannot tell the format of ${path} from its name: pass --format (${ISSUE_FORMATS.join('|')})`);
}

/**
 * Reads the issues of a file.
 *
 * @throws IssuelocError for an unreadable file, an unknown format, or (unless `skipInvalid`)
 *   a corrupt record, naming `file:line` or `file#index`; also for duplicate ids.
 */
export function readIssues(path: string, options: ReadIssuesOptions = {}): ReadIssuesResult {
  const format = !options.format || options.format === 'auto' ? detectIssueFormat(path) : options.format;
  const readers: Record<Exclude<IssueFormat, 'auto'>, (p: string, o: IssueSourceOptions) => IssueSourceResult> = {
    'jira-jsonl': readJiraJsonl,
    'jira-json': readJiraJson,
    'jira-xml': readJiraXml,
    'jira-csv': readJiraCsv,
    'github-json': readGithubJson,
    jsonl: readPlainJsonl,
  };
  const reader = readers[format];
  if (!reader) throw new IssuelocError(`unknown issue format '${format}' (one of ${ISSUE_FORMATS.join('|')})`);
  return { ...reader(path, options), format };
}
