/**
 * Code mentions in issue text, each found by one linear character scan (no backtracking regular
 * expressions, so a 1 MB body stays fast):
 *
 * - file paths with a code extension (`src/foo/bar.py`, `bar.py`, `Foo.java`, `lib\x.rs`);
 * - dotted names (`django.db.models.query`, `org.apache.Foo`);
 * - called names: a name written directly before `(` (`foo_bar(`, `obj.method(`);
 * - scoped names: identifiers joined by `::` or `#` (`crate::module::func`, `Type::method`,
 *   `ns::Class::~Class`, `Class#method`), the name paths of Rust, C++, Ruby and Javadoc.
 *
 * Results are unique, in order of first occurrence, as written (paths with `/` separators).
 */

import { CODE_EXTENSIONS, NON_MODULE_SUFFIXES, extensionOf } from './code-extensions.js';
import { charClass } from './identifier-split.js';
import { forEachDottedWord } from './identifiers.js';

/** Longest extension in CODE_EXTENSIONS (`svelte`, `groovy`, `gradle`). */
const MAX_EXT = Math.max(...[...CODE_EXTENSIONS].map((x) => x.length));

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
  const memo = new Map<string, string | undefined>(); // traces repeat their paths
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isPathChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const s = i;
    let lastDot = -1;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (!isPathChar(c)) break;
      if (c === 46) lastDot = i;
    }
    // Cheap test before any allocation: the run must end in `.ext` with a code extension
    // (trailing sentence dots aside).
    let e = i;
    while (e > s && text.charCodeAt(e - 1) === 46) e--;
    if (e < i) {
      lastDot = -1;
      for (let j = e - 1; j > s; j--) {
        if (text.charCodeAt(j) === 46) {
          lastDot = j;
          break;
        }
      }
    }
    if (lastDot <= s || e - lastDot - 1 > MAX_EXT || !CODE_EXTENSIONS.has(text.slice(lastDot + 1, e).toLowerCase())) continue;
    const run = text.slice(s, e);
    let p = memo.get(run);
    if (p === undefined && !memo.has(run)) {
      p = normaliseFilePath(run);
      memo.set(run, p);
    }
    if (p !== undefined) onPath(p);
  }
}

/** File paths with a code extension mentioned in `text`, unique, in first-occurrence order. */
export function findFilePaths(text: string): string[] {
  const seen = new Set<string>();
  forEachFilePath(text, (p) => seen.add(p));
  return [...seen];
}

/**
 * Dotted names of more parts are not names of code (the longest in 3,000 real issues has 12 parts):
 * they are left out, so that resolving a name costs a bounded time whatever the text holds.
 */
export const MAX_DOTTED_PARTS = 32;

/**
 * Dotted and called names longer than this many characters are left out (the longest in 3,000
 * real issues has 128).
 */
export const MAX_NAME_CHARS = 256;

/** Receiver names that start a dotted name but do not name a module or class. */
const RECEIVERS = new Set(['self', 'this', 'cls']);

/**
 * Dotted names in `text`: runs of two or more identifiers joined by single dots, not all of one
 * letter (`e.g`, `i.e`), not starting with a receiver (`self.x`), not ending in a code extension
 * (those are file paths) nor in a host or non-code file suffix (`github.com`, `pom.xml`), of at
 * most {@link MAX_DOTTED_PARTS} parts and {@link MAX_NAME_CHARS} characters. Linear time.
 */
export function findDottedNames(text: string): string[] {
  const seen = new Set<string>();
  forEachDottedWord(text, (s, e) => {
    if (e - s > MAX_NAME_CHARS) return;
    // parts must be identifiers: start with a letter or `_`, no empty part (`a..b`)
    let ps = s;
    let longPart = false;
    let firstEnd = -1;
    let lastStart = s;
    let nParts = 0;
    for (let i = s; i <= e; i++) {
      if (i < e && text.charCodeAt(i) !== 46) continue;
      if (i === ps || ++nParts > MAX_DOTTED_PARTS) return;
      const k0 = charClass(text.charCodeAt(ps));
      if (k0 === 0 || k0 === 3) return;
      if (i - ps > 1) longPart = true;
      if (firstEnd < 0) firstEnd = i;
      lastStart = ps;
      ps = i + 1;
    }
    if (firstEnd === e || !longPart) return; // no dot, or all parts of one letter (`e.g`)
    const last = text.slice(lastStart, e).toLowerCase();
    if (CODE_EXTENSIONS.has(last) || NON_MODULE_SUFFIXES.has(last) || RECEIVERS.has(text.slice(s, firstEnd))) return;
    seen.add(text.slice(s, e));
  });
  return [...seen];
}

