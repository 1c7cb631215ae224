import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStackFrames, type StackFrame } from '../../src/text/stack-frames.js';

/** The frames without `raw`, `format`, `kind` and `library`, for compact comparison (those are tested apart). */
function frames(text: string): Omit<StackFrame, 'raw' | 'format' | 'kind' | 'library'>[] {
  return parseStackFrames(text).map(({ raw: _raw, format: _format, kind: _kind, library: _library, ...rest }) => rest);
}

/** Each frame as `format kind [library] function`, for the format tests. */
function described(text: string): string[] {
  return parseStackFrames(text).map((f) => [f.format, f.kind, f.library ? 'library' : '', f.function ?? ''].filter((x) => x !== '').join(' '));
}

test('Python traceback, pytest lines and IPython frames', () => {
  const text = [
    'Traceback (most recent call last):',
    '  File "/home/u/proj/manage.py", line 22, in <module>',
    '    main()',
    '  File "C:\\Python39\\lib\\site-packages\\django\\db\\models\\query.py", line 1402, in get_queryset',
    '    raise ValueError("x")',
    'ValueError: x',
    'sympy/core/basic.py:123: in subs',
    'sympy/core/basic.py:130: TypeError',
    'see also sympy/core/expr.py:5: which is prose, not a frame',
    'File ~/env/lib/python3.10/site-packages/matplotlib/__init__.py:1423, in _preprocess_data.<locals>.inner(ax, *args)',
    'File ~/code/seaborn/seaborn/_core/plot.py:841, in Plot._plot(self, pyplot)',
    '~/.virtualenvs/test/lib/python3.6/site-packages/sympy/geometry/point.py in __add__(self, other)',
    '    219         try:',
    '--> 220             s, o = Point._normalize_dimension(self, Point(other))',
  ].join('\n');
  assert.deepEqual(frames(text), [
    { language: 'python', file: '/home/u/proj/manage.py', line: 22, function: '<module>' },
    { language: 'python', file: 'C:/Python39/lib/site-packages/django/db/models/query.py', line: 1402, function: 'get_queryset' },
    { language: 'python', file: 'sympy/core/basic.py', line: 123, function: 'subs' },
    { language: 'python', file: 'sympy/core/basic.py', line: 130 },
    { language: 'python', file: '~/env/lib/python3.10/site-packages/matplotlib/__init__.py', line: 1423, function: 'inner' },
    { language: 'python', file: '~/code/seaborn/seaborn/_core/plot.py', line: 841, className: 'Plot', function: '_plot' },
    { language: 'python', file: '~/.virtualenvs/test/lib/python3.6/site-packages/sympy/geometry/point.py', line: 220, function: '__add__' },
  ]);
});

test('Java / Kotlin trace with Caused by, module prefix and native frames', () => {
  const text = [
    'Exception in thread "main" org.apache.maven.lifecycle.LifecycleExecutionException: boom',
    '\tat org.apache.maven.DefaultMaven.doExecute(DefaultMaven.java:312)',
    '\tat java.base/java.lang.Thread.run(Thread.java:834)',
    '\tat sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
    '\tat com.example.app.MainKt.main(Main.kt:7)',
    'Caused by: org.codehaus.plexus.component.repository.exception.ComponentLookupException: x',
    '\tat org.codehaus.plexus.DefaultPlexusContainer.lookup(DefaultPlexusContainer.java:267)',
    '\t... 12 more',
  ].join('\r\n');
  assert.deepEqual(frames(text), [
    { language: 'java', file: 'DefaultMaven.java', line: 312, className: 'org.apache.maven.DefaultMaven', function: 'doExecute' },
    { language: 'java', file: 'Thread.java', line: 834, className: 'java.lang.Thread', function: 'run' },
    { language: 'java', className: 'sun.reflect.NativeMethodAccessorImpl', function: 'invoke0' },
    { language: 'java', file: 'Main.kt', line: 7, className: 'com.example.app.MainKt', function: 'main' },
    { language: 'java', file: 'DefaultPlexusContainer.java', line: 267, className: 'org.codehaus.plexus.DefaultPlexusContainer', function: 'lookup' },
  ]);
  // Jira's plain-text rendering flattens lines: frames are still found mid-line.
  const flat = 'NPE at org.foo.Bar.baz(Bar.java:10) at org.foo.Bar.qux(Bar.java:20)';
  assert.deepEqual(frames(flat).map((f) => f.function), ['baz', 'qux']);
});

