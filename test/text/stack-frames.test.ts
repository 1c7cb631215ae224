import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStackFrames, type StackFrame } from '../../src/text/stack-frames.js';

/** The frames without `raw`, for compact comparison. */
function frames(text: string): Omit<StackFrame, 'raw'>[] {
  return parseStackFrames(text).map(({ raw: _raw, ...rest }) => rest);
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
