/**
 * Stack-trace frames in issue text (each frame names its {@link FrameFormat}), for the runtime
 * traces below; compiler, linker and test-runner reports are read by src/text/report-frames.ts:
 *
 * - Python: `File "…/x.py", line N, in f`, and pytest's `path/x.py:N: in f` / `path/x.py:N: Error`;
 * - Java / Kotlin / Scala (JVM): `at pkg.Class.method(File.java:N)`, also `(Native Method)` and
 *   `(Unknown Source)`, module prefixes `java.base/…`, frames after `Caused by:` alike, lambda
 *   bodies read as their method (`lambda$main$0` → `main`), inner classes kept (`Outer$Inner`),
 *   Maven's `at pkg.Class.method (File.java:N)`;
 * - JavaScript / TypeScript (V8): `at f (file.js:N:M)`, `at new C (…)`, `at async f (…)`, `at file.js:N:M`
 *   (a bundler's `?query` dropped from the path);
 * - Go panics: a `pkg.Func(…)` / `pkg.(*T).Method(…)` / `created by …` line, then
 *   `\t/path/file.go:N +0x…`;
 * - Rust: `panicked at src/x.rs:N:M` (and the older `panicked at 'msg', src/x.rs:N:M`), and
 *   backtraces `N: crate::module::func` + `at ./src/x.rs:N:M`;
 * - C#: `at Ns.Class.Method(args) in C:\x\File.cs:line N`, and `at Ns.Class.Method()` lines;
 * - C / C++ debuggers: gdb `#N  0x… in fn (args) at file.c:N`, AddressSanitizer
 *   `#N 0x… in ns::Class::method(int) /path/file.cpp:N:M`, lldb `frame #N: 0x… lib`fn at file.c:N:M`,
 *   valgrind `==PID==    at 0x…: fn (file.c:N)`.
 *
 * The text is read line by line; on each line, anchors (`File "`, `at `, `.go:`, `.rs:`,
 * `panicked at `, `.py:`) are found with `indexOf` or an anchored scan, and sticky regular
 * expressions with bounded repeats run only at those anchors, so the time is linear in the text
 * (a 1 MB body is parsed in milliseconds; see `bench/text-speed.ts`).
 */

import { CODE_EXTENSIONS, C_FAMILY_EXTENSIONS, JVM_EXTENSIONS, extensionOf } from './code-extensions.js';
import {
  cFunctionName, firstNonSpace, pathStart, rawOf, slashes, splitQualified, stripCR,
  type Add, type FrameFormat, type StackFrame,
} from './frame-text.js';
import { isLibraryFrame } from './library-frames.js';
import { ReportFrames } from './report-frames.js';

export type { FrameFormat, FrameKind, FrameLanguage, StackFrame } from './frame-text.js';

