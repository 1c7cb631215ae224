/**
 * The Markdown of the issueloc comment on an issue: the top files, modules and functions at the
 * base commit, each linked to its lines there, within a size cap (GitHub refuses comments over
 * 65 536 characters).
 */
import type { RankedItem } from '../retrieve/rollup.js';
import type { LineRange } from './line-ranges.js';

/** The hidden first line by which the command finds its own comment again. */
export const COMMENT_MARKER = '<!-- issueloc -->';

/** GitHub's largest comment body, in characters. */
export const GITHUB_MAX_COMMENT_CHARS = 65_536;

/** Smallest size cap accepted: room for the heading, the footer and a few items. */
export const MIN_COMMENT_CHARS = 1_000;

export const LEVELS = ['file', 'module', 'function'] as const;
export type Level = (typeof LEVELS)[number];

/** Matched terms shown per item. */
const TERMS_SHOWN = 5;

/** What the comment shows. */
export interface CommentContent {
  /** Web root of the forge (`GITHUB_SERVER_URL`, e.g. https://github.com). */
  serverUrl: string;
  owner: string;
  repo: string;
  /** Full SHA of the base commit. */
  commit: string;
  /** Rankings per level shown, best first. */
  rankings: Partial<Record<Level, readonly RankedItem[]>>;
  /** Lines of modules and functions (files link to the whole file). */
  lines: ReadonlyMap<string, LineRange>;
  /** The stages that ranked (`lexical`, `model` …). */
  stages: readonly string[];
  /** The opt-out label named in the footer ('' for none). */
  optOutLabel: string;
}

const TITLES: Record<Level, string> = { file: 'Files', module: 'Modules', function: 'Functions' };

/** A Markdown code span holding `text` as it is (backticks and control characters included). */
export function codeSpan(text: string): string {
  const shown = text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || (shown.startsWith(' ') && shown.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** Web address of `path` at `commit`, with its lines when given. */
export function blobUrl(c: Pick<CommentContent, 'serverUrl' | 'owner' | 'repo' | 'commit'>, path: string, range?: LineRange): string {
  const enc = path.split('/').map(encodeURIComponent).join('/');
  const anchor = range ? (range.start === range.end ? `#L${range.start}` : `#L${range.start}-L${range.end}`) : '';
  return `${c.serverUrl.replace(/\/+$/, '')}/${encodeURIComponent(c.owner)}/${encodeURIComponent(c.repo)}/blob/${c.commit}/${enc}${anchor}`;
}

function itemLine(c: CommentContent, it: RankedItem, rank: number): string {
  const range = c.lines.get(it.id);
  const link = `[${codeSpan(it.id)}](${blobUrl(c, range?.path ?? it.id, range)})`;
  const where = range ? ` (lines ${range.start}–${range.end})` : '';
  const terms = (it.matchedTerms ?? []).slice(0, TERMS_SHOWN).map(codeSpan).join(', ');
  return `${rank}. ${link}${where}${terms ? ` — matched ${terms}` : ''}`;
}

/** The item lines of each level, rendered once (ranks are positions, so a shorter list is a prefix). */
type ItemLines = Partial<Record<Level, string[]>>;

function render(c: CommentContent, lines: ItemLines, shown: Partial<Record<Level, number>>, leftOut: number): string {
  const base = `${c.serverUrl.replace(/\/+$/, '')}/${encodeURIComponent(c.owner)}/${encodeURIComponent(c.repo)}`;
  const parts = [
    COMMENT_MARKER,
    `**issueloc** ranked where this issue may need changes, at commit [\`${c.commit.slice(0, 12)}\`](${base}/tree/${c.commit}):`,
  ];
  for (const level of LEVELS) {
    const items = lines[level];
    if (!items) continue;
    const n = shown[level] ?? items.length;
    parts.push('', `**${TITLES[level]}**`, '');
    parts.push(n === 0 ? `(no ${level} matched)` : items.slice(0, n).join('\n'));
  }
  if (leftOut > 0) parts.push('', `(${leftOut} more ${leftOut === 1 ? 'item' : 'items'} left out to keep this comment within its size limit)`);
  const optOut = c.optOutLabel ? ` Add the label ${codeSpan(c.optOutLabel)} to an issue to keep issueloc off it.` : '';
  parts.push('', `<sub>Ranked from the issue's title and body (${c.stages.join(' → ')}); this comment is updated when the issue is edited.${optOut}</sub>`);
  return `${parts.join('\n')}\n`;
}

/** How many items of each level are shown after `k` items went, the lowest of the longest list first. */
function shownAfter(full: Partial<Record<Level, number>>, k: number): Partial<Record<Level, number>> {
  const shown = { ...full };
  for (let i = 0; i < k; i++) {
    const longest = LEVELS.filter((l) => (shown[l] ?? 0) > 0).sort((a, b) => shown[b]! - shown[a]!)[0];
    if (!longest) break;
    shown[longest]!--;
  }
  return shown;
}

/**
 * The comment's Markdown, at most `maxChars` characters (UTF-16 code units, never fewer than
 * GitHub counts): when the rankings do not fit, the lowest-ranked items of the longest list go
 * first, and a line says how many were left out.
 */
export function commentBody(c: CommentContent, maxChars: number = GITHUB_MAX_COMMENT_CHARS): string {
  const lines: ItemLines = {};
  const full: Partial<Record<Level, number>> = {};
  for (const l of LEVELS) {
    const items = c.rankings[l];
    if (!items) continue;
    lines[l] = items.map((it, i) => itemLine(c, it, i + 1));
    full[l] = items.length;
  }
  const total = Object.values(full).reduce((a, b) => a + b, 0);
  const bodyAfter = (k: number) => render(c, lines, shownAfter(full, k), k);
  let body = bodyAfter(0);
  if (body.length > maxChars && total > 0) {
    // From one item left out on, each further one shortens the body (an item line is longer than
    // the digit the count may gain), so the fewest to leave out is found by bisection.
    let lo = 1;
    let hi = total;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bodyAfter(mid).length > maxChars) lo = mid + 1;
      else hi = mid;
    }
    body = bodyAfter(lo);
  }
  // a heading alone over the cap (a path of thousands of characters cannot be there: items went first)
  return body.length > maxChars ? `${body.slice(0, maxChars - 2)}…\n` : body;
}
