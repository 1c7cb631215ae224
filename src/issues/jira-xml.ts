/**
 * Jira XML/RSS export (`SearchRequest-….xml`): `<rss><channel><item>` with `<key>`, `<summary>`,
 * `<type>`, `<status>`, `<resolution>`, `<created>`, `<resolved>` (RFC 2822), `<description>`
 * (rendered HTML, escaped) and `<labels><label>…</label></labels>`. Parsed with fast-xml-parser,
 * bounded: entities a DOCTYPE declares are expanded only within {@link XML_ENTITY_LIMITS}, an
 * external entity (`SYSTEM`/`PUBLIC`) is never read, and nesting is capped; a file beyond them is
 * refused as bad input, naming the file.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { IssuelocError } from '../errors.js';
import { IssueCollector } from './normalise.js';
import { readIssueFile } from './read-text.js';
import type { IssueSourceOptions, IssueSourceResult } from './types.js';

/**
 * The bounds on entities declared in a DOCTYPE (a Jira export declares none): fast-xml-parser's
 * own limits, stated here so they stay put. An entity over them, or an external one, fails the file.
 */
export const XML_ENTITY_LIMITS = { maxEntitySize: 10_000, maxEntityCount: 100, maxTotalExpansions: 10_000, maxExpandedLength: 1_000_000 } as const;

/** The text of an XML element value (`#text` of an element with attributes). */
function textOf(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return (v as Record<string, unknown>)['#text'] ?? '';
  return v;
}

/**
 * Reads a Jira XML/RSS export (its text: `xml`, else read from `path`).
 *
 * @throws IssuelocError `<path>:<line>: not valid XML (<reason>)`, `<path>: not a readable Jira XML
 *   export (<reason>)` (an external or oversized entity, nesting too deep), `<path>: no
 *   <rss><channel><item>`, or (unless `skipInvalid`) `<path>#<index>: <reason>` for a record without key.
 */
export function readJiraXml(path: string, options: IssueSourceOptions = {}, xml = readIssueFile(path)): IssueSourceResult {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new IssuelocError(`${path}:${valid.err.line}: not valid XML (${valid.err.msg})`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    trimValues: true,
    isArray: (tagName) => tagName === 'item' || tagName === 'label',
    processEntities: { enabled: true, ...XML_ENTITY_LIMITS },
  });
  let doc: { rss?: { channel?: { item?: unknown[] } } };
  try {
    doc = parser.parse(xml) as typeof doc;
  } catch (e) {
    // the parser's refusals of its input (external entities, limits, nesting) are plain Errors
    throw new IssuelocError(`${path}: not a readable Jira XML export (${(e as Error).message.split('\n')[0]})`);
  }
  const items = doc.rss?.channel?.item;
  if (!Array.isArray(items)) throw new IssuelocError(`${path}: no <rss><channel><item> elements (not a Jira XML export)`);
  const c = new IssueCollector(options);
  items.forEach((raw, i) => {
    const r = raw as Record<string, unknown>;
    const labels = r.labels !== null && typeof r.labels === 'object' ? (r.labels as { label?: unknown[] }).label ?? [] : [];
    c.add({
      id: textOf(r.key),
      title: textOf(r.summary) ?? textOf(r.title),
      body: textOf(r.description),
      bodyFormat: 'html',
      type: textOf(r.type),
      created: textOf(r.created),
      resolved: textOf(r.resolved),
      labels: labels.map(textOf),
      status: textOf(r.status),
      resolution: textOf(r.resolution),
    }, `${path}#${i}`);
  });
  return c.result();
}
