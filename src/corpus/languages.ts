/**
 * Which files are source code, in which language, and which of them are tests.
 */

/**
 * Languages of the corpus. Those with a tree-sitter spec in `extract-specs.ts` are cut into
 * classes and functions; the others are indexed as whole files.
 */
export type Language =
  | 'python' | 'java' | 'javascript' | 'typescript' | 'go' | 'c' | 'cpp' | 'csharp' | 'ruby'
  | 'php' | 'rust' | 'kotlin' | 'scala' | 'swift'
  // file level only
  | 'cython' | 'objc' | 'lua' | 'dart' | 'elixir' | 'erlang' | 'haskell' | 'ocaml' | 'clojure'
  | 'groovy' | 'perl' | 'r' | 'julia' | 'zig' | 'shell' | 'fortran' | 'vue' | 'svelte' | 'solidity';

/**
 * File extension (lower case, without the dot) → language. Code only: documentation, configuration
 * and data formats (md, rst, txt, json, yaml, toml, xml, html, css, csv, sql, ini, cfg, …) are not
 * here, so they never enter the corpus. Deliberate omissions: `.pyi` stubs (they duplicate the
 * functions of the `.py` beside them; the SWE-bench protocol reads `.py` only), `.kts` (mostly
 * Gradle build configuration), templates (`.phtml`, `.erb`, `.j2`).
 * `.h` counts as C; it is parsed with the C++ grammar (see `extract-specs.ts`) so C++ headers work.
 */
export const LANGUAGE_BY_EXTENSION: Readonly<Record<string, Language>> = {
  py: 'python',
  java: 'java',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  go: 'go',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', 'c++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', 'h++': 'cpp',
  ipp: 'cpp', tpp: 'cpp', inl: 'cpp',
  cs: 'csharp',
  rb: 'ruby', rake: 'ruby',
  php: 'php',
  rs: 'rust',
  kt: 'kotlin',
  scala: 'scala',
  swift: 'swift',
  pyx: 'cython', pxd: 'cython',
  m: 'objc', mm: 'objc',
  lua: 'lua', dart: 'dart', ex: 'elixir', exs: 'elixir', erl: 'erlang', hrl: 'erlang',
  hs: 'haskell', ml: 'ocaml', mli: 'ocaml', clj: 'clojure', cljs: 'clojure', cljc: 'clojure',
  groovy: 'groovy', pl: 'perl', pm: 'perl', r: 'r', jl: 'julia', zig: 'zig',
  sh: 'shell', bash: 'shell', f90: 'fortran', f95: 'fortran', vue: 'vue', svelte: 'svelte',
  sol: 'solidity',
};

/** Generated or bundled files that carry a code extension but are not worth indexing. */
const GENERATED = /\.min\.(js|mjs|cjs)$|\.bundle\.js$/;

/** The file name's extension, lower case without the dot ('' when none; dotfiles count). */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/**
 * The language of a source file by its extension (see {@link LANGUAGE_BY_EXTENSION}), or
 * undefined for anything that is not code (docs, configuration, data, minified bundles).
 */
export function languageOf(path: string): Language | undefined {
  if (GENERATED.test(path)) return undefined;
  return LANGUAGE_BY_EXTENSION[extensionOf(path)];
}

/** One rule of {@link TEST_PATH_RULES}. */
export interface TestPathRule {
  /** `dir`: some directory of the path matches; `file`: the file name matches. */
  part: 'dir' | 'file';
  pattern: RegExp;
  /** Languages the rule applies to; `all` includes files of no known language. */
  languages: readonly Language[] | 'all';
  /** Where the convention comes from. */
  source: string;
}

const JVM: Language[] = ['java', 'kotlin', 'groovy', 'scala'];
const JS: Language[] = ['javascript', 'typescript', 'vue', 'svelte'];

/**
 * When a path is a test path. Python follows the SWE-bench / LocAgent protocol exactly (a
 * directory named `test` or `tests`, or a file name `test_*` or `*_test.py`: `is_test_path` of
 * the reference evaluator ref_eval.py, docs/benchmark-gold.md); the other rows carry each ecosystem's own default convention.
 *
 * | part | pattern                                   | languages            | source                          |
 * |------|-------------------------------------------|----------------------|---------------------------------|
 * | dir  | `test`, `tests`                            | all                  | SWE-bench protocol; Maven `src/test/`; Cargo `tests/` |
 * | file | `test_*`                                   | all                  | SWE-bench protocol; pytest      |
 * | file | `*_test.py`                                | python               | SWE-bench protocol; pytest      |
 * | file | `*_test.go`; dir `testdata`                | go                   | `go help test`, `go help packages` |
 * | file | `Test*`, `*Test`, `*Tests`, `*TestCase`, `*IT`, `*ITCase` | JVM languages | Maven Surefire/Failsafe default includes |
 * | file | `*Spec.scala`, `*Suite.scala`              | scala                | ScalaTest naming                |
 * | dir  | `androidTest`, `testFixtures`, `integrationTest`, `commonTest`, `jvmTest`, … | JVM languages | Android / Gradle / Kotlin Multiplatform source sets |
 * | file | `*.test.*`, `*.spec.*`, `*.test-d.ts`; dir `__tests__`, `__mocks__` | JS/TS | Jest default `testMatch`; tsd |
 * | file | `tests.rs`, `test.rs`                      | rust                 | Cargo unit-test modules (`#[cfg(test)] mod tests;`) |
 * | file | `*_spec.rb`, `*_test.rb`; dir `spec`       | ruby                 | RSpec, Minitest                 |
 * | file | `*Test.php`                                | php                  | PHPUnit                         |
 * | file | `*Test.cs`, `*Tests.cs`; dir `*.Tests`, `*.Test`, `Tests` | csharp | xUnit/NUnit project naming   |
 * | file | `*Tests.swift`, `*Test.swift`; dir `Tests` | swift                | SwiftPM layout, XCTest          |
 * | file | `*_test(s).c/cc/cpp`, `*_unittest.cc/cpp`  | c, cpp               | GoogleTest / Chromium naming    |
 */
