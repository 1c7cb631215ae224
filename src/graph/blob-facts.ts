/**
 * What the code graph needs of one source file, read from its text alone: the modules it imports
 * (as written: `a.b.c`, `./x`, `"x.h"`, …) and the names it calls, with their lines. A blob's facts
 * depend on its bytes and language only, so they are cached per blob (src/graph/facts-cache.ts)
 * and a new commit reads only the blobs that changed.
 *
 * Scanning is lexical (regular expressions over the text with comments and strings kept): a call
 * is an identifier followed by `(` that is not a keyword or a definition (`def f(`, `function f(`,
 * `fn f(`, `func f(`); Java/C-style declarations (`void f(`) are calls of their own unit's name,
 * which the graph drops as self-loops.
 */
import { languageOf, type Language } from '../corpus/languages.js';

/** The facts of one blob. */
export interface BlobFacts {
  /** Import specifiers as written (deduplicated, in order of appearance). */
  imports: string[];
  /** Called names and the 1-based lines they are called on: [name, line], each pair once. */
  calls: [string, number][];
}

/** At most this many imports and calls are kept per file (the first ones): bounds a generated file. */
export const MAX_IMPORTS = 500;
export const MAX_CALLS = 20_000;

const KEYWORDS = new Set([
  'if', 'for', 'while', 'switch', 'return', 'catch', 'function', 'def', 'fn', 'func', 'elif', 'and', 'or', 'not',
  'in', 'is', 'print', 'assert', 'lambda', 'with', 'yield', 'await', 'typeof', 'sizeof', 'new', 'delete', 'throw',
  'super', 'this', 'self', 'match', 'case', 'when', 'else', 'do', 'try', 'import', 'require', 'synchronized',
  'foreach', 'using', 'defined', 'alignof', 'decltype', 'static_assert', 'instanceof', 'void', 'except', 'raise',
  'from', 'as', 'class', 'struct', 'enum', 'union', 'loop', 'unless', 'until', 'elsif', 'puts', 'go', 'defer',
  'select', 'range', 'make', 'len', 'isinstance', 'str', 'int', 'float', 'list', 'dict', 'set', 'tuple', 'bool',
  'getattr', 'setattr', 'hasattr', 'type', 'object', 'include', 'Some', 'Ok', 'Err', 'vec', 'println', 'format',
]);

/** Words before a name that make `name(` a definition, not a call. */
const DEFINERS = /(?:\bdef|\bfunction\*?|\bfn|\bfunc(?:\s*\([^)]*\))?|\bclass|\binterface|\bstruct)\s+$/;

const CALL = /\b([A-Za-z_$][A-Za-z0-9_$]*)\s*(?:<[^<>()\n]{0,80}>\s*)?\(/g;

/** Import statements per language: each regular expression's groups hold specifiers. */
const IMPORTS: Partial<Record<Language, RegExp[]>> = {
  python: [/^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w ,\t*\\\n]+)\)?/gm, /^[ \t]*import[ \t]+([\w., \t]+)/gm],
  cython: [/^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+c?import[ \t]+\(?([\w ,\t*\\\n]+)\)?/gm, /^[ \t]*c?import[ \t]+([\w., \t]+)/gm],
  javascript: [/\bimport\s*(?:[\w*{}\s,$]+?\s*from\s*)?['"]([^'"\n]+)['"]/g, /\bexport\s*[\w*{}\s,$]*?\s*from\s*['"]([^'"\n]+)['"]/g, /\b(?:require|import)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g],
  java: [/^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.]+(?:\.\*)?)[ \t]*;/gm],
  kotlin: [/^[ \t]*import[ \t]+([\w.]+(?:\.\*)?)/gm],
  scala: [/^[ \t]*import[ \t]+([\w.]+)/gm],
  go: [/^[ \t]*import[ \t]+(?:[\w.]+[ \t]+)?"([^"\n]+)"/gm, /^[ \t]*(?:[\w.]+[ \t]+)?"([^"\n]+)"[ \t]*$/gm],
  rust: [/^[ \t]*(?:pub(?:\([\w:]+\))?[ \t]+)?use[ \t]+([\w:]+)/gm, /^[ \t]*(?:pub(?:\([\w:]+\))?[ \t]+)?mod[ \t]+(\w+)[ \t]*;/gm],
  c: [/^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]/gm],
};
IMPORTS.typescript = IMPORTS.javascript;
IMPORTS.cpp = IMPORTS.c;
IMPORTS.objc = IMPORTS.c;

/**
 * The facts of a file at `path` (its language by extension) with text `text`. Linear in the text.
 */
export function factsOf(path: string, text: string): BlobFacts {
  const language = languageOf(path);
  return { imports: language ? importsOf(language, text) : [], calls: callsOf(text) };
}

/** The import specifiers of `text` in `language`: Python `from a import b, c` gives `a.b`, `a.c` and `a`. */
function importsOf(language: Language, text: string): string[] {
  const out = new Set<string>();
  const add = (s: string) => { if (out.size < MAX_IMPORTS && s) out.add(s); };
  for (const re of IMPORTS[language] ?? []) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      if (language === 'go' && re !== IMPORTS.go![0] && !inGoImportBlock(text, m.index)) continue;
      if (language === 'python' || language === 'cython') {
        if (m[2] === undefined) {
          for (const part of m[1].split(',')) add(part.trim().split(/\s+/)[0]);
        } else {
          add(m[1]);
          const base = m[1].endsWith('.') ? m[1] : `${m[1]}.`;
          for (const part of m[2].replace(/\\\n/g, ' ').split(',')) {
            const name = part.trim().split(/\s+/)[0];
            if (name && name !== '*') add(base + name);
          }
        }
      } else add(m[1].trim());
    }
  }
  return [...out];
}

/** Whether offset `at` lies inside a Go `import ( … )` block. */
function inGoImportBlock(text: string, at: number): boolean {
  const open = text.lastIndexOf('import (', at);
  if (open < 0) return false;
  const close = text.indexOf(')', open);
  return close > at;
}

/** The called names of `text` with their lines, each (name, line) once, at most {@link MAX_CALLS}. */
function callsOf(text: string): [string, number][] {
  const out: [string, number][] = [];
  const seen = new Set<string>();
  let line = 1;
  let scanned = 0;
  CALL.lastIndex = 0;
  for (const m of text.matchAll(CALL)) {
    const name = m[1];
    if (name.length < 2 || KEYWORDS.has(name)) continue;
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    if (DEFINERS.test(before)) continue;
    for (let k = text.indexOf('\n', scanned); k >= 0 && k < m.index; k = text.indexOf('\n', k + 1)) { line++; scanned = k + 1; }
    const key = `${name}\n${line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([name, line]);
    if (out.length >= MAX_CALLS) break;
  }
  return out;
}
