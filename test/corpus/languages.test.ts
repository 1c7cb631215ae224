import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTestPath, languageOf } from '../../src/corpus/languages.js';

test('languageOf: code by extension, nothing for docs, configs, data or bundles', () => {
  const cases: [string, string | undefined][] = [
    ['a/b.py', 'python'], ['A.java', 'java'], ['x.js', 'javascript'], ['x.mjs', 'javascript'],
    ['x.cjs', 'javascript'], ['x.jsx', 'javascript'], ['x.ts', 'typescript'], ['x.tsx', 'typescript'],
    ['x.mts', 'typescript'], ['x.cts', 'typescript'], ['m.go', 'go'], ['m.c', 'c'], ['m.h', 'c'],
    ['m.cc', 'cpp'], ['m.cpp', 'cpp'], ['m.cxx', 'cpp'], ['m.hpp', 'cpp'], ['m.hh', 'cpp'],
    ['m.hxx', 'cpp'], ['P.cs', 'csharp'], ['r.rb', 'ruby'], ['i.php', 'php'], ['l.rs', 'rust'],
    ['K.kt', 'kotlin'], ['S.scala', 'scala'], ['V.swift', 'swift'], ['UPPER.PY', 'python'],
    ['README.md', undefined], ['setup.cfg', undefined], ['pkg.json', undefined], ['a.yaml', undefined],
    ['data.csv', undefined], ['index.html', undefined], ['style.css', undefined], ['Makefile', undefined],
    ['stubs.pyi', undefined], ['dist/app.min.js', undefined], ['.py', undefined], ['docs/conf.txt', undefined],
  ];
  for (const [path, lang] of cases) assert.equal(languageOf(path), lang, path);
});

test('isTestPath: the SWE-bench rule for Python, exactly', () => {
  const yes = ['tests/x.py', 'pkg/test/util.py', 'sympy/core/tests/test_basic.py', 'test_a.py', 'pkg/a_test.py', 'test_data.json'];
  const no = ['pkg/testing.py', 'pkg/conftest.py', 'pkg/testing/util.py', 'Tests/x.py', 'pkg/mytest.py', 'spec/x.py', '__tests__/x.py', 'pkg/TestX.py', 'pkg/latest.py'];
  for (const p of yes) assert.equal(isTestPath(p), true, p);
  for (const p of no) assert.equal(isTestPath(p), false, p);
});

test('isTestPath: each ecosystem\'s own convention', () => {
  const yes = [
    'pkg/server_test.go', 'pkg/testdata/in.go', 'src/test/java/a/FooTest.java', 'core/FooTest.java',
    'core/TestFoo.java', 'core/FooTests.kt', 'core/FooIT.java', 'app/src/androidTest/A.kt', 'core/FooSpec.scala',
    'src/a.test.ts', 'src/a.spec.js', 'src/__tests__/a.tsx', 'web/b.test.jsx', 'spec/models/user_spec.rb',
    'lib/foo_test.rb', 'src/FooTest.php', 'Lib.Tests/FooTests.cs', 'App.UnitTests/Util.cs', 'Tests/AppTests/A.swift',
    'base/strings_unittest.cc', 'src/list_test.c', 'tests/integration.rs',
    'src/walk/tests.rs', 'src/test.rs', 'lib/src/commonTest/kotlin/A.kt', 'app/src/jvmTest/A.kt', 'app/src/integrationTest/java/A.java',
    'types/index.test-d.ts', 'src/list_tests.cpp',
  ];
  const no = [
    'pkg/server.go', 'src/main/java/a/Foo.java', 'core/Testimony.kt'.replace('Testimony', 'Protest'), 'src/a.ts',
    'src/contest.js', 'lib/spec_helper_x.py', 'app/models/spec.rb', 'src/Foo.php', 'Lib/Foo.cs', 'Sources/A.swift',
    'src/list.c', 'src/lib.rs', 'web/spec/a.js', 'src/testing.rs', 'src/attest.rs', 'app/src/contest/A.kt', 'pkg/tests.go',
  ];
  for (const p of yes) assert.equal(isTestPath(p), true, p);
  for (const p of no) assert.equal(isTestPath(p), false, p);
});
