/**
 * The frame type of issue-text stack traces and error reports, and the line helpers their parsers
 * share (src/text/stack-frames.ts: runtime traces; src/text/report-frames.ts: compiler, linker and
 * test-runner reports).
 */

/** The trace format a frame was read from (Kotlin/Scala frames are `java`, TypeScript `javascript`). */
export type FrameLanguage = 'python' | 'java' | 'javascript' | 'go' | 'rust' | 'csharp' | 'c';

/**
 * The named report format a frame was read from:
 * `python-traceback` (`File "x.py", line N, in f`), `pytest` (`x.py:N: in f`), `ipython`;
 * `jvm` (`at pkg.Class.method(File.java:N)`), `javac` (`Foo.java:N: error: …`); `v8` (`at f (file.js:N:M)`), `firefox`
 * (`f@file.js:N:M`, also Safari's); `tsc` (`src/x.ts(N,M): error TS…`, `src/x.ts:N:M - error TS…`);
 * `go-panic` (`pkg.F(…)` + `\t/path/x.go:N +0x…`), `go-test` (`x_test.go:N: message`), `go-build`
 * (`./x.go:N:M: message`); `rust-panic` (`panicked at src/x.rs:N:M`), `rust-backtrace`
 * (`N: crate::f` + `at ./src/x.rs:N:M`), `rustc` (`--> src/x.rs:N:M`); `csharp`;
 * `gdb`, `sanitizer`, `lldb`, `valgrind`; `cc-diagnostic` (`x.cpp:N:M: error: …`), `cc-include`
 * (`In file included from x.h:N,`), `linker` (`undefined reference to 'ns::f()'`).
 */
export type FrameFormat =
  | 'python-traceback' | 'pytest' | 'ipython'
  | 'jvm' | 'javac' | 'v8' | 'firefox' | 'tsc'
  | 'go-panic' | 'go-test' | 'go-build'
  | 'rust-panic' | 'rust-backtrace' | 'rustc'
  | 'csharp'
  | 'gdb' | 'sanitizer' | 'lldb' | 'valgrind' | 'cc-diagnostic' | 'cc-include' | 'linker';

/**
 * What a frame's location is to its report:
 * - `site`: the place the report is about — a panic's location, a compiler error or warning, a
 *   failing test line, an undefined symbol;
 * - `frame`: one call of a call stack (innermost first in every format but Python's);
 * - `note`: context — compiler notes (`note: candidate …`), the include chain.
 */
export type FrameKind = 'site' | 'frame' | 'note';

/**
 * One frame of a stack trace or error report found in issue text.
 *
 * - `file`: the path as written, `\` turned into `/` (JVM frames give only the base name,
 *   `Foo.java`; resolve it with `className`).
 * - `line`: 1-based line number when the frame has one.
 * - `function`: the function or method name alone (`get_queryset`, `execute`, `Method`).
 * - `className`: the class or type the function belongs to, as qualified as the frame writes it
 *   (JVM/C#: `org.apache.maven.DefaultMaven`; JS: `Object`; Go receiver: `Server`; Rust: `Foo`;
 *   C++: `fmt::v8::detail::buffer`).
 * - `module`: the package or module path when the format gives one apart from the class (Go
 *   `net/http`, Rust `mycrate::module`).
 * - `format`, `kind`: see {@link FrameFormat} and {@link FrameKind}.
 * - `library`: true for a frame of a language's runtime, standard library or an installed
 *   dependency (`node_modules/`, `node:internal`, the Go module cache and standard packages,
 *   `/rustc/…`, `~/.cargo/registry`, `std::`/`core::`, `/usr/include`, `java.*`/`sun.*`/`org.junit.*`,
 *   `System.*`); never set on Python frames (site-packages frames name the repository's own code
 *   when the repository is that package).
 * - `raw`: the trimmed line the frame came from (capped at 300 characters), for `--explain`.
 */
export interface StackFrame {
  language: FrameLanguage;
  format: FrameFormat;
  kind: FrameKind;
  file?: string;
  line?: number;
  function?: string;
  className?: string;
  module?: string;
  library?: true;
  raw: string;
}

/** Receives each frame found. */
export type Add = (f: StackFrame) => void;

/** `s` without a final carriage return. */
export function stripCR(s: string): string {
  return s.length > 0 && s.charCodeAt(s.length - 1) === 13 ? s.slice(0, -1) : s;
}

/** The trimmed line, capped at 300 characters: a frame's `raw`. */
export function rawOf(line: string): string {
  const t = line.trim();
  return t.length > 300 ? t.slice(0, 300) : t;
}

/** `\\` turned into `/`. */
export function slashes(p: string): string {
  return p.indexOf('\\') >= 0 ? p.replace(/\\/g, '/') : p;
}

/** `a.b.C.method` → { className: 'a.b.C', function: 'method' }; no separator → { function }. */
export function splitQualified(name: string, sep: string): Pick<StackFrame, 'function' | 'className'> {
  const i = name.lastIndexOf(sep);
  if (i <= 0) return { function: name };
  return { className: name.slice(0, i), function: name.slice(i + sep.length) };
}

/** `ns::Foo<int>::bar(int, char) const + 12` → { className: 'ns::Foo', function: 'bar' }; `??` → {}. */
export function cFunctionName(text: string): Pick<StackFrame, 'function' | 'className'> {
  let name = '';
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>') depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      if (c === '(' || c === ' ' || c === '\t') {
        if (name.length > 0) break;
        if (c === '(') return {};
        continue;
      }
      name += c;
    }
  }
  if (!/^[A-Za-z_~][\w:~]*$/.test(name) || name.length > 500) return {};
  return splitQualified(name, '::');
}

/** Index of the first character of `line` that is no space or tab. */
export function firstNonSpace(line: string): number {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return i;
}

/**
 * Start of the path that ends just before `end` (the `.ext:` anchor): walk back over characters
 * that are not white space, quotes, brackets, `,`, `=` or `:` — except a drive letter `C:` — and
 * never before `floor` (so repeated anchors on one line cost linear time).
 */
export function pathStart(line: string, end: number, floor: number): number {
  let s = end;
  while (s > floor) {
    const c = line.charCodeAt(s - 1);
    if (c <= 32 || c === 34 || c === 39 || c === 40 || c === 41 || c === 91 || c === 93 || c === 44 || c === 61 || c === 96 || c === 60 || c === 62) break;
    if (c === 58) {
      // keep `C:` of a Windows path (`C:\x\y.py`), stop at any other colon
      const isDrive = s - 2 >= floor && /[A-Za-z]/.test(line[s - 2]) && (s - 3 < floor || !/[\w]/.test(line[s - 3]));
      if (!isDrive) break;
      s -= 2;
      break;
    }
    s--;
  }
  return s;
}
