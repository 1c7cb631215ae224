/**
 * Jira wiki markup (the `description` field of Jira's REST API) to plain text.
 *
 * Code blocks are `{code}` / `{code:java}` / `{code:title=X|borderStyle=solid}` … `{code}`,
 * `{noformat}` … `{noformat}` and `{panel…}` … `{panel}` (an unclosed block runs to the end, as Jira
 * renders it); their content is never reformatted. With `mode: 'remove-formatting'`, outside code
 * blocks: images `!x.png!` / `!x.png|thumbnail!`, attachments `[^file.txt]`, user mentions
 * `[~name]`, link targets (`[text|http://…]` keeps `text`, `[http://…]` and bare URLs go), rules
 * `----` and emoticons `:)` `(y)` `(!)` … are dropped; headings `h1.`, `bq.`, list bullets, table
 * pipes, text effects (`*strong*`, `_em_`, `-del-`, `+ins+`, `^sup^`, `~sub~`, `??cite??`,
 * `{{mono}}`) and `{color}` / `{quote}` / `{anchor}` macros lose their markup but keep their text.
 *
 * Every pattern is anchored on a literal and has bounded repeats, so cleaning is linear in the
 * text (see `bench/text-speed.ts`). Source of the syntax: Atlassian's "Text Formatting Notation
 * Help" for Jira.
 */

import { checkCleanInput, resolveCleanOptions, tidyLines, type CleanOptions, type ResolvedCleanOptions } from './clean-options.js';

const BLOCK_OPEN = /\{(code|noformat|panel)(?::[^{}\n]{0,1000})?\}/g;

/**
 * Plain text of Jira wiki markup.
 * @param wiki the markup; `''` gives `''`.
 * @param opts formatting mode and code-block handling (see {@link CleanOptions}).
 * @throws IssuelocError for a non-string input or a bad option.
 */
export function jiraWikiToText(wiki: string, opts?: CleanOptions): string {
  checkCleanInput(wiki, 'Jira wiki issue text');
  const o = resolveCleanOptions(opts);
  const out: string[] = [];
  let pos = 0;
  BLOCK_OPEN.lastIndex = 0;
  for (let m = BLOCK_OPEN.exec(wiki); m !== null; m = BLOCK_OPEN.exec(wiki)) {
    const open = m.index;
    const bodyStart = open + m[0].length;
    const closeTag = `{${m[1]}}`;
    const close = wiki.indexOf(closeTag, bodyStart);
    const bodyEnd = close < 0 ? wiki.length : close;
    const blockEnd = close < 0 ? wiki.length : close + closeTag.length;
    out.push(prose(wiki.slice(pos, open), o));
    out.push(codeBlock(wiki.slice(open, blockEnd), wiki.slice(bodyStart, bodyEnd), m[1], o));
    pos = blockEnd;
    BLOCK_OPEN.lastIndex = blockEnd;
    if (close < 0) break;
  }
  if (pos < wiki.length) out.push(prose(wiki.slice(pos), o));
  return tidyLines(out.join(''));
}

function codeBlock(whole: string, body: string, kind: string, o: ResolvedCleanOptions): string {
  if (o.code === 'remove') return '\n';
  if (o.code === 'marker') return `\n${o.marker}\n`;
  if (o.mode === 'raw') return whole;
  // a panel holds wiki text; code and noformat hold literal text
  return `\n${kind === 'panel' ? prose(body, o) : body}\n`;
}

function prose(text: string, o: ResolvedCleanOptions): string {
  if (o.mode === 'raw' || text.length === 0) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  for (let line of lines) {
    if (/^\s*-{4,}\s*$/.test(line)) continue; // horizontal rule
    line = line.replace(/^\s*(?:h[1-6]|bq)\.\s+/, '');
    line = line.replace(/^\s*[*#-]+\s+/, '');
    if (/^\s*\|/.test(line)) line = line.replace(/\|+/g, ' ');
    kept.push(inline(line));
  }
  return kept.join('\n');
}

const IMAGE = /!([^!\s][^!\n]{0,500})!/g;
const IMAGE_EXT = /\.(?:png|jpe?g|gif|bmp|svg|webp|tiff?|ico|mp4|mov|avi|webm|pdf)$/i;
const BRACKET = /\[([^[\]\n]{1,1000})\]/g;
const URL_START = /^(?:[a-z][a-z0-9+.-]*:\/\/|mailto:|file:)/i;
const BARE_URL = /\b(?:https?|ftp|file):\/\/[^\s[\]|]{1,2000}/gi;
const EMOTICON = /(^|\s)(?::\)|:\(|:P|:D|;\)|:p|:d|\((?:y|n|i|\/|x|!|\+|-|\?|on|off|\*|\*r|\*g|\*b|\*y|flag|flagoff)\))(?=\s|$)/g;
const MACRO = /\{(?:color|quote|anchor|bgcolor|toc)(?::[^{}\n]{0,200})?\}/gi;
const EFFECTS: RegExp[] = ['*', '_', '-', '+', '^', '~'].map(
  (c) => new RegExp(`(^|[^\\w${esc(c)}])${esc(c)}([^${esc(c)}\\s](?:[^${esc(c)}\\n]{0,498}[^${esc(c)}\\s])?)${esc(c)}(?![\\w${esc(c)}])`, 'g'),
);
const CITATION = /\?\?([^?\s](?:[^?\n]{0,498}[^?\s])?)\?\?/g;

/** Removes inline markup from one line of prose (mode 'remove-formatting'). */
function inline(line: string): string {
  if (line.length === 0) return line;
  let s = line;
  if (s.indexOf('!') >= 0) s = s.replace(IMAGE, (whole, inner: string) => (isImage(inner) ? '' : whole));
  if (s.indexOf('[') >= 0) s = s.replace(BRACKET, (whole, inner: string) => link(whole, inner));
  if (s.indexOf('://') >= 0) s = s.replace(BARE_URL, '');
  if (s.indexOf('{') >= 0) s = s.replace(MACRO, '').replace(/\{\{|\}\}/g, '');
  s = s.replace(EMOTICON, '$1');
  for (const re of EFFECTS) s = s.replace(re, '$1$2');
  if (s.indexOf('??') >= 0) s = s.replace(CITATION, '$1');
  return s.replace(/(\S)[ \t]{2,}(?=\S)/g, '$1 ');
}

function isImage(inner: string): boolean {
  const bar = inner.indexOf('|');
  const target = (bar >= 0 ? inner.slice(0, bar) : inner).trim();
  return IMAGE_EXT.test(target) || URL_START.test(target) || (bar >= 0 && /^\S+\.\w{2,5}$/.test(target));
}

/** A `[…]` group: links keep their alias; attachments, mentions, bare targets go; other brackets stay. */
function link(whole: string, inner: string): string {
  const c = inner.charAt(0);
  if (c === '^' || c === '~') return '';
  const bar = inner.indexOf('|');
  if (bar >= 0) {
    const alias = inner.slice(0, bar).trim();
    return URL_START.test(alias) ? '' : alias;
  }
  if (URL_START.test(inner) || c === '#') return '';
  return whole;
}

function esc(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&');
}