/** All stack frames in `text`, in text order, exact duplicates removed. Never throws. Linear time. */
export function parseStackFrames(text: string): StackFrame[] {
  const frames: StackFrame[] = [];
  const seen = new Set<string>();
  const add = (f: StackFrame) => {
    if (f.language !== 'python' && isLibraryFrame(f)) f.library = true;
    const key = `${f.language}\u0000${f.file ?? ''}\u0000${f.line ?? ''}\u0000${f.function ?? ''}\u0000${f.className ?? ''}\u0000${f.module ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    frames.push(f);
  };
  const lines = text.split('\n');
  const ipython = new IPythonFrames(add);
  const reports = new ReportFrames(add);
  // A line seen before gives only duplicate frames (recursion, repeated traces), unless its frame
  // takes the function from the line before (Go, Rust backtraces).
  const seenLines = new Set<string>();
  for (let li = 0; li < lines.length; li++) {
    const line = stripCR(lines[li]);
    ipython.line(line, li);
    if (line.length === 0) continue;
    reports.line(line);
    if (seenLines.has(line) && line.indexOf('.go:') < 0 && line.indexOf('.rs:') < 0) continue;
    seenLines.add(line);
    const prev = li > 0 ? stripCR(lines[li - 1]) : '';
    if (line.indexOf('File "') >= 0) pythonFrames(line, add);
    else if (line.indexOf('File ') >= 0) ipython8Frame(line, add);
    if (line.indexOf('.py:') >= 0) pytestFrames(line, add);
    if (line.indexOf('at') >= 0) atFrames(line, prev, add);
    if (line.indexOf('.go:') >= 0) goFrame(line, prev, add);
    if (line.indexOf('panicked at') >= 0) rustPanics(line, add);
    if (line.indexOf('#') >= 0 || line.indexOf('==') >= 0) debuggerFrame(line, add);
  }
  ipython.end();
  return frames;
}

/** Python: `File "path", line N, in func` (anywhere on the line). */
const PY_FILE = /File "([^"\r\n]{1,2000})", line (\d{1,9})(?:, in ([^\s,]{1,500}))?/g;

function pythonFrames(line: string, add: Add): void {
  PY_FILE.lastIndex = 0;
  for (let m = PY_FILE.exec(line); m !== null; m = PY_FILE.exec(line)) {
    add({ language: 'python', format: 'python-traceback', kind: 'frame', file: slashes(m[1]), line: Number(m[2]), raw: rawOf(line), ...pythonQualname(m[3]) });
  }
}

/** IPython ≥ 8: `File ~/env/lib/python3.10/site-packages/pkg/mod.py:1423, in Class.method(args)`. */
const IPY8 = /^\s*File (\S{1,2000}?\.pyx?):(\d{1,9})(?:, in ([^\s(]{1,500}))?/;

function ipython8Frame(line: string, add: Add): void {
  const m = IPY8.exec(line);
  if (m === null) return;
  add({ language: 'python', format: 'ipython', kind: 'frame', file: slashes(m[1]), line: Number(m[2]), raw: rawOf(line), ...pythonQualname(m[3]) });
}

/** Older IPython: a header `~/path/mod.py in func(args)`, then code lines where `---> 92` marks the line. */
const IPY_HEADER = /^(\S{1,2000}?\.py[xc]?) in ([A-Za-z_][\w.<>]{0,300})\(/;
const IPY_ARROW = /^\s*-+>\s*(\d{1,9})/;

/** Pairs each old-style IPython header with the first `--->` line within the next 60 lines. */
class IPythonFrames {
  private pending: StackFrame | undefined;
  private pendingLine = 0;
  constructor(private readonly add: Add) {}

  line(line: string, index: number): void {
    if (line.length === 0) return;
    const c = line.charCodeAt(0);
    if (this.pending !== undefined && (c === 45 || c === 32 || c === 9)) {
      const a = IPY_ARROW.exec(line);
      if (a !== null) {
        this.pending.line = Number(a[1]);
        this.flush();
        return;
      }
    }
    if (this.pending !== undefined && index - this.pendingLine > 60) this.flush();
    if (line.indexOf(' in ') < 0) return;
    const h = IPY_HEADER.exec(line);
    if (h === null) return;
    this.flush();
    const file = slashes(h[1].endsWith('.pyc') ? h[1].slice(0, -1) : h[1]);
    this.pending = { language: 'python', format: 'ipython', kind: 'frame', file, raw: rawOf(line), ...pythonQualname(h[2]) };
    this.pendingLine = index;
  }

  end(): void {
    this.flush();
  }

  private flush(): void {
    if (this.pending !== undefined) this.add(this.pending);
    this.pending = undefined;
  }
}

/**
 * A Python qualified name as IPython prints it: `Plot._plot` → class `Plot`, function `_plot`;
 * `_preprocess_data.<locals>.inner` → function `inner` (the enclosing part names a function, not a
 * class, so no class). Undefined gives `{}`.
 */
function pythonQualname(q: string | undefined): Pick<StackFrame, 'function' | 'className'> {
  if (q === undefined) return {};
  const parts = q.split('.').filter((p) => p.length > 0 && p !== '<locals>');
  if (parts.length === 0) return {};
  const fn = parts[parts.length - 1];
  const owner = parts.length > 1 ? parts[parts.length - 2] : '';
  return /^[A-Z]/.test(owner) && q.indexOf('<locals>') < 0 ? { className: owner, function: fn } : { function: fn };
}

/** pytest: `path/x.py:N: in func`, or a line that starts with `path/x.py:N:` (the raising line). */
const PYTEST_TAIL = /\.py:(\d{1,9}):(?: in ([\w.<>]{1,300}))?/y;

function pytestFrames(line: string, add: Add): void {
  const first = firstNonSpace(line);
  let floor = 0;
  for (let at = line.indexOf('.py:'); at >= 0; at = line.indexOf('.py:', at + 4)) {
    const start = pathStart(line, at, floor);
    floor = at + 4;
    PYTEST_TAIL.lastIndex = at;
    const m = PYTEST_TAIL.exec(line);
    if (m === null || start === at) continue;
    if (m[2] === undefined && start !== first) continue;
    const f: StackFrame = { language: 'python', format: 'pytest', kind: m[2] === undefined ? 'site' : 'frame', file: slashes(line.slice(start, at + 3)), line: Number(m[1]), raw: rawOf(line) };
    if (m[2] !== undefined) f.function = m[2];
    add(f);
  }
}

/** JVM frame after `at `: `name(inner)`; C# frames share the shape. */
const JVM_AT = /([\w$.\/<>`[\],+-]{1,500})( ?)\(([^()\r\n]{0,300})\)/y;
/** C# location after the `)`: ` in path:line N`. */
const CS_IN = /\s+in\s+([^\r\n]{1,500}):line (\d{1,9})/y;
/** V8 frame after `at `: `[new |async ]fn [as x] (location:N:M)` or `location:N:M`. */
const V8_AT = /(?:(new |async )?([^\s()]{1,500}(?: \[as [^\]\s]{1,200}\])?) \()?([^\s()]{1,2000}):(\d{1,9}):(\d{1,9})\)?/y;
/** Rust backtrace location after `at `: `path.rs:N[:M]`. */
const RUST_AT = /([^\s()]{1,2000}\.rs):(\d{1,9})(?::\d{1,9})?/y;
/** A Rust backtrace's location in another file after `at `: `path:N[:M]` (C runtime: `./csu/libc-start.c:360:3`). */
const RUST_AT_OTHER = /([^\s()]{1,2000}?):(\d{1,9})(?::\d{1,9})?(?=\s|$)/y;
/** Where `at` begins a frame: at the line start or after white space, followed by white space. */
const AT_ANCHOR = /(?:^|\s)at\s+/g;