test('JavaScript / TypeScript (V8) trace', () => {
  const text = [
    "TypeError: Cannot read properties of undefined (reading 'x')",
    '    at Object.<anonymous> (/home/u/app/index.js:3:9)',
    '    at new Server (/home/u/app/lib/server.ts:40:11)',
    '    at Module._compile (node:internal/modules/cjs/loader:1105:14)',
    '    at /home/u/app/lib/util.js:10:3',
    '    at async Promise.all (index 0)',
    '    at Foo.bar [as baz] (file:///home/u/app/x.mjs:1:2)',
  ].join('\n');
  assert.deepEqual(frames(text), [
    { language: 'javascript', file: '/home/u/app/index.js', line: 3, className: 'Object', function: '<anonymous>' },
    { language: 'javascript', file: '/home/u/app/lib/server.ts', line: 40, className: 'Server', function: 'constructor' },
    { language: 'javascript', file: 'node:internal/modules/cjs/loader', line: 1105, className: 'Module', function: '_compile' },
    { language: 'javascript', file: '/home/u/app/lib/util.js', line: 10 },
    { language: 'javascript', file: 'file:///home/u/app/x.mjs', line: 1, className: 'Foo', function: 'bar' },
  ]);
});

test('Go panic with receivers, package paths and created-by', () => {
  const text = [
    'panic: runtime error: invalid memory address or nil pointer dereference',
    '',
    'goroutine 1 [running]:',
    'main.(*Server).handle(0x0, 0xc000010200)',
    '\t/home/u/go/src/example.com/app/server.go:42 +0x11',
    'github.com/foo/bar/pkg.Run(...)',
    '\t/home/u/go/pkg/mod/github.com/foo/bar@v1.0.0/pkg/run.go:17',
    'main.main.func1()',
    '\t/home/u/app/main.go:10 +0x25',
    'created by net/http.(*Server).Serve in goroutine 1',
    '\t/usr/local/go/src/net/http/server.go:3086 +0x5cb',
  ].join('\n');
  assert.deepEqual(frames(text), [
    { language: 'go', file: '/home/u/go/src/example.com/app/server.go', line: 42, module: 'main', className: 'Server', function: 'handle' },
    { language: 'go', file: '/home/u/go/pkg/mod/github.com/foo/bar@v1.0.0/pkg/run.go', line: 17, module: 'github.com/foo/bar/pkg', function: 'Run' },
    { language: 'go', file: '/home/u/app/main.go', line: 10, module: 'main', function: 'main' },
    { language: 'go', file: '/usr/local/go/src/net/http/server.go', line: 3086, module: 'net/http', className: 'Server', function: 'Serve' },
  ]);
});

test('Rust panics (new and old message) and backtrace', () => {
  const text = [
    "thread 'main' panicked at src/parser.rs:120:17:",
    'called `Option::unwrap()` on a `None` value',
    "thread 'worker' panicked at 'index out of bounds', src/lib.rs:5:13",
    'stack backtrace:',
    '   0: rust_begin_unwind',
    '             at /rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/panicking.rs:578:5',
    '   1: mycrate::parser::Parser::parse_expr',
    '             at ./src/parser.rs:120:17',
    '   2: <mycrate::Foo as core::fmt::Debug>::fmt',
    '             at ./src/foo.rs:9:5',
    '   3: mycrate::main::{{closure}}::h2d3c5f3f5b3c5a6b',
    '             at ./src/main.rs:4:1',
  ].join('\n');
  assert.deepEqual(frames(text), [
    { language: 'rust', file: 'src/parser.rs', line: 120 },
    { language: 'rust', file: 'src/lib.rs', line: 5 },
    { language: 'rust', file: '/rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/panicking.rs', line: 578, function: 'rust_begin_unwind' },
    { language: 'rust', file: './src/parser.rs', line: 120, module: 'mycrate::parser', className: 'Parser', function: 'parse_expr' },
    { language: 'rust', file: './src/foo.rs', line: 9, module: 'mycrate', className: 'Foo', function: 'fmt' },
    { language: 'rust', file: './src/main.rs', line: 4, module: 'mycrate', function: 'main' },
  ]);
});

