/**
 * Why a gold file missed the top k (docs/multi-language.md): one cause per missed gold file, from facts
 * about the file, the index and the issue (bench/multi-swe-analysis.ts gathers them), and flags
 * of the issue text (stack traces, qualified mentions) that say what the issue offered.
 *
 * Causes, checked in this order (the first that holds):
 * - `non-source`: no code extension (CHANGELOG.md, Cargo.toml, CMakeLists.txt, docs): never indexed;
 * - `not indexed`: code, but left out of the index (test rule, vendored folder, size cap);
 * - `no unit`: indexed, but tree-sitter gave the file no function or class unit;
 * - `change outside units`: the fix changes lines of the file, none inside a unit (macros,
 *   `impl` blocks, declarations in headers, classes behind export macros …);
 * - `header/implementation pair`: a file of the same stem and directory (`x.h` / `x.c`) is in the top k;
 * - `same directory ranked instead`: another file of the same directory and extension (a Go
 *   package, a Rust crate's module, a JS folder) is in the top k;
 * - `named in issue`: the issue writes the file's path, name or stem, and it still missed;
 * - `multi-file (another gold in top k)`: the issue changes several files, some of them ranked;
 * - by rank otherwise (vocabulary mismatch): `near miss (rank 6–10)`, `ranked 11–100`, `not in top 100`.
 */
import { extensionOf } from '../../src/corpus/languages.js';

/** Facts about one missed gold file. */
export interface MissFacts {
  path: string;
  /** 1-based rank in the system's ranking; null when not ranked (within its depth). */
  rank: number | null;
  /** The path has a code extension (`languageOf`). */
  source: boolean;
  /** The index has a file-level document for it. */
  indexed: boolean;
  /** Function and class units of the file in the index. */
  units: number;
  /** Old-side lines the fix changes in the file (removed lines, and the line an insertion follows). */
  changedLines: readonly number[];
  /** Line ranges [start, end] (1-based, inclusive) of the file's units. */
  unitRanges: readonly (readonly [number, number])[];
  /** The system's top k files. */
  top: readonly string[];
  /** The gold files. */
  gold: readonly string[];
  /** The issue text. */
  text: string;
}

export const MISS_CAUSES = [
  'non-source', 'not indexed', 'no unit', 'change outside units', 'header/implementation pair', 'same directory ranked instead',
  'named in issue', 'multi-file (another gold in top k)', 'near miss (rank 6-10)', 'ranked 11-100', 'not in top 100',
] as const;
export type MissCause = (typeof MISS_CAUSES)[number];

const HEADER = new Set(['h', 'hh', 'hpp', 'hxx', 'h++', 'inl', 'ipp', 'tpp']);
const IMPLEMENTATION = new Set(['c', 'cc', 'cpp', 'cxx', 'c++', 'm', 'mm']);

/** `dir/stem` of a path (extension dropped). */
function stemOf(path: string): string {
  const ext = extensionOf(path);
  return ext ? path.slice(0, -(ext.length + 1)) : path;
}

function dirOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}

/** The header of an implementation file, or the reverse, among `files` (same directory and stem). */
export function pairedFile(path: string, files: readonly string[]): string | undefined {
  const ext = extensionOf(path);
  const other = HEADER.has(ext) ? IMPLEMENTATION : IMPLEMENTATION.has(ext) ? HEADER : undefined;
  if (!other) return undefined;
  const stem = stemOf(path).replace(/^.*\//, '');
  // headers often live apart (include/fmt/core.h ↔ src/core.cc): same stem, any directory
  return files.find((f) => f !== path && other.has(extensionOf(f)) && stemOf(f).replace(/^.*\//, '') === stem);
}

/** Whether the issue text writes the file's path, its name, or its stem as a word (stems of 4+ characters). */
export function namesFile(text: string, path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (text.includes(path) || text.includes(name)) return true;
  const stem = stemOf(name);
  if (stem.length < 4) return false;
  return new RegExp(`(^|[^A-Za-z0-9_])${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`).test(text);
}

/** The cause of one miss (see the module comment). */
export function missCause(f: MissFacts): MissCause {
  if (!f.source) return 'non-source';
  if (!f.indexed) return 'not indexed';
  if (f.units === 0) return 'no unit';
  if (f.changedLines.length > 0 && !f.changedLines.some((l) => f.unitRanges.some(([s, e]) => l >= s && l <= e))) return 'change outside units';
  if (pairedFile(f.path, f.top)) return 'header/implementation pair';
  if (f.top.some((t) => t !== f.path && dirOf(t) === dirOf(f.path) && extensionOf(t) === extensionOf(f.path))) return 'same directory ranked instead';
  if (namesFile(f.text, f.path)) return 'named in issue';
  if (f.gold.length > 1 && f.gold.some((g) => g !== f.path && f.top.includes(g))) return 'multi-file (another gold in top k)';
  if (f.rank !== null && f.rank <= 10) return 'near miss (rank 6-10)';
  if (f.rank !== null && f.rank <= 100) return 'ranked 11-100';
  return 'not in top 100';
}

/** Mention forms and stack-trace formats an issue text may hold (flags of the analysis). */
export const TEXT_FLAGS = {
  'path::name (Rust, C++)': /\b[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+/,
  'pkg.Func (Go)': /\b[a-z][a-z0-9]*\.[A-Z]\w*\b/,
  'Class#method': /\b[A-Z]\w*#[a-z_]\w*/,
  'file.ext:line': /\b[\w./-]+\.(?:c|h|cc|cpp|hpp|cxx|rs|go|java|js|ts|jsx|tsx|mjs):\d+/,
  'stack trace': /panicked at|^goroutine \d+ \[|^\s+at [\w.$<>]+\(|^\s+at .*\(?[\w./-]+\.[jt]sx?:\d+:\d+\)?|^#\d+\s+0x[0-9a-f]+ in |stack backtrace:|^Traceback/m,
} as const;
export type TextFlag = keyof typeof TEXT_FLAGS;

/** The {@link TEXT_FLAGS} an issue text shows. */
export function textFlags(text: string): TextFlag[] {
  return (Object.keys(TEXT_FLAGS) as TextFlag[]).filter((k) => TEXT_FLAGS[k].test(text));
}