function atFrames(line: string, prev: string, add: Add): void {
  const lineStart = /^\s*at\s/.test(line);
  AT_ANCHOR.lastIndex = 0;
  for (let a = AT_ANCHOR.exec(line); a !== null; a = AT_ANCHOR.exec(line)) {
    const p = a.index + a[0].length;
    if (a.index >= 8 && line.startsWith('panicked', a.index - 8)) continue; // a Rust panic's site: rustPanics
    if (jvmOrCsharpAt(line, p, lineStart, add)) continue;
    RUST_AT.lastIndex = p;
    const r = RUST_AT.exec(line);
    if (r !== null) {
      const f: StackFrame = { language: 'rust', format: 'rust-backtrace', kind: 'frame', file: slashes(r[1]), line: Number(r[2]), raw: rawOf(line) };
      const fn = rustBacktraceFunction(prev);
      if (fn !== undefined) Object.assign(f, rustName(fn));
      add(f);
      continue;
    }
    // a Rust backtrace frame outside Rust (`N: __libc_start_main` + `at ./csu/libc-start.c:360:3`): never JavaScript
    const rustFn = lineStart ? rustBacktraceFunction(prev) : undefined;
    if (rustFn !== undefined) {
      rustBacktraceOther(line, p, rustFn, add);
      continue;
    }
    V8_AT.lastIndex = p;
    const v = V8_AT.exec(line);
    if (v !== null) add(v8Frame(v, line));
  }
}

/**
 * A Rust backtrace location in a file that is not Rust, after the function line `fn`: a C / C++
 * file (the C runtime's `libc-start.c`, a crate's C code) is a C frame; any other is no frame.
 */
function rustBacktraceOther(line: string, p: number, fn: string, add: Add): void {
  RUST_AT_OTHER.lastIndex = p;
  const r = RUST_AT_OTHER.exec(line);
  if (r === null || !C_FAMILY_EXTENSIONS.has(extensionOf(r[1]))) return;
  add({ language: 'c', format: 'rust-backtrace', kind: 'frame', file: slashes(r[1]), line: Number(r[2]), raw: rawOf(line), ...cFunctionName(fn) });
}