test('C# trace with and without file locations', () => {
  const text = [
    'Unhandled exception. System.NullReferenceException: Object reference not set to an instance of an object.',
    '   at MyApp.Services.OrderService.Process(Order order) in C:\\src\\MyApp\\Services\\OrderService.cs:line 42',
    '   at MyApp.Program.Main(String[] args) in /home/u/MyApp/Program.cs:line 12',
    '   at System.Linq.Enumerable.Select[TSource,TResult](IEnumerable`1 source, Func`2 selector)',
    '   at MyApp.Worker.Run()',
  ].join('\n');
  assert.deepEqual(frames(text), [
    { language: 'csharp', file: 'C:/src/MyApp/Services/OrderService.cs', line: 42, className: 'MyApp.Services.OrderService', function: 'Process' },
    { language: 'csharp', file: '/home/u/MyApp/Program.cs', line: 12, className: 'MyApp.Program', function: 'Main' },
    { language: 'csharp', className: 'System.Linq.Enumerable', function: 'Select' },
    { language: 'csharp', className: 'MyApp.Worker', function: 'Run' },
  ]);
});

test('prose with "at" and calls is not a frame; duplicates are dropped', () => {
  assert.deepEqual(frames('Look at os.path.join() and at the docs (see at foo(bar)).'), []);
  const twice = '  File "a.py", line 1, in f\n  File "a.py", line 1, in f\n';
  assert.equal(parseStackFrames(twice).length, 1);
  assert.equal(parseStackFrames(twice)[0].raw, 'File "a.py", line 1, in f');
});

test('C / C++ debugger frames: gdb, AddressSanitizer, lldb, valgrind', () => {
  const text = [
    '==1234==    at 0x4C2AB80: malloc (vg_replace_malloc.c:299)',
    '==1234==    by 0x40053E: jv_parse (src/jv_parse.c:5)',
    '    #0 0x4f3b2c in fmt::v8::detail::buffer<char>::push_back(char) /src/fmt/include/fmt/core.h:123:5',
    '    #3 0x7f in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x29d8f)',
    '#0  0x00007ffff7a42428 in __GI_raise (sig=sig@entry=6) at ../sysdeps/unix/sysv/linux/raise.c:54',
    '#1  main () at src/main.c:12',
    '  * frame #0: 0x0000000100003f50 jq`jv_free at src/jv.c:5:3',
    '#123 fixed this, see #45',
  ].join('\n');
  const got = parseStackFrames(text).filter((f) => f.language === 'c').map((f) => [f.file, f.line, f.className, f.function]);
  assert.deepEqual(got, [
    ['vg_replace_malloc.c', 299, undefined, 'malloc'],
    ['src/jv_parse.c', 5, undefined, 'jv_parse'],
    ['/src/fmt/include/fmt/core.h', 123, 'fmt::v8::detail::buffer', 'push_back'],
    [undefined, undefined, undefined, '__libc_start_main'],
    ['../sysdeps/unix/sysv/linux/raise.c', 54, undefined, '__GI_raise'],
    ['src/main.c', 12, undefined, 'main'],
    ['src/jv.c', 5, undefined, 'jv_free'],
  ]);
});

test('every runtime trace names its format and kind; Python frames are never library frames', () => {
  const python = '  File "/usr/lib/python3/site-packages/django/db/models/query.py", line 1402, in get\nsympy/core/basic.py:130: TypeError';
  assert.deepEqual(described(python), ['python-traceback frame get', 'pytest site']);
  assert.deepEqual(described("thread 'main' panicked at src/parser.rs:120:17:"), ['rust-panic site']);
  assert.deepEqual(described('#0  0x00007ffff7a42428 in __GI_raise (sig=6) at ../sysdeps/unix/sysv/linux/raise.c:54\n    #0 0x4f3b2c in jv_free /src/jq/src/jv.c:123:5\n  * frame #0: 0x0000000100003f50 jq`jv_free at src/jv.c:5:3'),
    ['gdb frame library __GI_raise', 'sanitizer frame jv_free', 'v8 frame', 'lldb frame jv_free']); // lldb's `at file:N:M` reads as V8 too
});

