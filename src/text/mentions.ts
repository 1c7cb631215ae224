/**
 * Code mentions in issue text, each found by one linear character scan (no backtracking regular
 * expressions, so a 1 MB body stays fast):
 *
 * - file paths with a code extension (`src/foo/bar.py`, `bar.py`, `Foo.java`, `lib\x.rs`);
 * - dotted names (`django.db.models.query`, `org.apache.Foo`);
 * - called names: a name written directly before `(` (`foo_bar(`, `obj.method(`).
 *
 * Results are unique, in order of first occurrence, as written (paths with `/` separators).
 */

import { CODE_EXTENSIONS, NON_MODULE_SUFFIXES, extensionOf } from './code-extensions.js';
import { charClass } from './identifier-split.js';
import { forEachDottedWord, isIdentifier } from './identifiers.js';

/** Characters that may appear in a path as written in text: `[A-Za-z0-9_.\-/\\~+@$]`. */
function isPathChar(c: number): boolean {
  return charClass(c) !== 0 || c === 46 || c === 45 || c === 47 || c === 92 || c === 126 || c === 43 || c === 64 || c === 36;
}

/**
 * Normalises one path-like run to a file path, or undefined when it does not end in a file name
 * with a code extension. Backslashes become `/`; a leading `./` and trailing dots go; in a
 * GitHub-style URL path (`//github.com/o/r/blob/REF/src/x.py`) the part after the ref is kept, other
 * URL paths are dropped.
 */
export function normaliseFilePath(run: string): string | undefined {
  let p = run.replace(/\\/g, '/');
  let e = p.length;
  while (e > 0 && p.charCodeAt(e - 1) === 46) e--;
  p = p.slice(0, e);
  if (p.startsWith('//')) {
    const m = /\/(?:blob|tree|raw|blame)\/[^/]+\/(.+)$/.exec(p);
    if (m === null) return undefined;
    p = m[1];
  }
  while (p.startsWith('./')) p = p.slice(2);
  const ext = extensionOf(p);
  if (!CODE_EXTENSIONS.has(ext)) return undefined;
  const base = p.slice(p.lastIndexOf('/') + 1, p.length - ext.length - 1);
  for (let i = 0; i < base.length; i++) {
    const k = charClass(base.charCodeAt(i));
    if (k === 1 || k === 2) return p;
  }
  return undefined;
}

/**
 * Calls `onPath` with each file path occurrence in `text` (see {@link normaliseFilePath}), in order,
 * duplicates included. Linear time.
 */
export function forEachFilePath(text: string, onPath: (path: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isPathChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const s = i;
    let hasDot = false;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (!isPathChar(c)) break;
      if (c === 46) hasDot = true;
    }
    if (!hasDot) continue; // a file name holds a dot: skip the allocation
    const p = normaliseFilePath(text.slice(s, i));
    if (p !== undefined) onPath(p);
  }
}

/** File paths with a code extension mentioned in `text`, unique, in first-occurrence order. */
export function findFilePaths(text: string): string[] {
  const seen = new Set<string>();
  forEachFilePath(text, (p) => seen.add(p));
  return [...seen];
}

/** Receiver names that start a dotted name but do not name a module or class. */
const RECEIVERS = new Set(['self', 'this', 'cls']);

/**
 * Dotted names in `text`: runs of two or more identifiers joined by single dots, not all of one
 * letter (`e.g`, `i.e`), not starting with a receiver (`self.x`), not ending in a code extension
 * (those are file paths) nor in a host or non-code file suffix (`github.com`, `pom.xml`).
 */
export function findDottedNames(text: string): string[] {
  const seen = new Set<string>();
  forEachDottedWord(text, (s, e) => {
    let dot = s;
    while (dot < e && text.charCodeAt(dot) !== 46) dot++;
    if (dot === e) return;
    const word = text.slice(s, e);
    const parts = word.split('.');
    let longPart = false;
    for (const part of parts) {
      if (!isIdentifier(part)) return;
      if (part.length > 1) longPart = true;
    }
    const last = parts[parts.length - 1].toLowerCase();
    if (!longPart || RECEIVERS.has(parts[0]) || CODE_EXTENSIONS.has(last) || NON_MODULE_SUFFIXES.has(last)) return;
    seen.add(word);
  });
  return [...seen];
}

/** Words that are followed by `(` in prose or code but are not calls. */
const NOT_CALLS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'elif', 'and', 'or', 'not', 'in', 'with', 'function', 'sizeof', 'typeof', 'def', 'fn', 'func']);

/**
 * Names written directly before `(`: `foo_bar(`, `obj.method(`, `pkg.Class.method(`. The name is
 * the run of `[A-Za-z0-9_.$]` before the parenthesis with outer dots trimmed; it must start with a
 * letter, `_` or `$`. Control keywords (`if(`, `while(`) are left out.
 */
export function findCalledNames(text: string): string[] {
  const seen = new Set<string>();
  let floor = 0;
  for (let p = text.indexOf('('); p >= 0; p = text.indexOf('(', p + 1)) {
    let s = p;
    while (s > floor && isNameChar(text.charCodeAt(s - 1))) s--;
    floor = p + 1;
    let e = p;
    while (s < e && text.charCodeAt(s) === 46) s++;
    while (e > s && text.charCodeAt(e - 1) === 46) e--;
    if (e === s) continue;
    const k0 = charClass(text.charCodeAt(s));
    if (k0 === 3 || (k0 === 0 && text.charCodeAt(s) !== 36)) continue;
    const name = text.slice(s, e);
    if (!NOT_CALLS.has(name)) seen.add(name);
  }
  return [...seen];
}

function isNameChar(c: number): boolean {
  return charClass(c) !== 0 || c === 46 || c === 36;
}
