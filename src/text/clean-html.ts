/**
 * Jira's rendered HTML (the `description_html` of a Jira export) to plain text.
 *
 * One forward scan over tags and text (no DOM, no backtracking): tags are dropped; entities are
 * decoded with the `entities` package (all HTML5 named and numeric references); block elements
 * (`p`, `div`, `br`, `li`, `tr`, headings, `pre`, …) become line breaks; white space outside `<pre>`
 * collapses as a browser shows it, inside `<pre>` it is kept (tracebacks stay line by line).
 *
 * Jira renders `{code}` as `<div class="code panel">`, `{noformat}` as
 * `<div class="preformatted panel">` and `{panel}` as `<div class="panel">`; those divs, and any
 * `<pre>` outside them, are the code blocks that {@link CleanOptions.code} acts on.
 * With `mode: 'remove-formatting'`, links whose text is a URL, attachment links and user mentions
 * are dropped (other link texts stay); images and emoticons (`<img>`) and rules (`<hr>`) never
 * give text.
 */

import { decodeHTML } from 'entities/decode';
import { checkCleanInput, resolveCleanOptions, tidyLines, type CleanOptions } from './clean-options.js';

const BLOCK_TAGS = new Set([
  'p', 'div', 'br', 'li', 'ul', 'ol', 'tr', 'table', 'tbody', 'thead', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'pre', 'blockquote', 'hr', 'dl', 'dt', 'dd', 'section', 'article', 'header', 'footer',
]);
const CELL_TAGS = new Set(['td', 'th']);
const SKIP_CONTENT_TAGS = new Set(['script', 'style']);
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9]*)([^<>]*)>/y;
const URL_TEXT = /^(?:[a-z][a-z0-9+.-]*:\/\/|mailto:|www\.)\S*$/i;

/**
 * Plain text of Jira-rendered HTML.
 * @param html the HTML fragment (a description or comment body); `''` gives `''`.
 * @param opts formatting mode and code-block handling (see {@link CleanOptions}).
 * @returns text with `\n` line breaks, trailing spaces and repeated blank lines removed.
 * @throws IssuelocError for a non-string input or a bad option.
 */
export function htmlToText(html: string, opts?: CleanOptions): string {
  checkCleanInput(html, 'HTML issue text');
  const o = resolveCleanOptions(opts);
  const removeFormatting = o.mode === 'remove-formatting';
  const out: string[] = [];
  let pre = 0; // depth of <pre> being kept
  let skipUntilDivDepth = -1; // while >= 0: inside a removed block, until this div depth closes
  let skipPre = false; // inside a removed <pre> outside any code div
  let skipTag = ''; // inside <script>/<style>
  let codeDivDepth = -1; // while >= 0: inside a kept code div (its <pre> is not a block of its own)
  let divDepth = 0;
  let link: { start: number; drop: boolean } | undefined;

  const emit = (s: string) => {
    if (s.length > 0) out.push(s);
  };
  const newline = () => {
    if (out.length > 0 && !out[out.length - 1].endsWith('\n')) out.push('\n');
  };
  const startBlock = () => {
    if (o.code === 'marker') {
      newline();
      out.push(o.marker, '\n');
    }
  };
  const text = (raw: string) => {
    if (raw.length === 0 || skipUntilDivDepth >= 0 || skipPre || skipTag !== '') return;
    let t = raw.indexOf('&') >= 0 ? decodeHTML(raw) : raw;
    if (pre === 0) {
      t = t.replace(/[ \t\r\n\f\u00a0]+/g, ' ');
      // collapse white space across chunks too, as a browser does
      if (t.charCodeAt(0) === 32 && (out.length === 0 || /\s$/.test(out[out.length - 1]))) t = t.slice(1);
    }
    emit(t);
  };

  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      text(html.slice(i));
      break;
    }
    if (lt > i) text(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    TAG.lastIndex = lt;
    const m = TAG.exec(html);
    if (m === null) {
      text('<');
      i = lt + 1;
      continue;
    }
    i = TAG.lastIndex;
    const closing = m[1] === '/';
    const name = m[2].toLowerCase();
    const attrs = m[3];

    if (skipTag !== '') {
      if (closing && name === skipTag) skipTag = '';
      continue;
    }
    if (name === 'div') {
      if (closing) {
        divDepth--;
        if (skipUntilDivDepth >= 0 && divDepth <= skipUntilDivDepth) skipUntilDivDepth = -1;
        if (codeDivDepth >= 0 && divDepth <= codeDivDepth) codeDivDepth = -1;
      } else {
        const isBlock = skipUntilDivDepth < 0 && codeDivDepth < 0 && classTokens(attrs).includes('panel');
        if (isBlock) {
          if (o.code === 'keep') codeDivDepth = divDepth;
          else {
            startBlock();
            skipUntilDivDepth = divDepth;
          }
        }
        divDepth++;
      }
      if (skipUntilDivDepth < 0) newline();
      continue;
    }
    if (skipUntilDivDepth >= 0) continue;
    if (name === 'pre') {
      if (codeDivDepth < 0 && o.code !== 'keep') {
        if (!closing && !skipPre) {
          startBlock();
          skipPre = true;
        } else if (closing) skipPre = false;
        continue;
      }
      pre = closing ? Math.max(0, pre - 1) : pre + 1;
      newline();
      continue;
    }
    if (skipPre) continue;
    if (SKIP_CONTENT_TAGS.has(name)) {
      if (!closing && !/\/\s*$/.test(attrs)) skipTag = name;
      continue;
    }
    if (name === 'a') {
      if (!closing) {
        const href = attr(attrs, HREF) ?? '';
        const cls = classTokens(attrs);
        const drop = removeFormatting && (href.includes('/secure/attachment/') || cls.includes('user-hover'));
        link = { start: out.length, drop };
      } else if (link !== undefined) {
        const inner = out.slice(link.start).join('').trim();
        if (removeFormatting && (link.drop || URL_TEXT.test(inner))) out.length = link.start;
        link = undefined;
      }
      continue;
    }
    if (BLOCK_TAGS.has(name)) newline();
    else if (CELL_TAGS.has(name)) emit(' ');
  }
  return tidyLines(out.join(''));
}

const CLASS = /(?:^|\s)class\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
const HREF = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** The class names of a tag's attribute string. */
function classTokens(attrs: string): string[] {
  if (attrs.indexOf('class') < 0) return [];
  const c = attr(attrs, CLASS);
  return c === undefined ? [] : c.split(/\s+/).filter((s) => s.length > 0);
}

/** The value of the attribute matched by `re` (quoted or bare) in a tag's attribute string, entities decoded. */
function attr(attrs: string, re: RegExp): string | undefined {
  const m = re.exec(attrs);
  if (m === null) return undefined;
  return decodeHTML(m[1] ?? m[2] ?? m[3] ?? '');
}