test('Java: exception header, Caused by, "... N more", inner classes and lambdas; JDK and JUnit frames are library frames', () => {
  const text = [
    'Exception in thread "main" java.lang.IllegalStateException: closed',
    '\tat com.google.gson.internal.bind.TypeAdapters$16.write(TypeAdapters.java:412)',
    '\tat com.google.gson.Gson.lambda$toJson$0(Gson.java:730)',
    '\tat com.example.app.Main$Worker$1.run(Main.kt:33)',
    '\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1541)',
    '\tat org.junit.runners.ParentRunner.run(ParentRunner.java:413)',
    'Caused by: java.io.IOException: broken pipe',
    '\tat com.google.gson.stream.JsonWriter.flush(JsonWriter.java:220)',
    '\t... 12 more',
    '    at org.apache.maven.lifecycle.internal.MojoExecutor.execute (MojoExecutor.java:215)',
  ].join('\n');
  assert.deepEqual(frames(text).map((f) => [f.className, f.function]), [
    ['com.google.gson.internal.bind.TypeAdapters$16', 'write'],
    ['com.google.gson.Gson', 'toJson'],
    ['com.example.app.Main$Worker$1', 'run'],
    ['java.util.ArrayList', 'forEach'],
    ['org.junit.runners.ParentRunner', 'run'],
    ['com.google.gson.stream.JsonWriter', 'flush'],
    ['org.apache.maven.lifecycle.internal.MojoExecutor', 'execute'],
  ]);
  assert.deepEqual(parseStackFrames(text).map((f) => f.library === true), [false, false, false, true, true, false, false]);
  assert.ok(parseStackFrames(text).every((f) => f.format === 'jvm' && f.kind === 'frame'));
});

test('javac errors are sites', () => {
  const text = 'src/main/java/com/google/gson/Gson.java:731: error: cannot find symbol\n    symbol:   method toJsonTree(Object)';
  assert.deepEqual(parseStackFrames(text).map((f) => [f.format, f.kind, f.file, f.line]), [['javac', 'site', 'src/main/java/com/google/gson/Gson.java', 731]]);
});

test('Go: panic frames (standard library and module cache are library frames) and go test / go build lines', () => {
  const panic = [
    'panic: runtime error: index out of range [3] with length 3',
    '',
    'goroutine 1 [running]:',
    'github.com/zeromicro/go-zero/core/mapping.(*Unmarshaler).processField(0xc0001a2000, {0x0, 0x0})',
    '\t/home/u/go/src/github.com/zeromicro/go-zero/core/mapping/unmarshaler.go:612 +0x1d',
    'github.com/stretchr/testify/assert.Equal(...)',
    '\t/home/u/go/pkg/mod/github.com/stretchr/testify@v1.8.4/assert/assertions.go:330',
    'encoding/json.(*decodeState).object(0xc000122000, {0x100, 0xc0})',
    '\t/usr/local/go/src/encoding/json/decode.go:782 +0x75',
    'main.main()',
    '\t/home/u/app/main.go:9 +0x25',
  ].join('\n');
  assert.deepEqual(described(panic), ['go-panic frame processField', 'go-panic frame library Equal', 'go-panic frame library object', 'go-panic frame main']);
  const test = [
    '--- FAIL: TestUnmarshalInt (0.00s)',
    '    unmarshaler_test.go:57: ',
    '        \tError Trace:\tunmarshaler_test.go:57',
    '    unmarshaler_test.go:61: expected 3, got 0',
    './core/mapping/utils.go:88:6: undefined: repr',
    'ok  \tgithub.com/x/y\t0.01s',
  ].join('\n');
  assert.deepEqual(parseStackFrames(test).map((f) => [f.format, f.kind, f.file, f.line]), [
    ['go-test', 'site', 'unmarshaler_test.go', 61],
    ['go-build', 'site', './core/mapping/utils.go', 88],
  ]);
});

test('Rust: old and new panic messages, backtrace frames of std are library frames, rustc locations', () => {
  const text = [
    "thread 'main' panicked at 'attempt to subtract with overflow', src/buf/buf_impl.rs:250:9",
    "thread 'main' panicked at src/bytes.rs:1020:9:",
    'stack backtrace:',
    '   0: rust_begin_unwind',
    '             at /rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/panicking.rs:578:5',
    '   1: core::panicking::panic_fmt',
    '             at /rustc/90c541806f23a127002de5b4038be731ba1458ca/library/core/src/panicking.rs:67:14',
    '   2: bytes::bytes::Bytes::slice',
    '             at ./src/bytes.rs:1020:9',
    'error[E0599]: no method named `get_u16` found for struct `Bytes` in the current scope',
    '  --> src/main.rs:4:15',
    '   |',
    '4  |     let x = b.get_u16();',
    '   |',
    '  ::: /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/bytes-1.5.0/src/buf/buf_impl.rs:295:5',
  ].join('\n');
  assert.deepEqual(parseStackFrames(text).map((f) => [f.format, f.kind, f.library === true, f.file, f.function]), [
    ['rust-panic', 'site', false, 'src/buf/buf_impl.rs', undefined],
    ['rust-panic', 'site', false, 'src/bytes.rs', undefined],
    ['rust-backtrace', 'frame', true, '/rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/panicking.rs', 'rust_begin_unwind'],
    ['rust-backtrace', 'frame', true, '/rustc/90c541806f23a127002de5b4038be731ba1458ca/library/core/src/panicking.rs', 'panic_fmt'],
    ['rust-backtrace', 'frame', false, './src/bytes.rs', 'slice'],
    ['rustc', 'site', false, 'src/main.rs', undefined],
    ['rustc', 'note', true, '/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/bytes-1.5.0/src/buf/buf_impl.rs', undefined],
  ]);
});

