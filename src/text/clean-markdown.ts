/**
 * GitHub-flavoured Markdown (GitHub issue bodies, SWE-bench problem statements) to plain text.
 *
 * Code blocks are fenced blocks (``` or ~~~, up to three spaces of indent, closed by a fence of
 * the same character at least as long; unclosed runs to the end, as CommonMark says) and HTML
 * `<pre>…</pre>`; indented code blocks are not recognised (pasted plain text is often indented).
 * With `mode: 'remove-formatting'`, outside code blocks: images `![alt](url)`, link URLs
 * (`[text](url)` keeps `text`), autolinks and bare URLs, reference definitions, HTML comments,
 * horizontal rules, emoji shortcodes `:smile:` and pictographic emoji are dropped; heading `#`s,
 * `>` quotes, list bullets, task boxes, table pipes, emphasis (`**b**`, `__b__`, `*i*`, `_i_`,
 * `~~s~~`), inline-code backticks and common HTML tags lose their markup, text kept. Inline code
 * spans are left untouched otherwise (`__init__`, `List<String>` survive).
 *
 * Linear time: a line scan for fences, literal-anchored patterns with bounded repeats elsewhere.
 * Syntax source: CommonMark 0.31 and the GitHub Flavored Markdown spec.
 */

import { checkCleanInput, resolveCleanOptions, tidyLines, type CleanOptions, type ResolvedCleanOptions } from './clean-options.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Plain text of Markdown.
 * @param md the Markdown; `''` gives `''`.
 * @param opts formatting mode and code-block handling (see {@link CleanOptions}).
 * @throws IssuelocError for a non-string input or a bad option.
 */
export function markdownToText(md: string, opts?: CleanOptions): string {
  checkCleanInput(md, 'Markdown issue text');
  const o = resolveCleanOptions(opts);
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let proseLines: string[] = [];
  const flushProse = () => {
    if (proseLines.length > 0) out.push(prose(proseLines.join('\n'), o));
    proseLines = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const f = FENCE.exec(lines[i]);
    if (f === null || (f[1][0] === '`' && lines[i].indexOf('`', f[0].length) >= 0)) {
      proseLines.push(lines[i]);
      continue;
    }
    flushProse();
    const fence = f[1];
    let j = i + 1;
    while (j < lines.length && !isClosingFence(lines[j], fence)) j++;
    out.push(codeBlock(lines.slice(i, Math.min(j + 1, lines.length)).join('\n'), lines.slice(i + 1, j).join('\n'), o));
    i = j;
  }
  flushProse();
  return tidyLines(out.join('\n'));
}

function isClosingFence(line: string, fence: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return m !== null && m[1][0] === fence[0] && m[1].length >= fence.length;
}

function codeBlock(whole: string, body: string, o: ResolvedCleanOptions): string {
  if (o.code === 'remove') return '';
  if (o.code === 'marker') return o.marker;
  return o.mode === 'raw' ? whole : body;
}

const PRE_OPEN = /<pre\b[^<>]{0,500}>/gi;
const PRE_CLOSE = /<\/pre\s*>/gi;

/** Prose between fences: `<pre>` blocks get the code policy, the rest is cleaned line by line. */
function prose(text: string, o: ResolvedCleanOptions): string {
  if (text.indexOf('<pre') < 0 && text.indexOf('<PRE') < 0) return o.mode === 'raw' ? text : cleanProse(text);
  const parts: string[] = [];
  let pos = 0;
  PRE_OPEN.lastIndex = 0;
  for (let m = PRE_OPEN.exec(text); m !== null; m = PRE_OPEN.exec(text)) {
    PRE_CLOSE.lastIndex = m.index + m[0].length;
    const c = PRE_CLOSE.exec(text);
    const bodyEnd = c === null ? text.length : c.index;
    const end = c === null ? text.length : c.index + c[0].length;
    const before = text.slice(pos, m.index);
    parts.push(o.mode === 'raw' ? before : cleanProse(before));
    parts.push('\n' + codeBlock(text.slice(m.index, end), text.slice(m.index + m[0].length, bodyEnd), o) + '\n');
    pos = end;
    PRE_OPEN.lastIndex = end;
    if (c === null) break;
  }
  const rest = text.slice(pos);
  parts.push(o.mode === 'raw' ? rest : cleanProse(rest));
  return parts.join('');
}

