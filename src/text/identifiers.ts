/**
 * The four identifier patterns of "file localisation from issues at large" (its identifier
 * analysis; docs/evaluation.md, `stats --by identifiers`), recognised with a linear character
 * scan, no regular expressions and no allocation for words that match nothing:
 *
 * - `upperSnake`: UPPER_SNAKE_CASE with two or more parts (`MAX_SIZE`, `HTTP_2_PROTOCOL`);
 * - `lowerSnake`: lower_snake_case with two or more parts (`get_queryset`, `name__icontains`);
 * - `dotted`: dotted paths whose last part is CamelCase or digits (`org.apache.Foo`,
 *   `sympy.core.Basic`, `self.assertEqual`);
 * - `camelCase`: CamelCase words that split into at least two parts (`HTTPServer` → HTTP, Server;
 *   `getFoo`; a lone upper-case word like `HTTP`, or `Hello`, is not one).
 *
 * A "word" is a maximal run of `[A-Za-z0-9_.]` with outer dots trimmed (sentence ends). A word that
 * is a dotted path counts once, as `dotted`; any other word with dots is split at the dots and each
 * part is classified alone (`foo_bar.baz` gives the lower_snake `foo_bar`). File names therefore
 * match through their stem (`HTTPServer.java` → camelCase `HTTPServer`), as the method assumes.
 * Literal reading of the method: `python3.9` is a dotted path (digits last), `3.0.3` is not (a part
 * must start with a letter).
 */

import { charClass } from './identifier-split.js';

/** Which of the four patterns an identifier matched. */
export type IdentifierPattern = 'upperSnake' | 'lowerSnake' | 'dotted' | 'camelCase';

/** One identifier occurrence: its text as written and the pattern it matched. */
export interface IdentifierHit {
  text: string;
  pattern: IdentifierPattern;
}

const DOT = 46;
const UNDERSCORE = 95;

/**
 * Calls `onWord(start, end)` for each maximal run of `[A-Za-z0-9_.]` in `text`, outer dots trimmed
 * (empty runs skipped). Linear in `text.length`.
 */
export function forEachDottedWord(text: string, onWord: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c !== DOT && charClass(c) === 0) {
      i++;
      continue;
    }
    let s = i;
    for (i++; i < n; i++) {
      const d = text.charCodeAt(i);
      if (d !== DOT && charClass(d) === 0) break;
    }
    let e = i;
    while (s < e && text.charCodeAt(s) === DOT) s++;
    while (e > s && text.charCodeAt(e - 1) === DOT) e--;
    if (e > s) onWord(s, e);
  }
}

/**
 * Calls `onHit(start, end, pattern)` for each identifier occurrence in `text`, in order.
 * Linear time; allocates nothing for words that match no pattern.
 */
export function scanIdentifiers(text: string, onHit: (start: number, end: number, pattern: IdentifierPattern) => void): void {
  forEachDottedWord(text, (s, e) => {
    // Fast reject: a word with no capital, `_` or `.` matches no pattern (most English words).
    let dot = -1;
    let candidate = false;
    for (let i = s; i < e; i++) {
      const c = text.charCodeAt(i);
      if (c === DOT) {
        if (dot < 0) dot = i;
        candidate = true;
      } else {
        const k = charClass(c);
        if (k === 1 || k === 4) candidate = true;
      }
    }
    if (!candidate) return;
    if (dot < 0) {
      const p = classifyRange(text, s, e);
      if (p !== undefined) onHit(s, e, p);
      return;
    }
    if (isDottedPathRange(text, s, e)) {
      onHit(s, e, 'dotted');
      return;
    }
    let ps = s;
    for (let i = s; i <= e; i++) {
      if (i < e && text.charCodeAt(i) !== DOT) continue;
      if (i > ps) {
        const p = classifyRange(text, ps, i);
        if (p !== undefined) onHit(ps, i, p);
      }
      ps = i + 1;
    }
  });
}

/** All identifier occurrences in `text`, in order (duplicates kept). Linear time. */
export function findIdentifiers(text: string): IdentifierHit[] {
  const hits: IdentifierHit[] = [];
  scanIdentifiers(text, (s, e, pattern) => hits.push({ text: text.slice(s, e), pattern }));
  return hits;
}

/**
 * The pattern of a word without dots, or undefined: snake patterns when it holds an inner `_`
 * (outer underscores ignored), else CamelCase.
 */
export function classifySimple(word: string): IdentifierPattern | undefined {
  return classifyRange(word, 0, word.length);
}