function jvmOrCsharpAt(line: string, p: number, lineStart: boolean, add: Add): boolean {
  JVM_AT.lastIndex = p;
  const m = JVM_AT.exec(line);
  if (m === null) return false;
  const name = m[1];
  const inner = m[3].trim();
  const fileLine = /^([^\s:]{1,300}\.[A-Za-z]{1,10})(?::(\d{1,9}))?$/.exec(inner);
  const jvmFile = fileLine !== null && JVM_EXTENSIONS.has(extensionOf(fileLine[1]));
  // Maven's `-e` output writes `at pkg.Class.method (File.java:N)`: a space only before a JVM location
  if (m[2] === ' ' && !jvmFile) return false;
  if (fileLine !== null && jvmFile) {
    const f: StackFrame = { language: 'java', format: 'jvm', kind: 'frame', file: fileLine[1], raw: rawOf(line), ...jvmName(name) };
    if (fileLine[2] !== undefined) f.line = Number(fileLine[2]);
    add(f);
    return true;
  }
  if (inner === 'Native Method' || inner === 'Unknown Source' || inner === 'Unknown Location') {
    add({ language: 'java', format: 'jvm', kind: 'frame', raw: rawOf(line), ...jvmName(name) });
    return true;
  }
  CS_IN.lastIndex = p + m[0].length;
  const cs = CS_IN.exec(line);
  if (cs !== null) {
    add({ language: 'csharp', format: 'csharp', kind: 'frame', file: slashes(cs[1].trim()), line: Number(cs[2]), raw: rawOf(line), ...csharpName(name) });
    return true;
  }
  // A C# frame without debug symbols: only on an `at` line, a dotted name, `()` or typed args.
  if (lineStart && name.indexOf('.') > 0 && (inner === '' || /^[\w.`[\]<>,]+ \w+(?:, [\w.`[\]<>,]+ \w+)*$/.test(inner))) {
    add({ language: 'csharp', format: 'csharp', kind: 'frame', raw: rawOf(line), ...csharpName(name) });
    return true;
  }
  return false;
}

function v8Frame(v: RegExpExecArray, line: string): StackFrame {
  const f: StackFrame = { language: 'javascript', format: 'v8', kind: 'frame', file: jsLocation(v[3]), line: Number(v[4]), raw: rawOf(line) };
  if (v[2] !== undefined) {
    const name = v[2].replace(/ \[as [^\]]*\]$/, '');
    // `at new Server (…)`: the constructor of class Server
    Object.assign(f, v[1] === 'new ' ? { className: name, function: 'constructor' } : splitQualified(name, '.'));
  }
  return f;
}

/** C#: `Ns.Class.Select[TSource,TResult]` → class `Ns.Class`, function `Select` (generic arguments dropped). */
function csharpName(name: string): Pick<StackFrame, 'function' | 'className'> {
  const bracket = name.indexOf('[');
  return splitQualified(bracket > 0 ? name.slice(0, bracket) : name, '.');
}

/**
 * A JVM frame's name: `java.base/java.lang.Thread.run` → class `java.lang.Thread`, function `run`
 * (JPMS module prefix dropped); a lambda body `lambda$main$0` (javac) or `main$lambda$1` (Kotlin)
 * is read as the method that holds it, `main`; inner classes stay as written (`Outer$Inner`).
 */
function jvmName(written: string): Pick<StackFrame, 'function' | 'className'> {
  const slash = written.lastIndexOf('/');
  const out = splitQualified(slash >= 0 ? written.slice(slash + 1) : written, '.');
  const fn = out.function ?? '';
  const lambda = /^lambda\$([\w]+?)\$\d+$/.exec(fn) ?? /^([\w]+?)\$lambda(?:\$\d+|-\d+)?$/.exec(fn);
  if (lambda !== null && lambda[1] !== 'static' && lambda[1] !== 'new') out.function = lambda[1];
  return out;
}

/**
 * A JS frame's location as a path: `\\` → `/`, a query or hash that bundlers add
 * (`webpack:///./src/App.vue?3a1b`) dropped.
 */
