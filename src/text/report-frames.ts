/**
 * Frames of error reports that are not call stacks: the locations compilers, linkers, test runners
 * and browsers print (see {@link FrameFormat}):
 *
 * - C / C++ compilers (gcc, clang, MSVC): `path/x.cpp:N:M: error: …` (also `fatal error`,
 *   `warning`, `note`, and MSVC's `x.cpp(N): error C…`); the include chain `In file included from
 *   a.h:N,` and its `                 from b.h:N:` lines; the linker's `undefined reference to
 *   'ns::f()'` (GNU ld) and `undefined symbol: ns::f()` (lld);
 * - javac `Foo.java:N: error: …`; TypeScript `src/x.ts(N,M): error TS…` and `src/x.ts:N:M - error TS…`;
 * - Go: `x_test.go:N: message` (go test), `./x.go:N:M: message` (go build, go vet), the line
 *   starting with the location;
 * - rustc: `--> src/x.rs:N:M` (the error's place) and `::: path.rs:N:M` (a related place);
 * - Firefox and Safari stacks: `fn@path/x.js:N:M`, `@path/x.js:N:M`.
 *
 * Python files are never read here (their reports are src/text/stack-frames.ts's). Each line is
 * tested with `indexOf` anchors and regular expressions with bounded repeats on bounded slices, so
 * the time is linear in the text.
 */

import { C_FAMILY_EXTENSIONS, extensionOf } from './code-extensions.js';
import { cFunctionName, firstNonSpace, pathStart, rawOf, slashes, splitQualified, type Add, type FrameKind, type StackFrame } from './frame-text.js';

/** Extensions of JavaScript and TypeScript sources (and single-file components). */
const JS_FAMILY: ReadonlySet<string> = new Set(['js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts', 'vue', 'svelte']);

