/**
 * File-name extensions that mark a source-code file in issue text (lower case, no dot).
 *
 * Used to recognise mentioned file paths (`src/foo/bar.py`, `Foo.java`) and to keep such names out
 * of the dotted module names. The set covers the languages the corpus parses (Python, Java,
 * Kotlin, Scala, Groovy, JavaScript, TypeScript, Go, C, C++, C#, Ruby, PHP, Rust) and other common
 * source languages (Swift, Objective-C, Lua, Perl, R, Julia, shell, Dart, Elixir, Erlang, Clojure,
 * Haskell, OCaml, F#, Vue/Svelte components, JSP). Configuration, data and documentation files
 * (`.xml`, `.json`, `.md`, …) are not code here, matching the corpus rule "code only".
 */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set([
  'py', 'pyi', 'pyx', 'pxd',
  'java', 'kt', 'kts', 'scala', 'groovy', 'gradle', 'clj',
  'js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts', 'vue', 'svelte',
  'go', 'rs',
  'c', 'h', 'cc', 'cpp', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'inl', 'ipp',
  'cs', 'fs', 'vb',
  'rb', 'rake', 'php', 'swift', 'm', 'mm', 'lua', 'pl', 'pm', 'r', 'jl', 'sh', 'bash',
  'dart', 'ex', 'exs', 'erl', 'hs', 'ml', 'mli', 'jsp',
]);

/** Extensions of C, C++, Objective-C and CUDA sources and headers. */
export const C_FAMILY_EXTENSIONS: ReadonlySet<string> = new Set(['c', 'h', 'cc', 'cpp', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'inl', 'ipp', 'tcc', 'tpp', 'm', 'mm', 'cu', 'cuh']);

/** JVM languages, whose stack frames name only the file's base name (`Foo.java:12`). */
export const JVM_EXTENSIONS: ReadonlySet<string> = new Set(['java', 'kt', 'kts', 'scala', 'groovy', 'clj']);

/**
 * Final name parts that make a dotted word a host name or a non-code file rather than a module
 * path (`github.com`, `setup.cfg`, `pom.xml`): such words are not reported as dotted names.
 */
export const NON_MODULE_SUFFIXES: ReadonlySet<string> = new Set([
  'com', 'org', 'net', 'io', 'edu', 'gov', 'dev', 'html', 'htm', 'md', 'rst', 'txt', 'json', 'yaml',
  'yml', 'xml', 'cfg', 'ini', 'toml', 'lock', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'pdf', 'zip', 'gz',
  'tgz', 'tar', 'jar', 'war', 'whl', 'egg', 'log', 'csv', 'tsv', 'properties', 'pom', 'css', 'scss',
  'exe', 'dll', 'so', 'dylib', 'bin',
]);

/** The extension of a file name or path, lower-cased, without the dot; `''` when it has none. */
export function extensionOf(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(dot + 1).toLowerCase() : '';
}
