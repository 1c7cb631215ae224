/**
 * Library frames: frames of a language's runtime, standard library or an installed dependency,
 * told by the path or the qualified name the frame writes. Python frames are never judged here
 * (their site-packages frames are the repository's own code when the repository is that package).
 */

import type { StackFrame } from './frame-text.js';

/**
 * Path parts of installed dependencies and runtimes: npm (`node_modules/`), Node's own modules
 * (`node:internal/…`, `internal/…`), the Go module cache (`/pkg/mod/`) and toolchain
 * (`/usr/local/go/src/`, `/go/src/runtime/`), Rust's standard library (`/rustc/<hash>/library/`)
 * and crate registry (`.cargo/registry/`, `.cargo/git/`), system headers (`/usr/include/`), a
 * Java runtime's sources (`jdk…/src.zip`).
 */
const LIBRARY_PATH = /(?:^|\/)node_modules\/|^node:|^internal\/|\/pkg\/mod\/|^\/usr\/(?:local\/)?go\/src\/|\/go\/src\/runtime\/|^\/rustc\/|\/\.?cargo\/(?:registry|git)\/|\/library\/(?:std|core|alloc)\/src\/|^\/usr\/(?:local\/)?include\/|^\/usr\/lib\/gcc\/|webpack\/bootstrap/;

/** Qualified-name prefixes of runtimes and test harnesses (JVM, .NET, Rust, C++: `std::`, googletest's `testing::`). */
const LIBRARY_NAME: Partial<Record<StackFrame['language'], RegExp>> = {
  java: /^(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx\.coroutines|scala|org\.junit|junit|org\.testng|org\.gradle|org\.apache\.maven\.surefire)\./,
  csharp: /^(?:System|Microsoft|Xunit|NUnit)\./,
  rust: /^(?:std|core|alloc|test|tokio::runtime)(?:::|$)/,
  c: /^(?:std|__gnu_cxx|__cxxabiv1|testing)(?:::|$)/,
};

/** C functions of the C runtime that start and end every process (`__libc_start_main`, `_start`, `raise`). */
const C_RUNTIME_FUNCTIONS = new Set(['_start', '__libc_start_main', '__libc_start_main_impl', '__libc_start_call_main', 'abort', 'raise', '__GI_raise', '__GI_abort', '__assert_fail', 'start_thread', 'clone', 'clone3']);

/** True when `frame` (not Python) belongs to a runtime, standard library or installed dependency. */
export function isLibraryFrame(frame: StackFrame): boolean {
  if (frame.file !== undefined && LIBRARY_PATH.test(frame.file)) return true;
  if (frame.language === 'go') return frame.module !== undefined && isGoStandardPackage(frame.module);
  if (frame.language === 'c' && frame.function !== undefined && frame.className === undefined && C_RUNTIME_FUNCTIONS.has(frame.function)) return true;
  const pattern = LIBRARY_NAME[frame.language];
  if (pattern === undefined) return false;
  const owner = frame.language === 'rust' ? frame.module ?? frame.className : frame.className;
  return owner !== undefined && pattern.test(owner);
}

/** A Go standard package (`runtime`, `net/http`): its first path element has no dot; `main` is the program's own. */
function isGoStandardPackage(module: string): boolean {
  if (module === 'main') return false;
  const first = module.split('/', 1)[0];
  return first.indexOf('.') < 0;
}