/** Severity words after a compiler location, each with its frame kind. */
const SEVERITY: readonly (readonly [string, FrameKind])[] = [
  [': error', 'site'], [': fatal error', 'site'], [': warning', 'site'], [': note', 'note'],
  ['): error', 'site'], ['): fatal error', 'site'], ['): warning', 'site'], ['): note', 'note'],
  [' - error TS', 'site'], [' - warning TS', 'site'],
];
/** The location just before a severity word: `.ext:N[:M]` or `.ext(N[,M])` (the `)` is the anchor's). */
const BEFORE_SEVERITY = /\.([A-Za-z+]{1,4})(?::(\d{1,9})(?::\d{1,9})?|\((\d{1,9})(?:,\d{1,9})?)$/;
/** `In file included from a.h:N[:M],` (or `:` at the end), and the chain's `from b.h:N[:M],` lines. */
const INCLUDE = /^(?:In file included from|\s+from)\s+(\S{1,2000}?):(\d{1,9})(?::\d{1,9})?[,:]?$/;
/** A Go location that starts the line: `x_test.go:N: message` or `./x.go:N:M: message`. */
const GO_REPORT = /\.go:(\d{1,9})(?::\d{1,9})?: \S/y;
/** rustc: `--> src/x.rs:N:M` (the place) and `::: path.rs:N:M` (a related place). */
const RUSTC = /^\s*(-->|:::)\s+(\S{1,2000}\.rs):(\d{1,9})(?::\d{1,9})?\s*$/;
/** Firefox / Safari frame: `name@location:N:M`, the name without spaces or `@` after an async cause `promise callback*`. */
const FIREFOX = /^((?:[^@*]{0,100}\*)?[^\s@*]{0,500})@(\S{1,2000}):(\d{1,9}):(\d{1,9})$/;
/** The symbol of a linker error: quoted after `undefined reference to` (GNU ld), after `undefined symbol:` (lld). */
const LINKER = /undefined reference to [`'‘"]([^`'’"\r\n]{1,1000})|undefined symbol: ([^\r\n]{1,1000})/;

/** Reads the report frames of a text, one line at a time (lines in text order, CR removed). */
export class ReportFrames {
  constructor(private readonly add: Add) {}

  /** The frames of one non-empty line. Lines over 3,000 characters are not read. */
  line(line: string): void {
    if (line.length > 3000) return;
    if (line.indexOf('In file included from') >= 0 || line.indexOf(' from ') >= 0) this.include(line);
    if (line.indexOf(': ') >= 0 || line.indexOf(' - ') >= 0) this.diagnostic(line);
    if (line.indexOf('.go:') >= 0) this.goReport(line);
    if (line.indexOf('.rs:') >= 0) this.rustc(line);
    if (line.indexOf('@') >= 0) this.firefox(line);
    if (line.indexOf('undefined ') >= 0) this.linker(line);
  }

  /** gcc / clang / MSVC / javac / tsc: a location followed by a severity word. */
  private diagnostic(line: string): void {
    let best = -1;
    let kind: FrameKind = 'site';
    let anchorLength = 0;
    for (const [word, k] of SEVERITY) {
      const at = line.indexOf(word);
      if (at >= 0 && (best < 0 || at < best)) {
        best = at;
        kind = k;
        anchorLength = word.startsWith(')') ? 1 : 0;
      }
    }
    if (best < 0) return;
    const from = Math.max(0, best - 40);
    const before = line.slice(from, best);
    const m = BEFORE_SEVERITY.exec(before);
    if (m === null) return;
    const dot = from + m.index;
    if ((anchorLength === 1) !== (m[3] !== undefined)) return; // `(N)` goes with `): error`, `:N` with `: error`
    const start = pathStart(line, dot, 0);
    if (start === dot) return;
    const file = slashes(line.slice(start, dot + 1 + m[1].length));
    const lineNo = Number(m[2] ?? m[3]);
    const ext = extensionOf(file);
    const isTs = line.indexOf(' TS', best) >= 0;
    if (C_FAMILY_EXTENSIONS.has(ext) && !isTs) this.add({ language: 'c', format: 'cc-diagnostic', kind, file, line: lineNo, raw: rawOf(line) });
    else if (JS_FAMILY.has(ext) && isTs) this.add({ language: 'javascript', format: 'tsc', kind, file, line: lineNo, raw: rawOf(line) });
    else if (ext === 'java' && !isTs) this.add({ language: 'java', format: 'javac', kind, file, line: lineNo, raw: rawOf(line) });
  }

  /** The include chain of a C / C++ compiler error. */
  private include(line: string): void {
    const i = line.indexOf('In file included from');
    const m = INCLUDE.exec(i > 0 ? line.slice(i) : line);
    if (m === null || !C_FAMILY_EXTENSIONS.has(extensionOf(m[1]))) return;
    this.add({ language: 'c', format: 'cc-include', kind: 'note', file: slashes(m[1]), line: Number(m[2]), raw: rawOf(line) });
  }

  /** go test / go build / go vet: a line that starts with `path.go:N[:M]: ` and a message. */
  private goReport(line: string): void {
    const first = firstNonSpace(line);
    const at = line.indexOf('.go:', first);
    if (at <= first || pathStart(line, at, first) !== first) return;
    GO_REPORT.lastIndex = at;
    const m = GO_REPORT.exec(line);
    if (m === null) return;
    const file = slashes(line.slice(first, at + 3));
    this.add({ language: 'go', format: file.endsWith('_test.go') ? 'go-test' : 'go-build', kind: 'site', file, line: Number(m[1]), raw: rawOf(line) });
  }

  /** rustc's `-->` and `:::` location lines. */
  private rustc(line: string): void {
    const m = RUSTC.exec(line);
    if (m === null) return;
    this.add({ language: 'rust', format: 'rustc', kind: m[1] === '-->' ? 'site' : 'note', file: slashes(m[2]), line: Number(m[3]), raw: rawOf(line) });
  }

  /** Firefox / Safari stack lines; the location must be a JS/TS file or a URL. */
  private firefox(line: string): void {
    const m = FIREFOX.exec(line.trim());
    if (m === null) return;
    const q = m[2].search(/[?#]/);
    const file = slashes(q > 0 ? m[2].slice(0, q) : m[2]);
    if (!JS_FAMILY.has(extensionOf(file)) && !/^(?:https?|file|webpack|webpack-internal|moz-extension|chrome-extension|resource):\/\//.test(file)) return;
    const f: StackFrame = { language: 'javascript', format: 'firefox', kind: 'frame', file, line: Number(m[3]), raw: rawOf(line) };
    Object.assign(f, firefoxName(m[1]));
    this.add(f);
  }

  /** A linker's undefined symbol: its function and class, no file. */
  private linker(line: string): void {
    const m = LINKER.exec(line);
    if (m === null) return;
    const name = cFunctionName((m[1] ?? m[2]).replace(/\[abi:\w{1,40}\]/g, '').trim());
    if (name.function === undefined) return;
    this.add({ language: 'c', format: 'linker', kind: 'site', raw: rawOf(line), ...name });
  }
}

/**
 * A Firefox frame name: `promise callback*foo` → `foo` (the async cause dropped), `foo/<` → `foo`
 * (an anonymous function inside `foo`), `Foo</bar` → `bar`, `Foo.prototype.bar` → class `Foo`,
 * function `bar`; empty → {}.
 */
function firefoxName(written: string): Pick<StackFrame, 'function' | 'className'> {
  const name = written.slice(written.lastIndexOf('*') + 1).split(/[/<]/).filter((p) => p.length > 0).pop();
  if (name === undefined || !/^[\w$.]{1,500}$/.test(name)) return {};
  return splitQualified(name.replace('.prototype.', '.'), '.');
}