/** {@link classifySimple} on `text[s, e)`, which holds no dot. */
function classifyRange(text: string, s: number, e: number): IdentifierPattern | undefined {
  while (s < e && text.charCodeAt(s) === UNDERSCORE) s++;
  while (e > s && text.charCodeAt(e - 1) === UNDERSCORE) e--;
  if (e - s < 2) return undefined;
  let upper = 0;
  let lower = 0;
  let inner = false;
  for (let i = s; i < e; i++) {
    const k = charClass(text.charCodeAt(i));
    if (k === 1) upper++;
    else if (k === 2) lower++;
    else if (k === 4) inner = true;
  }
  const k0 = charClass(text.charCodeAt(s));
  if (k0 !== 1 && k0 !== 2) return undefined;
  if (inner) {
    // UPPER_SNAKE / lower_snake: two or more parts, first starting with a letter, one letter case.
    if (upper > 0 && lower > 0) return undefined;
    return upper > 0 ? 'upperSnake' : 'lowerSnake';
  }
  return isCamelRange(text, s, e, upper, lower) ? 'camelCase' : undefined;
}

/**
 * CamelCase: starts with a letter (checked by the caller), has both cases, and splits into at least
 * two parts by `splitIdentifier`. Mixed case splits into ≥ 2 parts unless it is one capital followed
 * only by lower-case letters (`Hello`), so no split is needed.
 */
function isCamelRange(text: string, s: number, e: number, upper: number, lower: number): boolean {
  if (upper === 0 || lower === 0) return false;
  if (charClass(text.charCodeAt(s)) !== 1) return true;
  for (let i = s + 1; i < e; i++) if (charClass(text.charCodeAt(i)) !== 2) return true;
  return false;
}

/**
 * A CamelCase word: starts with a letter, letters and digits only, has both upper- and lower-case
 * letters, and splits into at least two parts by `splitIdentifier` (`HTTPServer`, `getFoo`,
 * `iPhone`; not `HTTP`, `Hello`, `abc123`).
 */
export function isCamelCaseWord(word: string): boolean {
  const k0 = charClass(word.charCodeAt(0));
  if (k0 !== 1 && k0 !== 2) return false;
  let upper = 0;
  let lower = 0;
  for (let i = 0; i < word.length; i++) {
    const k = charClass(word.charCodeAt(i));
    if (k === 1) upper++;
    else if (k === 2) lower++;
    else if (k !== 3) return false;
  }
  return isCamelRange(word, 0, word.length, upper, lower);
}

/**
 * A dotted path per the method: two or more non-empty parts, the first starting with a letter or
 * `_`, every part but the last an identifier, and the last either CamelCase (a capital followed by
 * a lower-case letter somewhere, `Foo`, or a CamelCase word, `assertEqual`) or all digits.
 */
export function isDottedPath(parts: readonly string[]): boolean {
  if (parts.length < 2 || parts.some((p) => p.length === 0 || p.indexOf('.') >= 0)) return false;
  const word = parts.join('.');
  return isDottedPathRange(word, 0, word.length);
}

function isDottedPathRange(text: string, s: number, e: number): boolean {
  let ps = s;
  let nParts = 0;
  for (let i = s; i < e; i++) {
    if (text.charCodeAt(i) !== DOT) continue;
    if (!isIdentifierRange(text, ps, i)) return false;
    nParts++;
    ps = i + 1;
  }
  if (nParts === 0 || ps >= e) return false;
  // the last part
  let digits = true;
  let upper = 0;
  let lower = 0;
  let other = false;
  for (let i = ps; i < e; i++) {
    const k = charClass(text.charCodeAt(i));
    if (k !== 3) digits = false;
    if (k === 1) upper++;
    else if (k === 2) lower++;
    else if (k !== 3) other = true;
  }
  if (digits) return true;
  const k0 = charClass(text.charCodeAt(ps));
  if (k0 === 3 || k0 === 0) return false;
  if (k0 === 1 && lower > 0) return true; // `Foo`, `FooBar`, `HTTPServer`, `Foo_bar`
  return !other && k0 === 2 && isCamelRange(text, ps, e, upper, lower); // `assertEqual`
}

/** `[A-Za-z_][A-Za-z0-9_]*` */
export function isIdentifier(s: string): boolean {
  return isIdentifierRange(s, 0, s.length);
}

function isIdentifierRange(text: string, s: number, e: number): boolean {
  if (e <= s) return false;
  const k0 = charClass(text.charCodeAt(s));
  if (k0 === 0 || k0 === 3) return false;
  for (let i = s + 1; i < e; i++) if (charClass(text.charCodeAt(i)) === 0) return false;
  return true;
}