function jsLocation(written: string): string {
  const q = written.search(/[?#]/);
  return slashes(q > 0 ? written.slice(0, q) : written);
}

/** Go: a location line `\t/path/file.go:N +0x1d`, its function on the line before. */
const GO_TAIL = /\.go:(\d{1,9})(?: \+0x[0-9a-fA-F]{1,16})?\s*$/y;

function goFrame(line: string, prev: string, add: Add): void {
  const first = firstNonSpace(line);
  const at = line.indexOf('.go:', first);
  if (at < 0) return;
  GO_TAIL.lastIndex = at;
  const m = GO_TAIL.exec(line);
  if (m === null || pathStart(line, at, first) !== first || at === first) return;
  const f: StackFrame = { language: 'go', format: 'go-panic', kind: 'frame', file: slashes(line.slice(first, at + 3)), line: Number(m[1]), raw: rawOf(line) };
  const fn = goFunctionLine(prev);
  if (fn !== undefined) Object.assign(f, goName(fn));
  add(f);
}

/** The function of a Go trace line: `pkg.Func(0x1, …)` → `pkg.Func`; `created by pkg.F in goroutine 7` → `pkg.F`. */
function goFunctionLine(prev: string): string | undefined {
  const t = prev.trim();
  if (t.startsWith('created by ')) {
    const rest = t.slice(11);
    const sp = rest.indexOf(' ');
    return sp >= 0 ? rest.slice(0, sp) : rest;
  }
  if (t.length === 0 || t.length > 2000 || !t.endsWith(')')) return undefined;
  const open = t.lastIndexOf('(');
  if (open <= 0 || /\s/.test(t.slice(0, open))) return undefined;
  return t.slice(0, open);
}

/** `github.com/x/pkg.(*Server).Serve` → { module: 'github.com/x/pkg', className: 'Server', function: 'Serve' }. */
function goName(name: string): Pick<StackFrame, 'function' | 'className' | 'module'> {
  const slash = name.lastIndexOf('/');
  const dot = name.indexOf('.', slash + 1);
  if (dot < 0) return { function: name };
  const module = name.slice(0, dot);
  const sym = name.slice(dot + 1);
  const recv = /^\(\*?([^)]+)\)\.(.+)$/.exec(sym);
  if (recv !== null) return { module, className: recv[1], function: recv[2] };
  const parts = sym.split('.');
  if (parts.length >= 2 && /^func\d+$/.test(parts[parts.length - 1])) return { module, function: parts[0] };
  if (parts.length === 2) return { module, className: parts[0], function: parts[1] };
  return { module, function: sym };
}

/** Rust panic: `panicked at src/x.rs:N:M` or `panicked at 'msg', src/x.rs:N:M`. */
function rustPanics(line: string, add: Add): void {
  let floor = 0;
  let next = -1; // the next `.rs:` at or after the last search start; reused across anchors
  for (let a = line.indexOf('panicked at'); a >= 0; a = line.indexOf('panicked at', a + 11)) {
    const from = Math.max(a + 11, floor);
    if (next < from) next = line.indexOf('.rs:', from);
    if (next < 0) return;
    const at = next;
    const start = pathStart(line, at, from);
    floor = at + 4;
    const m = /\.rs:(\d{1,9})(?::\d{1,9})?/y;
    m.lastIndex = at;
    const r = m.exec(line);
    if (r === null || start === at) continue;
    add({ language: 'rust', format: 'rust-panic', kind: 'site', file: slashes(line.slice(start, at + 3)), line: Number(r[1]), raw: rawOf(line) });
  }
}

/**
 * The function of a Rust backtrace line `  12: crate::module::func` (address and hash dropped),
 * also quoted (`> ` before it, as a reply quotes a report) and in the v0 symbol format, whose
 * crates carry a disambiguator (`std[e28293b1aa0f68bd]::…`, dropped).
 */
function rustBacktraceFunction(prev: string): string | undefined {
  if (prev.length > 1100) return undefined;
  const m = /^\s*(?:>\s*){0,8}\d{1,5}:\s+(?:0x[0-9a-f]{1,16} - )?(\S.*)$/.exec(prev.trimEnd());
  if (m === null) return undefined;
  return m[1].replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]{16}\]/g, '');
}

/**
 * `mycrate::module::func` → { module: 'mycrate::module', function: 'func' };
 * `<mycrate::Foo as core::fmt::Debug>::fmt` → { module: 'mycrate', className: 'Foo', function: 'fmt' };
 * `mycrate::Foo::new` → { module: 'mycrate', className: 'Foo', function: 'new' };
 * closure segments `{{closure}}` (v0 symbols: `{closure#0}`, and their other `{…}` segments) are skipped.
 */