const COMMENT_OPEN = '<!--';
const IMAGE = /!\[[^\]\n]{0,500}\]\([^)\n]{0,2000}\)/g;
const LINK = /\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)/g;
const REF_LINK = /\[([^\]\n]{1,500})\]\[[^\]\n]{0,500}\]/g;
const AUTOLINK = /<(?:[a-z][a-z0-9+.-]{1,31}:|mailto:)[^<>\s]{1,2000}>/gi;
const BARE_URL = /\b(?:https?|ftp):\/\/[^\s<>)\]]{1,2000}/gi;
const HTML_TAG = /<\/?(?:details|summary|br|p|div|span|sup|sub|b|i|em|strong|code|kbd|img|a|hr|ul|ol|li|table|thead|tbody|tr|td|th|h[1-6]|blockquote|del|ins|s|u|small|big|center|font|picture|source)\b[^<>]{0,1000}>/gi;
const SHORTCODE = /(^|\s):[a-z0-9_+-]{1,40}:(?=$|\s|[.,!?;])/g;
const PICTOGRAPH = /\p{Extended_Pictographic}\uFE0F?/gu;
const INLINE_CODE = /`([^`\n]{1,2000})`/g;
const EMPHASIS: [RegExp, string][] = [
  [/(^|[^\w*])\*\*([^*\s](?:[^*\n]{0,498}[^*\s])?)\*\*(?![\w*])/g, '$1$2'],
  [/(^|[^\w_])__([^_\s](?:[^_\n]{0,498}[^_\s])?)__(?![\w_])/g, '$1$2'],
  [/(^|[^\w*])\*([^*\s](?:[^*\n]{0,498}[^*\s])?)\*(?![\w*])/g, '$1$2'],
  [/(^|[^\w_])_([^_\s](?:[^_\n]{0,498}[^_\s])?)_(?![\w_])/g, '$1$2'],
  [/~~([^~\s](?:[^~\n]{0,498}[^~\s])?)~~/g, '$1'],
];

/** Removes Markdown formatting from prose (no fenced or `<pre>` code inside). */
function cleanProse(text: string): string {
  const noComments = dropComments(text);
  const lines: string[] = [];
  for (const raw of noComments.split('\n')) {
    if (isRule(raw) || /^ {0,3}=+\s*$/.test(raw)) continue; // rules, setext underlines
    if (/^ {0,3}\[[^\]\n]{1,500}\]:\s/.test(raw)) continue; // reference definitions
    if (raw.indexOf('|') >= 0 && raw.indexOf('---') >= 0 && /^[\s|:-]+$/.test(raw)) continue; // table separator rows
    let line = raw.replace(/^ {0,3}#{1,6}(?=\s|$)\s*/, '');
    line = line.replace(/^\s{0,3}(?:>\s?)+/, '');
    line = line.replace(/^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '$1');
    if (/^\s*\|/.test(line)) line = line.replace(/\|/g, ' ');
    lines.push(outsideInlineCode(line, inline));
  }
  return lines.join('\n');
}

/** A thematic break: up to 3 spaces, then 3 or more of one of `-`, `*`, `_`, spaces between allowed. */
function isRule(line: string): boolean {
  let i = 0;
  while (i < line.length && i < 4 && line.charCodeAt(i) === 32) i++;
  if (i > 3 || i >= line.length) return false;
  const c = line[i];
  if (c !== '-' && c !== '*' && c !== '_') return false;
  let count = 0;
  for (; i < line.length; i++) {
    const d = line[i];
    if (d === c) count++;
    else if (d !== ' ' && d !== '\t') return false;
  }
  return count >= 3;
}

/** Applies `f` to the parts of `line` outside single-backtick code spans; span contents are kept bare. */
function outsideInlineCode(line: string, f: (s: string) => string): string {
  if (line.indexOf('`') < 0) return f(line);
  let out = '';
  let pos = 0;
  INLINE_CODE.lastIndex = 0;
  for (let m = INLINE_CODE.exec(line); m !== null; m = INLINE_CODE.exec(line)) {
    out += f(line.slice(pos, m.index)) + m[1];
    pos = m.index + m[0].length;
  }
  return out + f(line.slice(pos));
}

function inline(s: string): string {
  if (s.length === 0) return s;
  if (s.indexOf('](') >= 0) s = s.replace(IMAGE, '').replace(LINK, '$1');
  if (s.indexOf('][') >= 0) s = s.replace(REF_LINK, '$1');
  if (s.indexOf('<') >= 0) s = s.replace(AUTOLINK, '').replace(HTML_TAG, '');
  if (s.indexOf('://') >= 0) s = s.replace(BARE_URL, '');
  if (s.indexOf(':') >= 0) s = s.replace(SHORTCODE, '$1');
  s = s.replace(PICTOGRAPH, '');
  for (const [re, to] of EMPHASIS) s = s.replace(re, to);
  return s.replace(/(\S)[ \t]{2,}(?=\S)/g, '$1 ');
}

/** Removes `<!-- … -->` comments (an unclosed one runs to the end). */
function dropComments(text: string): string {
  let at = text.indexOf(COMMENT_OPEN);
  if (at < 0) return text;
  let out = '';
  let pos = 0;
  while (at >= 0) {
    out += text.slice(pos, at);
    const end = text.indexOf('-->', at + 4);
    if (end < 0) return out;
    pos = end + 3;
    at = text.indexOf(COMMENT_OPEN, pos);
  }
  return out + text.slice(pos);
}