/** Words that are followed by `(` in prose or code but are not calls. */
const NOT_CALLS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'elif', 'and', 'or', 'not', 'in', 'with', 'function', 'sizeof', 'typeof', 'def', 'fn', 'func']);

/**
 * Names written directly before `(`: `foo_bar(`, `obj.method(`, `pkg.Class.method(`. The name is
 * the run of `[A-Za-z0-9_.$]` before the parenthesis with outer dots trimmed; it must start with a
 * letter, `_` or `$` and be at most {@link MAX_NAME_CHARS} long. Control keywords (`if(`,
 * `while(`) are left out. Linear time.
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
    if (e === s || e - s > MAX_NAME_CHARS) continue;
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

/**
 * Names written as inline code: the identifiers inside single-backtick spans of Markdown and
 * reStructuredText (`` `simplify` ``, ``` ``Model.save()`` ```) — on a line, at most 200 characters
 * long, fenced blocks excluded. Dotted names give their last part too (`Model.save` → `save`).
 * Unique, in order of first occurrence; linear time.
 */
export function findInlineCodeNames(text: string): string[] {
  const names = new Set<string>();
  const span = /(?<!`)`{1,2}([^`\n]{1,200})`{1,2}(?!`)/g;
  const word = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/g;
  let m: RegExpExecArray | null;
  while ((m = span.exec(text)) !== null) {
    for (const w of m[1].match(word) ?? []) {
      names.add(w);
      const dot = w.lastIndexOf('.');
      if (dot >= 0) names.add(w.slice(dot + 1));
    }
  }
  return [...names];
}

/** The hash ending a Rust symbol's path in a full backtrace (`::h` and 16 hexadecimal digits). */
const RUST_SYMBOL_HASH = /::h[0-9a-f]{16}$/;

/**
 * Names of two or more identifiers joined by `::` (Rust, C++: `crate::module::func`,
 * `fmt::v10::detail::checker`, `Capturer::~Capturer`) or by one `#` after a capitalised
 * identifier (Javadoc, Ruby: `Gson#toJson`), as written. A leading `::` (C++ global scope) is
 * dropped; template or generic arguments end the name (`std::vector<int>::iterator` →
 * `std::vector`); a Rust symbol's trailing hash is dropped (`a::f::h0712a4b45b3332c6` → `a::f`); a `#` name must not follow `.`, `/` or `#` (URL fragments, `a.html#x`). At most
 * {@link MAX_DOTTED_PARTS} parts and {@link MAX_NAME_CHARS} characters. Unique, in order of first
 * occurrence; linear time.
 */
export function findScopedNames(text: string): string[] {
  const seen = new Set<string>();
  const n = text.length;
  const identEnd = (i: number) => {
    while (i < n && charClass(text.charCodeAt(i)) !== 0) i++;
    return i;
  };
  const startsIdent = (i: number) => {
    if (i >= n) return false;
    const k = charClass(text.charCodeAt(i));
    return k === 1 || k === 2 || k === 4;
  };
  let i = 0;
  while (i < n) {
    if (!startsIdent(i) || (i > 0 && charClass(text.charCodeAt(i - 1)) !== 0)) {
      i++;
      continue;
    }
    const s = i;
    let e = identEnd(i);
    let parts = 1;
    const firstUpper = charClass(text.charCodeAt(s)) === 1;
    const prev = s > 0 ? text.charCodeAt(s - 1) : 0;
    for (;;) {
      if (text.charCodeAt(e) === 58 && text.charCodeAt(e + 1) === 58) {
        const t = text.charCodeAt(e + 2) === 126 ? e + 3 : e + 2; // `::~Dtor`
        if (!startsIdent(t)) break;
        e = identEnd(t);
      } else if (text.charCodeAt(e) === 35 && parts === 1 && firstUpper && prev !== 46 && prev !== 47 && prev !== 35 && startsIdent(e + 1)) {
        e = identEnd(e + 1);
      } else break;
      if (++parts > MAX_DOTTED_PARTS) break;
    }
    i = e;
    if (parts < 2 || parts > MAX_DOTTED_PARTS || e - s > MAX_NAME_CHARS) continue;
    const name = text.slice(s, e);
    // a Rust symbol's hash (`crate::f::h0712a4b45b3332c6`, full backtraces) is no part of its name
    const hash = parts > 2 ? RUST_SYMBOL_HASH.exec(name) : null;
    seen.add(hash ? name.slice(0, hash.index) : name);
  }
  return [...seen];
}

/**
 * The parts of a scoped name (`a::b::~C` → `a`, `b`, `~C`; `Gson#toJson` → `Gson`, `toJson`), as
 * unit qualified names write them.
 */
export function scopedNameParts(name: string): string[] {
  return name.split(/::|#/).filter((p) => p.length > 0);
}
