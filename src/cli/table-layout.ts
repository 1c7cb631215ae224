/**
 * Fitting the ranking tables of `localize` to a terminal: long cells (matched terms, the
 * evidence of signals) are wrapped at word boundaries and evidence strings shortened, so a
 * traceback does not make a table hundreds of columns wide. `--json` output is never shortened.
 */

/** Width of text tables when stdout is not a terminal (and COLUMNS is not set). */
export const DEFAULT_TABLE_WIDTH = 100;

/** Most characters of one evidence string in a table cell. */
export const MAX_EVIDENCE_CHARS = 60;

/** The width tables should fit: the terminal's columns, else `$COLUMNS`, else {@link DEFAULT_TABLE_WIDTH}. */
export function tableWidth(out: { isTTY?: boolean; columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  if (out.isTTY && out.columns && out.columns > 0) return out.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : DEFAULT_TABLE_WIDTH;
}

/** Control characters (C0, DEL, C1) and the bidirectional overrides and isolates ("Trojan Source"). */
const UNPRINTABLE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * `s` with every control character written as an escape (`\n`, `\r`, `\t`, `\x1b`, `\u202e`), so
 * text from a repository or an issue (a file name with a newline, an ANSI escape sequence, a
 * right-to-left override) can neither break the rows of a table nor drive the terminal. For text
 * output only: `--json` keeps every string as it is.
 */
export function printable(s: string): string {
  return s.replace(UNPRINTABLE, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * `s` in at most `max` characters: the start and the end kept, `…` between (the end of a path
 * or a stack frame names the file and line, the start what kind of text it is).
 */
export function shorten(s: string, max = MAX_EVIDENCE_CHARS): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = Math.ceil((max - 1) / 3);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (max - 1 - head)).join('')}`;
}

/**
 * The lines of `text` wrapped to `width` characters at spaces; a word longer than `width` is
 * cut into pieces of `width`. Existing line breaks are kept.
 */
export function wrapWords(text: string, width: number): string {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let cur = '';
    for (const word of line.split(' ').filter((x) => x !== '')) {
      const pieces = [...word].length <= w ? [word] : chunks(word, w);
      for (const piece of pieces) {
        if (cur === '') cur = piece;
        else if ([...cur].length + 1 + [...piece].length <= w) cur += ` ${piece}`;
        else {
          out.push(cur);
          cur = piece;
        }
      }
    }
    out.push(cur);
  }
  return out.join('\n');
}

function chunks(word: string, w: number): string[] {
  const chars = [...word];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += w) out.push(chars.slice(i, i + w).join(''));
  return out;
}

/** Longest line of a cell, in characters. */
function cellWidth(cell: string): number {
  return Math.max(0, ...cell.split('\n').map((l) => [...l].length));
}

/**
 * Widths for the `flexible` columns of a cli-table3 table (rows: the head and the body, as
 * text) so the whole table fits `width`: the other columns keep their natural width (ids are
 * never cut), the flexible ones share the room left, none below its `min` (so a table can be
 * wider than `width` when the fixed columns alone are) nor above its natural width. A
 * narrow column leaves what it does not need to the others.
 */
export function flexibleWidths(rows: readonly string[][], flexible: ReadonlyArray<{ col: number; min: number }>, width: number): Map<number, number> {
  const cols = rows[0]?.length ?? 0;
  const natural = Array.from({ length: cols }, (_, c) => Math.max(...rows.map((r) => cellWidth(r[c] ?? ''))));
  const isFlexible = new Set(flexible.map((f) => f.col));
  // cli-table3 draws a border before each column and after the last, and a space either side
  const fixed = natural.reduce((sum, w, c) => sum + (isFlexible.has(c) ? 0 : w), 0) + 3 * cols + 1;
  let room = width - fixed;
  const widths = new Map<number, number>();
  const order = [...flexible].sort((a, b) => natural[a.col] - natural[b.col]);
  order.forEach((f, i) => {
    const share = Math.floor(room / (order.length - i));
    const w = Math.min(natural[f.col], Math.max(f.min, share));
    widths.set(f.col, w);
    room -= w;
  });
  return widths;
}