function rustName(path: string): Pick<StackFrame, 'function' | 'className' | 'module'> {
  let typePath: string | undefined;
  let rest = path;
  if (path.startsWith('<')) {
    let depth = 0;
    let close = -1;
    for (let i = 0; i < path.length; i++) {
      const c = path[i];
      if (c === '<') depth++;
      else if (c === '>' && --depth === 0) {
        close = i;
        break;
      }
    }
    if (close > 0) {
      const inner = path.slice(1, close);
      const as = inner.indexOf(' as ');
      typePath = (as >= 0 ? inner.slice(0, as) : inner).replace(/<.*$/, '');
      rest = path.slice(close + 1).replace(/^::/, '');
    }
  }
  const segs = rest.split('::').filter((s) => s.length > 0 && !(s.startsWith('{') && s.endsWith('}')));
  const out: Pick<StackFrame, 'function' | 'className' | 'module'> = {};
  if (typePath !== undefined) {
    const tsegs = typePath.split('::');
    out.className = tsegs[tsegs.length - 1];
    if (tsegs.length > 1) out.module = tsegs.slice(0, -1).join('::');
    if (segs.length > 0) out.function = segs[segs.length - 1];
    return out;
  }
  if (segs.length === 0) return out;
  out.function = segs[segs.length - 1];
  const owner = segs.slice(0, -1);
  if (owner.length > 0 && /^[A-Z]/.test(owner[owner.length - 1])) out.className = owner.pop();
  if (owner.length > 0) out.module = owner.join('::');
  return out;
}

/** gdb / ASan / lldb frame head: `#N  0x… in ` or `frame #N: 0x… `; the rest is function and location. */
const DBG_HEAD = /\s*(?:\*\s+)?(?:frame\s+)?#\d{1,5}:?\s+(0x[0-9a-fA-F]{1,16}\s+)?(?:in\s+)?/y;
/** valgrind frame head: `==PID==    at 0x…: ` or `by 0x…: `. */
const VALGRIND_HEAD = /==\d{1,10}==\s+(?:at|by)\s+0x[0-9a-fA-F]{1,16}:\s+/y;
/** A debugger frame's location token: `path.ext:N[:M]`. */
const DBG_LOCATION = /^(\S+\.[A-Za-z+]{1,4}):(\d{1,9})(?::\d{1,9})?$/;

/**
 * A C / C++ debugger frame (gdb, AddressSanitizer, lldb, valgrind): function (template and call
 * arguments dropped, `ns::Class::method` → class `ns::Class`, function `method`) and, when the
 * frame has one, the source location (the last word of the line, or in parentheses for
 * valgrind). A gdb-style line needs an address or a location (so `#123 fixed` is no frame);
 * frames without a source file (`(libc.so.6+0x29d8f)`) give their function alone. Lines longer
 * than 3,000 characters are not frames.
 */
function debuggerFrame(line: string, add: Add): void {
  if (line.length > 3000) return;
  let head = -1;
  let address = true;
  DBG_HEAD.lastIndex = 0;
  const d = DBG_HEAD.exec(line);
  if (d !== null) {
    head = DBG_HEAD.lastIndex;
    address = d[1] !== undefined;
  } else {
    VALGRIND_HEAD.lastIndex = 0;
    if (VALGRIND_HEAD.test(line)) head = VALGRIND_HEAD.lastIndex;
  }
  if (head < 0) return;
  let rest = line.slice(head).trimEnd();
  // valgrind by its head, lldb by `frame #`, gdb by `at file:N` or a frame without address (`#1  main () at …`)
  const format: FrameFormat = d === null ? 'valgrind' : d[0].indexOf('frame') >= 0 ? 'lldb' : !address || / at \S+$/.test(rest) || / from \S+$/.test(rest) ? 'gdb' : 'sanitizer';
  const f: StackFrame = { language: 'c', format, kind: 'frame', raw: rawOf(line) };
  const closed = rest.endsWith(')');
  const body = closed ? rest.slice(0, -1) : rest;
  const cut = Math.max(body.lastIndexOf(' '), body.lastIndexOf('\t'), closed ? body.lastIndexOf('(') : -1);
  const loc = cut >= 0 ? DBG_LOCATION.exec(body.slice(cut + 1)) : null;
  if (loc !== null && CODE_EXTENSIONS.has(extensionOf(loc[1]))) {
    f.file = slashes(loc[1]);
    f.line = Number(loc[2]);
    rest = body.slice(0, cut).replace(/\s+at$/, '');
  } else if (!address) return;
  const tick = rest.indexOf('`'); // lldb `module`function`
  if (tick >= 0) rest = rest.slice(tick + 1);
  Object.assign(f, cFunctionName(rest));
  if (f.file !== undefined || f.function !== undefined) add(f);
}

