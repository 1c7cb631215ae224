/**
 * The four identifier patterns of "file localisation from issues at large" (method notes,
 * `../shared/docs/method-notes.md`), recognised with a linear character scan, no regular
 * expressions:
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
 */

import { charClass } from './identifier-split.js';

/** Which of the four patterns an identifier matched. */
export type IdentifierPattern = 'upperSnake' | 'lowerSnake' | 'dotted' | 'camelCase';

/** One identifier occurrence: its text as written and the pattern it matched. */
export interface IdentifierHit {
  text: string;
  pattern: IdentifierPattern;
}

/**
 * Calls `onWord(start, end)` for each maximal run of `[A-Za-z0-9_.]` in `text`, outer dots trimmed
 * (empty runs skipped). Linear in `text.length`.
 */
export function forEachDottedWord(text: string, onWord: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isWordOrDot(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let s = i;
    while (i < n && isWordOrDot(text.charCodeAt(i))) i++;
    let e = i;
    while (s < e && text.charCodeAt(s) === 46) s++;
    while (e > s && text.charCodeAt(e - 1) === 46) e--;
    if (e > s) onWord(s, e);
  }
}

/** All identifier occurrences in `text`, in order (duplicates kept). Linear time. */
export function findIdentifiers(text: string): IdentifierHit[] {
  const hits: IdentifierHit[] = [];
  forEachDottedWord(text, (s, e) => {
    // Fast reject: a word with no capital, `_` or `.` matches no pattern (most English words).
    let i = s;
    for (; i < e; i++) {
      const k = charClass(text.charCodeAt(i));
      if (k === 1 || k === 4 || k === 0) break;
    }
    if (i === e) return;
    const word = text.slice(s, e);
    if (word.indexOf('.') < 0) {
      const p = classifySimple(word);
      if (p !== undefined) hits.push({ text: word, pattern: p });
      return;
    }
    const parts = word.split('.');
    if (isDottedPath(parts)) {
      hits.push({ text: word, pattern: 'dotted' });
      return;
    }
    for (const part of parts) {
      const p = classifySimple(part);
      if (p !== undefined) hits.push({ text: part, pattern: p });
    }
  });
  return hits;
}

/**
 * The pattern of a word without dots, or undefined: snake patterns when it holds an inner `_`
 * (outer underscores ignored), else CamelCase.
 */
export function classifySimple(word: string): IdentifierPattern | undefined {
  let s = 0;
  let e = word.length;
  while (s < e && word.charCodeAt(s) === 95) s++;
  while (e > s && word.charCodeAt(e - 1) === 95) e--;
  if (e - s < 2) return undefined;
  const core = s === 0 && e === word.length ? word : word.slice(s, e);
  if (core.indexOf('_') >= 0) return classifySnake(core);
  return isCamelCaseWord(core) ? 'camelCase' : undefined;
}

/**
 * UPPER_SNAKE or lower_snake for a word with inner underscores: two or more parts (runs of `_`
 * separate), first part starting with a letter, all letters of one case.
 */
function classifySnake(core: string): IdentifierPattern | undefined {
  if (charClass(core.charCodeAt(0)) !== 1 && charClass(core.charCodeAt(0)) !== 2) return undefined;
  let upper = 0;
  let lower = 0;
  for (let i = 0; i < core.length; i++) {
    const k = charClass(core.charCodeAt(i));
    if (k === 1) upper++;
    else if (k === 2) lower++;
  }
  if (upper > 0 && lower > 0) return undefined;
  return upper > 0 ? 'upperSnake' : 'lowerSnake';
}

/**
 * A CamelCase word: starts with a letter, has both upper- and lower-case letters, and splits into
 * at least two parts by `splitIdentifier` (`HTTPServer`, `getFoo`, `iPhone`; not `HTTP`,
 * `Hello`, `abc123`). Decided without allocating: see the comment in the body.
 */
export function isCamelCaseWord(word: string): boolean {
  const k0 = charClass(word.charCodeAt(0));
  if (k0 !== 1 && k0 !== 2) return false;
  let upper = false;
  let lower = false;
  for (let i = 0; i < word.length; i++) {
    const k = charClass(word.charCodeAt(i));
    if (k === 1) upper = true;
    else if (k === 2) lower = true;
    else if (k !== 3) return false;
  }
  if (!upper || !lower) return false;
  // Mixed case splits into >= 2 parts unless it is one capital and only lower-case letters after
  // it (`Hello`), per splitIdentifier's rules.
  if (k0 !== 1) return true;
  for (let i = 1; i < word.length; i++) if (charClass(word.charCodeAt(i)) !== 2) return true;
  return false;
}

/**
 * A dotted path per the method: two or more non-empty parts, the first starting with a letter or
 * `_`, every part but the last an identifier, and the last either CamelCase (a capital followed by
 * a lower-case letter somewhere, `Foo`, or a CamelCase word, `assertEqual`) or all digits.
 */
export function isDottedPath(parts: readonly string[]): boolean {
  if (parts.length < 2) return false;
  for (let i = 0; i < parts.length - 1; i++) if (!isIdentifier(parts[i])) return false;
  const last = parts[parts.length - 1];
  if (last.length === 0) return false;
  if (isDigits(last)) return true;
  if (!isIdentifier(last)) return false;
  if (isCamelCaseWord(last)) return true;
  if (charClass(last.charCodeAt(0)) !== 1) return false;
  for (let i = 1; i < last.length; i++) if (charClass(last.charCodeAt(i)) === 2) return true;
  return false;
}

/** `[A-Za-z_][A-Za-z0-9_]*` */
export function isIdentifier(s: string): boolean {
  if (s.length === 0) return false;
  const k0 = charClass(s.charCodeAt(0));
  if (k0 === 0 || k0 === 3) return false;
  for (let i = 1; i < s.length; i++) if (charClass(s.charCodeAt(i)) === 0) return false;
  return true;
}

function isDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (charClass(s.charCodeAt(i)) !== 3) return false;
  return s.length > 0;
}

function isWordOrDot(c: number): boolean {
  return c === 46 || charClass(c) !== 0;
}