test('Rust full backtrace: its frames in the C runtime are C frames (library), never JavaScript', () => {
  const text = [
    'stack backtrace:',
    '  13: std::rt::lang_start',
    '             at /rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/rt.rs:165:17',
    '  14: main',
    '  15: __libc_start_call_main',
    '             at ./csu/../sysdeps/nptl/libc_start_call_main.h:58:16',
    '  16: __libc_start_main_impl',
    '             at ./csu/../csu/libc-start.c:360:3',
    '  17: __libc_start_main',
    '             at ./csu/libc-start.c:360:3',
    '  18: _start',
    '  19: ffi::parse_header',
    '             at ./vendor/parser/parse.S:10',
  ].join('\n');
  const frames = parseStackFrames(text);
  assert.deepEqual(frames.map((f) => [f.language, f.format, f.file, f.line, f.function, f.library === true]), [
    ['rust', 'rust-backtrace', '/rustc/90c541806f23a127002de5b4038be731ba1458ca/library/std/src/rt.rs', 165, 'lang_start', true],
    ['c', 'rust-backtrace', './csu/../sysdeps/nptl/libc_start_call_main.h', 58, '__libc_start_call_main', true],
    ['c', 'rust-backtrace', './csu/../csu/libc-start.c', 360, '__libc_start_main_impl', true],
    ['c', 'rust-backtrace', './csu/libc-start.c', 360, '__libc_start_main', true],
  ]);
  assert.ok(frames.every((f) => f.language !== 'javascript'));
});

test('C / C++: compiler diagnostics, the include chain, linker errors, MSVC', () => {
  const text = [
    'In file included from /opt/compiler-explorer/libs/fmt/trunk/include/fmt/ranges.h:18,',
    '                 from <source>:1:',
    '/opt/compiler-explorer/libs/fmt/trunk/include/fmt/ranges.h:526:21: error: call of overloaded \'write<char>(fmt::v8::appender&, const X&)\' is ambiguous',
    '/opt/compiler-explorer/libs/fmt/trunk/include/fmt/format.h:2174:20: note: candidate: \'constexpr fmt::v8::enable_if_t<…>\'',
    '[build] C:/Cache/CPM/fmt/01ac/include/fmt/chrono.h:894:52: warning: unused variable \'x\' [-Wunused-variable]',
    '/usr/bin/ld: CMakeFiles/app.dir/main.cpp.o: in function `main\':',
    "main.cpp:(.text+0x1a): undefined reference to `fmt::v10::vformat[abi:cxx11](fmt::v10::basic_string_view<char>, fmt::v10::format_args)'",
    'ld.lld: error: undefined symbol: Catch::StringMaker<int>::convert(int)',
    'src\\catch2\\catch_tostring.cpp(42): error C2065: \'x\': undeclared identifier',
  ].join('\n');
  assert.deepEqual(parseStackFrames(text).map((f) => [f.format, f.kind, f.file, f.line, f.className, f.function]), [
    ['cc-include', 'note', '/opt/compiler-explorer/libs/fmt/trunk/include/fmt/ranges.h', 18, undefined, undefined],
    ['cc-diagnostic', 'site', '/opt/compiler-explorer/libs/fmt/trunk/include/fmt/ranges.h', 526, undefined, undefined],
    ['cc-diagnostic', 'note', '/opt/compiler-explorer/libs/fmt/trunk/include/fmt/format.h', 2174, undefined, undefined],
    ['cc-diagnostic', 'site', 'C:/Cache/CPM/fmt/01ac/include/fmt/chrono.h', 894, undefined, undefined],
    ['linker', 'site', undefined, undefined, 'fmt::v10', 'vformat'],
    ['linker', 'site', undefined, undefined, 'Catch::StringMaker', 'convert'],
    ['cc-diagnostic', 'site', 'src/catch2/catch_tostring.cpp', 42, undefined, undefined],
  ]);
});