export const TEST_PATH_RULES: readonly TestPathRule[] = [
  { part: 'dir', pattern: /^tests?$/, languages: 'all', source: 'SWE-bench protocol (ref_eval.py is_test_path)' },
  { part: 'file', pattern: /^test_/, languages: 'all', source: 'SWE-bench protocol (ref_eval.py is_test_path)' },
  { part: 'file', pattern: /_test\.py$/, languages: ['python'], source: 'SWE-bench protocol (ref_eval.py is_test_path)' },
  { part: 'file', pattern: /_test\.go$/, languages: ['go'], source: 'go help test' },
  { part: 'dir', pattern: /^testdata$/, languages: ['go'], source: 'go help packages' },
  { part: 'file', pattern: /^(Test\w*|\w*(Tests?|TestCase|IT|ITCase))\.\w+$/, languages: JVM, source: 'Maven Surefire/Failsafe includes' },
  { part: 'file', pattern: /\w(Spec|Suite)\.scala$/, languages: ['scala'], source: 'ScalaTest' },
  {
    part: 'dir',
    pattern: /^(androidTest|androidUnitTest|androidInstrumentedTest|testFixtures|integrationTest|functionalTest|(common|jvm|js|native|ios|macos|linux|mingw|desktop|wasmJs|wasm)Test)$/,
    languages: JVM,
    source: 'Android / Gradle / Kotlin Multiplatform source sets',
  },
  { part: 'file', pattern: /\.(test|spec)\.[cm]?[jt]sx?$|\.test-d\.[cm]?tsx?$/, languages: JS, source: 'Jest testMatch; tsd' },
  { part: 'file', pattern: /^tests?\.rs$/, languages: ['rust'], source: 'Cargo unit-test modules' },
  { part: 'dir', pattern: /^__(tests|mocks)__$/, languages: JS, source: 'Jest testMatch' },
  { part: 'file', pattern: /_(spec|test)\.rb$/, languages: ['ruby'], source: 'RSpec, Minitest' },
  { part: 'dir', pattern: /^spec$/, languages: ['ruby'], source: 'RSpec' },
  { part: 'file', pattern: /\wTest\.php$/, languages: ['php'], source: 'PHPUnit' },
  { part: 'file', pattern: /\wTests?\.cs$/, languages: ['csharp'], source: 'xUnit/NUnit naming' },
  { part: 'dir', pattern: /(^|\.)Tests?$|\.(Unit|Integration)Tests$/, languages: ['csharp'], source: 'xUnit/NUnit project naming' },
  { part: 'file', pattern: /\wTests?\.swift$/, languages: ['swift'], source: 'XCTest' },
  { part: 'dir', pattern: /^Tests$/, languages: ['swift'], source: 'SwiftPM layout' },
  { part: 'file', pattern: /_(unit)?tests?\.(c|cc|cpp|cxx)$/, languages: ['c', 'cpp'], source: 'GoogleTest / Chromium naming' },
];

/**
 * Whether `path` (repository-relative, `/`-separated) is a test file by {@link TEST_PATH_RULES}.
 * Test files are left out of the corpus by default, as in the SWE-bench protocol.
 */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const base = parts[parts.length - 1];
  const language = languageOf(path);
  for (const rule of TEST_PATH_RULES) {
    if (rule.languages !== 'all' && (language === undefined || !rule.languages.includes(language))) continue;
    if (rule.part === 'file') {
      if (rule.pattern.test(base)) return true;
    } else {
      for (let i = 0; i < parts.length - 1; i++) if (rule.pattern.test(parts[i])) return true;
    }
  }
  return false;
}

/**
 * Folder names that hold other projects' code copied into a repository (vendored). Their files
 * are left out of the corpus, like tests: an issue is almost never fixed there, and large
 * bundled libraries (jquery.js, qunit.js) drown the ranking. Documented conventions: Go modules
 * and Ruby/PHP `vendor/`, Chromium/Google `third_party/`, npm `node_modules/`, Bower
 * `bower_components/`, Python `_vendor/` (pip, setuptools) and `vendored/`.
 */
export const VENDORED_DIRS: ReadonlySet<string> = new Set([
  'vendor', '_vendor', 'vendored', 'third_party', 'thirdparty', 'third-party', '3rdparty',
  'node_modules', 'bower_components',
]);

/** Whether `path` lies in a vendored folder ({@link VENDORED_DIRS}). */
export function isVendoredPath(path: string): boolean {
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 1; i++) if (VENDORED_DIRS.has(parts[i])) return true;
  return false;
}