test('JavaScript / TypeScript: V8 async and bundler frames, node_modules and node: frames are library frames, Firefox/Safari, tsc', () => {
  const v8 = [
    'AxiosError: Request failed with status code 404',
    '    at settle (file:///app/node_modules/axios/lib/core/settle.js:19:12)',
    '    at async fetchStats (/app/src/fetchers/stats-fetcher.js:88:5)',
    '    at Module._compile (node:internal/modules/cjs/loader:1105:14)',
    '    at eval (webpack-internal:///./src/components/Card.vue?3a1b:12:5)',
  ].join('\n');
  assert.deepEqual(parseStackFrames(v8).map((f) => [f.format, f.library === true, f.file, f.function]), [
    ['v8', true, 'file:///app/node_modules/axios/lib/core/settle.js', 'settle'],
    ['v8', false, '/app/src/fetchers/stats-fetcher.js', 'fetchStats'],
    ['v8', true, 'node:internal/modules/cjs/loader', '_compile'],
    ['v8', false, 'webpack-internal:///./src/components/Card.vue', 'eval'],
  ]);
  const firefox = [
    'TypeError: e is undefined',
    'renderCard@http://localhost:3000/src/cards/stats-card.js:120:7',
    'Card.prototype.render@webpack:///./src/common/Card.js?abcd:40:11',
    'promise callback*fetchStats/<@http://localhost:3000/src/fetchers/stats-fetcher.js:88:5',
    '@http://localhost:3000/main.js:3:1',
    'write to me@example.com:12:3 please',
  ].join('\n');
  assert.deepEqual(parseStackFrames(firefox).map((f) => [f.format, f.file, f.className, f.function]), [
    ['firefox', 'http://localhost:3000/src/cards/stats-card.js', undefined, 'renderCard'],
    ['firefox', 'webpack:///./src/common/Card.js', 'Card', 'render'],
    ['firefox', 'http://localhost:3000/src/fetchers/stats-fetcher.js', undefined, 'fetchStats'],
    ['firefox', 'http://localhost:3000/main.js', undefined, undefined],
  ]);
  const tsc = 'src/network/insomnia-fetch.ts(42,7): error TS2345: Argument of type \'string\' is not assignable\npackages/x/src/y.tsx:10:3 - error TS2322: Type \'number\' is not assignable';
  assert.deepEqual(parseStackFrames(tsc).map((f) => [f.format, f.kind, f.file, f.line]), [
    ['tsc', 'site', 'src/network/insomnia-fetch.ts', 42],
    ['tsc', 'site', 'packages/x/src/y.tsx', 10],
  ]);
});

test('report formats leave Python reports and prose alone', () => {
  const text = [
    'astropy/io/fits/card.py:12:5: E501 line too long',
    'setup.py:3: error: Module has no attribute "x"',
    'we moved it from src/a.c:1 to src/b.c:2 last week',
    'mail me@home.py:1:2',
    'an undefined reference to the docs',
  ].join('\n');
  assert.deepEqual(parseStackFrames(text).filter((f) => f.language !== 'python'), []);
});

test('Rust backtraces quoted in a reply (`> `) and in the v0 symbol format keep their functions', () => {
  const text = [
    '> stack backtrace:',
    '>    2: mycrate::parser::parse_header',
    '>              at ./src/parser.rs:2:5',
    '   6: mycrate[1a2b3c4d5e6f7a8b]::Foo::run',
    '             at ./src/main.rs:4:61',
    '   7: mycrate[1a2b3c4d5e6f7a8b]::main::{closure#0}',
    '             at ./src/main.rs:8:44',
    '   8: <mycrate[1a2b3c4d5e6f7a8b]::Foo as core[c1f1a4ba060b9bfa]::fmt::Display>::fmt',
    '             at ./src/main.rs:12:5',
    '   9: mycrate::run::{{closure}}',
    '             at ./src/main.rs:20:5',
  ].join('\n');
  assert.deepEqual(parseStackFrames(text).map((f) => [f.file, f.line, f.module, f.className, f.function]), [
    ['./src/parser.rs', 2, 'mycrate::parser', undefined, 'parse_header'],
    ['./src/main.rs', 4, 'mycrate', 'Foo', 'run'],
    ['./src/main.rs', 8, 'mycrate', undefined, 'main'],
    ['./src/main.rs', 12, 'mycrate', 'Foo', 'fmt'],
    ['./src/main.rs', 20, 'mycrate', undefined, 'run'],
  ]);
});
